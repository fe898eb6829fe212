"""Every view against every role: anonymous, signed-in non-member, seated player, host, staff."""

import pytest
from django.test import Client

from games.models import Room
from games.services import bots
from tests.rooms import friends_room

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "stranger", "seated", "host", "staff"]


@pytest.fixture
def world(make_account, host):
    seated = make_account("sam")
    room = friends_room(host, {"sam": seated}, seats=3, rounds=1)
    bots.create_bot(owner_id=host.pk, name="Botty")
    users = {
        "stranger": make_account("stan"),
        "seated": seated,
        "host": host,
        "staff": make_account("staff", is_staff=True),
    }

    def client_for(role):
        client = Client()
        if role != "anonymous":
            client.force_login(users[role])
        return client

    return room, client_for


# (view, method, expected status per role); a private room is visible to its members only.
CASES = {
    "lobby": ("get", lambda r: "/", [200, 200, 200, 200, 200]),
    "new game": ("get", lambda r: "/new/", [200, 200, 200, 200, 200]),
    "room page": ("get", lambda r: f"/r/{r.code}/", [404, 404, 200, 200, 404]),
    "profile": ("get", lambda r: "/accounts/profile/", [302, 200, 200, 200, 200]),
    "password": ("get", lambda r: "/accounts/password/", [302, 200, 200, 200, 200]),
    "admin": ("get", lambda r: "/admin/", [302, 302, 302, 302, 200]),
    # Bots (docs/bots.md): a bot's page is public; making one needs an account (an empty
    # form is refused in words); the API takes a bot's token only, never a session.
    "bot page": ("get", lambda r: "/bots/Botty/", [200, 200, 200, 200, 200]),
    "make a bot": ("post", lambda r: "/accounts/profile/bots/", [302, 400, 400, 400, 400]),
    "invite a bot": ("post", lambda r: f"/r/{r.code}/invite-bot/", [404, 404, 302, 302, 404]),
    "bot account": ("get", lambda r: "/api/bot/account", [401, 401, 401, 401, 401]),
    "bot stream": ("get", lambda r: "/api/bot/stream", [401, 401, 401, 401, 401]),
    "accept": ("post", lambda r: "/api/bot/challenges/1/accept", [401, 401, 401, 401, 401]),
    "decline": ("post", lambda r: "/api/bot/challenges/1/decline", [401, 401, 401, 401, 401]),
    "bot game": ("post", lambda r: "/api/bot/challenge/Botty", [401, 401, 401, 401, 401]),
}


@pytest.mark.parametrize("view", list(CASES))
@pytest.mark.parametrize("role", ROLES)
def test_who_may_see_each_view(world, view, role):
    room, client_for = world
    method, url, expected = CASES[view]
    response = getattr(client_for(role), method)(url(room))
    assert response.status_code == expected[ROLES.index(role)]


@pytest.mark.parametrize("role", ROLES)
def test_room_page_with_either_token_is_open_to_all(world, role):
    room, client_for = world
    assert client_for(role).get(f"/r/{room.code}/?t={room.token}").status_code == 200
    assert client_for(role).get(f"/r/{room.code}/?t={room.watch_token}").status_code == 200


# The invitation link: GET shows the game to anyone (members go straight to the room),
# POST sits down: visitors as guests under the name they type, signed-in players as
# themselves. Neither ever works with the watch token.
JOIN_GET = {"anonymous": 200, "stranger": 200, "seated": 302, "host": 302, "staff": 200}


@pytest.mark.parametrize("role", ROLES)
def test_join_link_by_role(world, role):
    room, client_for = world
    client = client_for(role)
    before = {s.index: (s.user_id, s.guest) for s in room.seats.all()}
    response = client.get(f"/join/{room.token}/")
    assert response.status_code == JOIN_GET[role]
    if response.status_code == 302:
        assert response["Location"] == f"/r/{room.code}/"
    assert {s.index: (s.user_id, s.guest) for s in room.seats.all()} == before
    for token in (room.watch_token, room.token[:-1]):
        assert client.get(f"/join/{token}/").status_code == 404
        assert client.post(f"/join/{token}/").status_code == 404
    if role == "anonymous":  # a visitor must say who they are
        assert client.post(f"/join/{room.token}/").status_code == 200
        assert {s.index: (s.user_id, s.guest) for s in room.seats.all()} == before
    response = client.post(
        f"/join/{room.token}/", {"name": "Newcomer"} if role == "anonymous" else {}
    )
    assert response.status_code == 302
    taken = [s for s in room.seats.all() if not s.is_empty]
    if role in ("anonymous", "stranger", "staff"):
        assert response["Location"] == f"/r/{room.code}/" and len(taken) == 3
    else:
        assert len(taken) == 2


@pytest.mark.parametrize("role", ROLES)
def test_only_the_host_starts_or_removes(world, role):
    room, client_for = world
    client = client_for(role)
    client.post(f"/r/{room.code}/remove/1/")
    client.post(f"/r/{room.code}/start/", {"fill": "1"})
    room.refresh_from_db()
    started = room.status == Room.Status.PLAYING
    removed = room.seats.get(index=1).user_id is None
    if role == "host":
        assert removed and started
    else:
        assert not removed and not started


@pytest.mark.parametrize("role", ROLES)
def test_invite_and_watch_links_shown_only_to_members(world, role):
    room, client_for = world
    text = client_for(role).get(f"/r/{room.code}/?t={room.watch_token}").content.decode()
    member = role in ("seated", "host")
    assert (f"/join/{room.token}/" in text) == member
    watch_link = f'value="http://testserver/r/{room.code}/?t={room.watch_token}"'
    assert (watch_link in text) == member
    # A spectator's page hands its own token to the socket, never the invitation.
    assert (room.token in text) == member


def test_listed_rooms_are_open_to_everyone(world):
    room, client_for = world
    Room.objects.filter(pk=room.pk).update(listed=True)
    assert client_for("anonymous").get(f"/r/{room.code}/").status_code == 200
