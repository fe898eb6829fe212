import logging
from urllib.parse import quote

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import selectors, services
from games.models import Room, Round, Seat
from tests.lobby.conftest import PASSWORD, logged_in

pytestmark = pytest.mark.django_db


def test_a_visitor_sees_who_invites_them_to_which_game(client, make_friends_room):
    """No log-in on the way: the link itself says whose game it is and how it is played."""
    room = make_friends_room(seats=3)
    response = client.get(f"/join/{room.token}/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "hana invites you to play Babanuki" in text
    assert "1 of 3 seats taken" in text
    assert "One round" in text  # the fixture's Babanuki is one round long
    assert "With friends, each on their own device" in text
    assert 'name="name"' in text and 'autocomplete="nickname"' in text
    assert "csrfmiddlewaretoken" in text and "Take a seat" in text
    # An account stays optional: signing up (or logging in) comes back here.
    assert f"/accounts/signup/?next=%2Fjoin%2F{room.token}%2F" in text
    assert f"/accounts/login/?next=%2Fjoin%2F{room.token}%2F" in text
    assert "If you sign up later, this game stays yours." in text
    assert room.seats.exclude(user=None).count() == 1 and not room.seats.exclude(guest="")
    assert "sessionid" not in response.cookies  # opening the link makes no guest


def test_a_guest_sits_down_at_once_with_the_name_they_type(client, make_friends_room):
    room = make_friends_room()
    response = client.post(f"/join/{room.token}/", {"name": "  Mia   Rose "})
    assert response["Location"] == f"/r/{room.code}/"
    seat = Seat.objects.get(room=room, index=1)
    assert seat.name == "Mia Rose" and seat.user_id is None
    assert seat.guest == client.session["guest_id"]
    # The room page is theirs, and the link now leads there.
    page = client.get(f"/r/{room.code}/").content.decode()
    assert "Mia Rose" in page
    assert client.get(f"/join/{room.token}/")["Location"] == f"/r/{room.code}/"
    assert client.post(f"/join/{room.token}/", {"name": "Again"})["Location"] == f"/r/{room.code}/"
    assert Seat.objects.filter(room=room).exclude(guest="").count() == 1


@pytest.mark.parametrize("name", ["Zoë", "さくら", "小明", "x" * 30, "Ann-Marie O'Neil"])
def test_names_in_any_script_up_to_thirty_characters(client, make_friends_room, name):
    room = make_friends_room()
    assert client.post(f"/join/{room.token}/", {"name": name}).status_code == 302
    assert Seat.objects.get(room=room, index=1).name == name


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Type a name."),
        ("    ", "Type a name."),
        ("x" * 31, "A name is at most 30 characters long."),
        ("Mi\x07a", "A name cannot contain invisible characters or control characters."),
        ("Mi\na", "A name cannot contain invisible characters or control characters."),
        ("\u202eevil", "A name cannot contain invisible characters or control characters."),
        ("HANA", "Someone at this table is already called HANA"),
    ],
)
def test_a_name_that_does_not_fit_is_refused_next_to_the_field(
    client, make_friends_room, name, message
):
    room = make_friends_room()
    response = client.post(f"/join/{room.token}/", {"name": name})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()
    assert Seat.objects.filter(room=room, index=1, guest="", user=None).exists()


def test_a_guest_who_joined_by_invitation_keeps_the_seat_on_signing_up(client, make_friends_room):
    room = make_friends_room()
    client.post(f"/join/{room.token}/", {"name": "Mia"})
    guest = client.session["guest_id"]
    response = client.post(
        f"/accounts/signup/?next=/r/{room.code}/",
        {"username": "mia", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response["Location"] == f"/r/{room.code}/"
    seat = Seat.objects.get(room=room, index=1)
    assert seat.user.get_username() == "mia" and seat.guest == "" and seat.name == "Mia"
    assert not Seat.objects.filter(guest=guest).exists()
    page = client.get(f"/r/{room.code}/")
    assert page.context["seated"]


def test_signed_in_players_sit_down_as_themselves_or_under_a_name(
    client, make_friends_room, make_account
):
    room = make_friends_room(seats=4)
    gus = make_account("gus")
    text = logged_in(client, gus).get(f"/join/{room.token}/").content.decode()
    assert 'value="gus"' in text and "Left as it is, you sit down as gus." in text
    assert "If you sign up later" not in text
    client.post(f"/join/{room.token}/", {"name": ""})
    assert Seat.objects.get(room=room, user=gus).name == "gus"
    ida = make_account("ida")
    logged_in(client, ida).post(f"/join/{room.token}/", {"name": "Ida the Bold"})
    assert Seat.objects.get(room=room, user=ida).name == "Ida the Bold"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", ["hanaさんからババ抜きへのお誘いです", "4席中1席が埋まっています", "ゲストとして"]),
        ("zh-hans", ["hana 邀请你玩日式抽鬼牌", "4 个座位中已有 1 个有人", "访客身份"]),
    ],
)
def test_the_invitation_speaks_the_readers_language(client, make_friends_room, language, expected):
    room = make_friends_room(seats=4)
    text = client.get(f"/join/{room.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for words in expected:
        assert words in text


def test_logging_in_leads_back_to_the_join_page(client, make_friends_room, make_account):
    room = make_friends_room()
    make_account("back")
    response = client.post(
        "/accounts/login/",
        {"username": "back", "password": PASSWORD, "next": f"/join/{room.token}/"},
    )
    assert response["Location"] == f"/join/{room.token}/"
    assert client.get(response["Location"]).status_code == 200


def test_the_join_page_says_which_game_and_seats_nobody(client, make_friends_room, make_account):
    room = make_friends_room(seats=4, variant="schwarzer_peter")
    guest = make_account("gus")
    response = logged_in(client, guest).get(f"/join/{room.token}/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "hana invites you to play Schwarzer Peter" in text
    assert "1 of 4 seats taken" in text
    assert "Each round's loser takes a strike; 3 strikes lose the match" in text
    assert f'<form method="post" action="/join/{room.token}/"' in text
    assert "csrfmiddlewaretoken" in text and "Take a seat" in text
    assert f"?t={room.watch_token}" in text  # "just watch" uses the watch token
    # Opening (or prefetching) the link takes no seat.
    assert not Seat.objects.filter(room=room, user=guest).exists()


def test_the_button_takes_a_free_seat(client, make_friends_room, make_account):
    room = make_friends_room()
    guest = make_account("gus")
    response = logged_in(client, guest).post(f"/join/{room.token}/")
    assert response["Location"] == f"/r/{room.code}/"
    assert Seat.objects.get(room=room, user=guest).index == 1
    # Pressing it again, or opening the link again, changes nothing.
    assert client.post(f"/join/{room.token}/")["Location"] == f"/r/{room.code}/"
    assert client.get(f"/join/{room.token}/")["Location"] == f"/r/{room.code}/"
    assert Seat.objects.filter(room=room, user=guest).count() == 1


def test_sitting_down_needs_the_csrf_token(make_friends_room, make_account):
    room = make_friends_room()
    guest = make_account("forged")
    client = Client(enforce_csrf_checks=True)
    client.force_login(guest)
    assert client.post(f"/join/{room.token}/").status_code == 403
    assert not Seat.objects.filter(room=room, user=guest).exists()
    page = client.get(f"/join/{room.token}/")
    token = page.context["csrf_token"]
    response = client.post(f"/join/{room.token}/", {"csrfmiddlewaretoken": str(token)})
    assert response.status_code == 302
    assert Seat.objects.filter(room=room, user=guest).exists()


def test_full_or_started_room_offers_to_watch(client, make_friends_room, make_account, host):
    room = make_friends_room(seats=2)
    logged_in(client, make_account("first")).post(f"/join/{room.token}/")
    late = make_account("late")
    logged_in(client, late)
    for method in (client.get, client.post):
        response = method(f"/join/{room.token}/")
        assert response.status_code == 200
        text = response.content.decode()
        assert "Every seat is taken" in text
        assert f"/r/{room.code}/?t={room.watch_token}" in text
        assert room.token not in text.replace(f"/join/{room.token}/", "")
    assert client.get(f"/r/{room.code}/?t={room.watch_token}").status_code == 200

    started = make_friends_room(seats=3)
    services.start_match(
        room_id=started.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    for method in (client.get, client.post):
        text = method(f"/join/{started.token}/").content.decode()
        assert "This match has already started" in text
        assert f"/r/{started.code}/?t={started.watch_token}" in text
    assert not Seat.objects.filter(user=late).exists()


def test_the_watch_token_watches_and_never_takes_a_seat(client, make_friends_room, make_account):
    room = make_friends_room()
    viewer = make_account("viewer")
    logged_in(client, viewer)
    assert client.get(f"/r/{room.code}/?t={room.watch_token}").status_code == 200
    assert client.get(f"/join/{room.watch_token}/").status_code == 404
    assert client.post(f"/join/{room.watch_token}/").status_code == 404
    assert not Seat.objects.filter(room=room, user=viewer).exists()
    # The socket check takes either token for watching.
    actor = services.Actor(user_id=viewer.pk)
    assert isinstance(selectors.socket_access(room.code, actor, room.watch_token), selectors.Access)
    assert isinstance(selectors.socket_access(room.code, actor, room.token), selectors.Access)
    assert selectors.socket_access(room.code, actor, "") is False  # not allowed


MALFORMED = [
    "x",
    "0" * 43,
    "guessed-token",
    "é" * 43,  # non-ASCII: once a 500 and a traceback
    "ｔ" * 43,  # full-width letters
    "a" * 65,  # longer than any token
    "a" * 5000,
    "bad token",
    "a.b",
    "\x00" * 43,  # PostgreSQL refuses NUL in strings
    "%00",
]


@pytest.fixture
def no_errors_logged(caplog):
    caplog.set_level(logging.ERROR)
    yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("token", MALFORMED)
def test_wrong_and_malformed_tokens_are_a_plain_404(
    client, make_friends_room, token, make_account, no_errors_logged
):
    room = make_friends_room()
    quoted = quote(token, safe="")
    user = make_account("u")
    for c in (client, logged_in(Client(), user)):
        for response in (
            c.get(f"/join/{quoted}/"),
            c.post(f"/join/{quoted}/"),
            c.get(f"/r/{room.code}/?t={quoted}"),
            c.get(f"/replay/{quoted}/"),
        ):
            assert response.status_code == 404
            assert "room" not in response.content.decode().lower().split("<main", 1)[1]
    actor = services.Actor(user_id=user.pk)
    # A malformed token is a wrong one: the room exists, this socket may not see it.
    assert selectors.socket_access(room.code, actor, token) is False
    assert not selectors.may_view(room, actor, token)
    assert selectors.socket_access(token, actor, room.token) is None  # a malformed code


@pytest.mark.parametrize("code", ["é" * 6, "\x00" * 6, "abc def", "A" * 500])
def test_malformed_room_codes_are_a_plain_404(client, code, no_errors_logged):
    assert client.get(f"/r/{quote(code, safe='')}/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("token", ["é" * 43, "\x00" * 43, "a" * 5000, "x"])
async def test_a_malformed_token_is_accepted_then_closed_with_4403_like_a_wrong_one(
    make_friends_room, token, no_errors_logged
):
    room = await database_sync_to_async(make_friends_room)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/rooms/{room.code}/?t={quote(token, safe='')}",
        headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")],
    )
    connected, _ = await socket.connect(timeout=30)
    assert connected  # accepted, then closed with a code the page reads (docs/protocol.md)
    message = await socket.receive_output(timeout=30)
    assert (message["type"], message.get("code")) == ("websocket.close", 4403)


def test_host_can_remove_a_waiting_player_and_others_cannot(
    client, make_friends_room, make_account, host
):
    room = make_friends_room()
    guest = make_account("gone")
    logged_in(client, guest).post(f"/join/{room.token}/")
    other = make_account("other")
    logged_in(client, other).post(f"/join/{room.token}/")
    response = logged_in(client, other).post(f"/r/{room.code}/remove/1/")
    assert Seat.objects.get(room=room, index=1).user_id == guest.pk
    response = logged_in(client, host).post(f"/r/{room.code}/remove/1/", follow=True)
    assert "The seat is free again" in response.content.decode()
    assert Seat.objects.get(room=room, index=1).is_empty


def test_host_starts_early_filling_with_the_computer(client, make_friends_room, host, make_account):
    room = make_friends_room(seats=4)
    guest = make_account("early")
    logged_in(client, guest).post(f"/join/{room.token}/")
    response = logged_in(client, guest).post(f"/r/{room.code}/start/", {"fill": "1"}, follow=True)
    assert "Only the host may start" in response.content.decode()
    response = logged_in(client, host).post(f"/r/{room.code}/start/", {"fill": "0"}, follow=True)
    assert "Some seats are still empty" in response.content.decode()
    logged_in(client, host).post(f"/r/{room.code}/start/", {"fill": "1"})
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    assert [s.is_computer for s in room.seats.all()] == [False, False, True, True]


def test_every_watch_link_uses_the_watch_token(client, make_friends_room, host, make_account):
    room = make_friends_room()
    text = logged_in(client, host).get(f"/r/{room.code}/").content.decode()
    assert f"/join/{room.token}/" in text  # the invitation, beside
    assert f"/r/{room.code}/?t={room.watch_token}" in text  # the link to watch
    services.start_match(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    text = client.get(f"/r/{room.code}/").content.decode()
    assert room.token not in text and f"?t={room.watch_token}" in text
    rnd = Round.objects.get(match__room=room)
    text = Client().get(f"/replay/{rnd.replay_id}/").content.decode()
    assert room.token not in text and f"?t={room.watch_token}" in text
