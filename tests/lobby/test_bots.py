"""Bot accounts and the bot API's HTTP endpoints (docs/bots.md): who may make, re-token
and revoke a bot, what a token opens and what it never does, the challenges' answers,
and the limits at their boundary. The stream and the token socket run over a real Daphne
(tests/system/test_bots.py)."""

import hashlib
import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import selectors
from games.engine.view import view_for
from games.identity import Actor
from games.models import Bot, Challenge, Room
from games.realtime import streams
from games.services import bots
from tests import rooms
from tests.lobby.conftest import PASSWORD, logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(make_account):
    return make_account("ann")


def new_bot(owner, name="RandomRita", *, online=True) -> tuple[Bot, str]:
    bot, token = bots.create_bot(owner_id=owner.pk, name=name, description="draws at random")
    if online:
        assert streams.claim(bot.pk)
    return bot, token


def api(client, method: str, path: str, token: str | None = None, **extra):
    """One API call; with no ``data``, no body (the test client's default is a form)."""
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    if method not in ("get", "head"):
        extra.setdefault("data", "")
        extra.setdefault("content_type", "application/json")
    return getattr(client, method)(path, **headers, **extra)


def waiting_room(host, seats=3) -> Room:
    return rooms.friends_room(host, seats=seats)


# -- accounts and tokens ------------------------------------------------------------------


def test_making_a_bot_shows_its_token_once_and_keeps_only_its_hash(client, owner):
    logged_in(client, owner)
    response = client.post(
        "/accounts/profile/bots/", {"name": "RandomRita", "description": "draws at random"}
    )
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    token = response.context["token"]
    assert token.startswith("omb_") and token in response.content.decode()
    bot = Bot.objects.get(user__username="RandomRita")
    assert bot.owner == owner and bot.description == "draws at random"
    assert bot.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(Bot.objects.filter(pk=bot.pk).values().first())
    assert not bot.user.has_usable_password()
    # The profile lists it, never with its token.
    page = client.get("/accounts/profile/").content.decode()
    assert "RandomRita" in page and token not in page and "has a token" in page


def test_a_bot_account_cannot_sign_in_through_the_forms(client, owner):
    bot, _token = new_bot(owner)
    for password in ("", PASSWORD, "!"):
        response = client.post("/accounts/login/", {"username": bot.name, "password": password})
        assert response.status_code == 200 and "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("ann", "That name is taken"),  # a person's name, whatever its case
        ("ANN", "That name is taken"),
        ("x", "Use 2 to 30 letters"),
        ("a" * 31, "Use 2 to 30 letters"),
        ("-lead", "Use 2 to 30 letters"),
        ("has space", "Use 2 to 30 letters"),
    ],
)
def test_a_bot_name_is_refused_in_words(client, owner, name, refused):
    logged_in(client, owner)
    response = client.post("/accounts/profile/bots/", {"name": name})
    assert response.status_code == 400 and refused in response.content.decode()
    assert not Bot.objects.exists()


def test_the_names_at_the_length_boundary_are_taken(client, owner):
    logged_in(client, owner)
    for name in ("ab", "b" * 30):
        assert client.post("/accounts/profile/bots/", {"name": name}).status_code == 200
    assert Bot.objects.count() == 2


def test_one_person_owns_at_most_so_many_bots(client, owner, settings):
    settings.BOTS_PER_OWNER = 2
    logged_in(client, owner)
    assert client.post("/accounts/profile/bots/", {"name": "one"}).status_code == 200
    assert client.post("/accounts/profile/bots/", {"name": "two"}).status_code == 200
    response = client.post("/accounts/profile/bots/", {"name": "three"})
    assert (
        response.status_code == 400 and "the most one person may have" in response.content.decode()
    )


def test_making_a_bot_needs_a_sign_in_and_the_form_token(owner):
    anonymous = Client()
    response = anonymous.post("/accounts/profile/bots/", {"name": "Sneaky"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    guarded = Client(enforce_csrf_checks=True)
    logged_in(guarded, owner)
    assert guarded.post("/accounts/profile/bots/", {"name": "Sneaky"}).status_code == 403
    assert not Bot.objects.exists()


def test_a_new_token_replaces_the_old_and_revoking_leaves_none(client, owner):
    bot, old = new_bot(owner)
    logged_in(client, owner)
    response = client.post(f"/accounts/profile/bots/{bot.pk}/token/")
    new = response.context["token"]
    assert response["Cache-Control"] == "no-store" and new != old
    assert api(client, "get", "/api/bot/account", old).status_code == 401
    assert api(client, "get", "/api/bot/account", new).json()["name"] == "RandomRita"
    client.post(f"/accounts/profile/bots/{bot.pk}/revoke/")
    assert api(client, "get", "/api/bot/account", new).status_code == 401


def test_nobody_else_re_tokens_or_revokes_a_bot(client, owner, make_account):
    bot, token = new_bot(owner)
    logged_in(client, make_account("mallory"))
    client.post(f"/accounts/profile/bots/{bot.pk}/token/")
    client.post(f"/accounts/profile/bots/{bot.pk}/revoke/")
    bot.refresh_from_db()
    assert bot.token_hash == hashlib.sha256(token.encode()).hexdigest()


def test_a_bot_page_names_its_owner_and_says_it_is_a_bot(client, owner):
    new_bot(owner)
    page = client.get("/bots/randomrita/").content.decode()
    assert "RandomRita" in page and "written by ann" in page and "draws at random" in page
    assert 'class="badge bot"' in page and "Online" in page
    assert client.get("/bots/nobody/").status_code == 404


# -- the API's doors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/bot/account"),
        ("get", "/api/bot/stream"),
        ("post", "/api/bot/challenges/1/accept"),
        ("post", "/api/bot/challenges/1/decline"),
        ("post", "/api/bot/challenge/Other"),
    ],
)
def test_every_endpoint_refuses_a_missing_wrong_or_revoked_token(client, owner, method, path):
    bot, token = new_bot(owner)
    bots.revoke_token(owner_id=owner.pk, bot_id=bot.pk)
    for headers in (
        {},
        {"HTTP_AUTHORIZATION": "Bearer omb_" + "x" * 43},
        {"HTTP_AUTHORIZATION": f"Bearer {token}"},  # revoked
        {"HTTP_AUTHORIZATION": token},  # no scheme
        {"HTTP_AUTHORIZATION": f"Basic {token}"},
    ):
        response = getattr(client, method)(path, **headers)
        assert response.status_code == 401, headers
        assert response.json()["error"] == "unauthorized"
        assert response["WWW-Authenticate"] == 'Bearer realm="bots"'


def test_a_token_in_the_url_opens_nothing(client, owner):
    _bot, token = new_bot(owner)
    assert client.get(f"/api/bot/account?token={token}").status_code == 401
    assert client.get(f"/api/bot/account?access_token={token}").status_code == 401


def test_a_signed_in_person_is_not_a_bot(client, owner):
    logged_in(client, owner)
    assert client.get("/api/bot/account").status_code == 401


def test_the_api_answers_in_json_for_what_it_does_not_serve(client, owner):
    _bot, token = new_bot(owner)
    response = api(client, "get", "/api/bot/nothing-here", token)
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    wrong = api(client, "get", "/api/bot/challenges/1/accept", token)
    assert wrong.status_code == 405 and wrong["Allow"] == "POST"
    assert wrong.json()["error"] == "method_not_allowed"
    assert api(client, "post", "/api/bot/challenges/1/agree", token).status_code == 404


#: Every method a client may send to the API (HEAD aside: it has no body to read).
METHODS = ("get", "post", "put", "patch", "delete", "options")


@pytest.mark.parametrize(
    "path",
    [
        "/api/bot/nothing",
        "/api/bot/challenges/abc/accept",
        "/api/bot/challenges/1/agree",
        "/api/bot/challenge/",
        "/api/bot/account/",
        "/api/bot",
    ],
)
def test_any_other_path_of_the_api_is_a_json_404_whatever_the_method(owner, path):
    _bot, token = new_bot(owner)
    client = Client(enforce_csrf_checks=True)  # as a real server: no CSRF cookie is sent
    for method in METHODS:
        response = api(client, method, path, token)
        assert response.status_code == 404, (method, response.content[:200])
        assert response["Content-Type"] == "application/json", method
        assert response.json()["error"] == "not_found"


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/api/bot/account", "GET"),
        ("/api/bot/stream", "GET"),
        ("/api/bot/challenges/1/accept", "POST"),
        ("/api/bot/challenges/1/decline", "POST"),
        ("/api/bot/challenge/Beta", "POST"),
    ],
)
def test_a_known_path_answers_any_other_method_with_a_json_405(owner, path, allowed):
    _bot, token = new_bot(owner)
    client = Client(enforce_csrf_checks=True)
    for method in METHODS:
        if method.upper() == allowed:
            continue
        response = api(client, method, path, token)
        assert response.status_code == 405, (method, response.content[:200])
        assert response["Content-Type"] == "application/json", method
        assert response.json()["error"] == "method_not_allowed"
        assert response["Allow"] == allowed


def test_a_body_past_the_upload_limit_is_a_json_400(owner, settings):
    _bot, token = new_bot(owner)
    body = b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    for path in ("/api/bot/challenge/Beta", "/api/bot/challenges/1/accept"):
        response = api(Client(), "post", path, token, data=body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"] == "malformed", path


def test_a_persons_cookies_open_nothing_under_the_api_without_a_csrf_token(owner, make_account):
    """The API is exempt from the CSRF check because it reads no cookie: a signed-in
    person's request, sent without the form's CSRF token, changes nothing there."""
    bot, _token = new_bot(owner)
    new_bot(owner, "Beta")
    host = make_account("hana")
    made = bots.challenge(
        room_id=waiting_room(host).pk, actor=Actor(user_id=host.pk), bot_name=bot.name
    )
    guarded = Client(enforce_csrf_checks=True)
    logged_in(guarded, owner)
    for path in (
        f"/api/bot/challenges/{made.pk}/accept",
        f"/api/bot/challenges/{made.pk}/decline",
        "/api/bot/challenge/Beta",
    ):
        response = guarded.post(path, {}, content_type="application/json")
        assert response.status_code == 401 and response.json()["error"] == "unauthorized", path
    # The catch-all serves no other view, however the path is spelt.
    response = guarded.post("/api/bot/../accounts/profile/bots/", {"name": "Sneaky"})
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.PENDING
    assert Room.objects.count() == 1 and not Bot.objects.filter(user__username="Sneaky").exists()


def test_a_challenge_naming_a_field_it_does_not_take_is_refused_naming_it(client, owner):
    _alpha, token = new_bot(owner, "Alpha")
    new_bot(owner, "Beta")
    for body, named in (
        ({"variant": "babanuki", "rounds": 1}, '"rounds"'),
        ({"seats": 2, "strike_limit": 1, "rounds": 1}, '"rounds", "strike_limit"'),
    ):
        answer = api(
            client,
            "post",
            "/api/bot/challenge/Beta",
            token,
            data=body,
            content_type="application/json",
        )
        assert answer.status_code == 400 and answer.json()["error"] == "malformed", body
        assert named in answer.json()["message"]
    assert not Room.objects.exists()


def test_an_answer_to_a_challenge_with_a_field_is_refused_naming_it(owner, make_account):
    bot, token = new_bot(owner)
    host = make_account("hana")
    room = waiting_room(host)
    made = bots.challenge(room_id=room.pk, actor=Actor(user_id=host.pk), bot_name=bot.name)
    path = f"/api/bot/challenges/{made.pk}/accept"
    answer = api(Client(), "post", path, token, data={"seat": 2}, content_type="application/json")
    assert answer.status_code == 400 and '"seat"' in answer.json()["message"]
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.PENDING
    answer = api(Client(), "post", path, token, data={}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["game"]["seat"] == 1


# -- challenges -----------------------------------------------------------------------------


def test_the_host_invites_an_online_bot_and_accepting_seats_it(client, owner):
    bot, token = new_bot(owner)
    host = get_user_model().objects.create_user("hana", password=PASSWORD)
    room = waiting_room(host)
    logged_in(client, host)
    page = client.get(f"/r/{room.code}/").content.decode()
    assert "Invite a bot" in page and '<option value="RandomRita">' in page
    client.post(f"/r/{room.code}/invite-bot/", {"bot": "RandomRita"})
    made = Challenge.objects.get()
    assert (made.room, made.seat, made.status) == (room, 1, Challenge.Status.PENDING)
    assert "RandomRita is invited and has not answered yet." in client.get(
        f"/r/{room.code}/"
    ).content.decode("utf-8")
    answer = api(Client(), "post", f"/api/bot/challenges/{made.pk}/accept", token)
    assert answer.status_code == 200
    assert answer.json()["game"] == {
        "room": room.code,
        "seat": 1,
        "variant": "babanuki",
        "seats": 3,
        "socket": f"ws://testserver/ws/rooms/{room.code}/",
    }
    seat = room.seats.get(index=1)
    assert (seat.user_id, seat.name, seat.bot) == (bot.pk, "RandomRita", True)
    # Every seat's view says it is a bot's; the room page writes "bot" beside its name.
    state = selectors.snapshot(room.pk)
    assert [s["bot"] for s in view_for(state, Actor(user_id=host.pk))["seats"]] == [
        False,
        True,
        False,
    ]
    assert '<span class="seat-what">bot</span>' in client.get(f"/r/{room.code}/").content.decode()
    again = api(Client(), "post", f"/api/bot/challenges/{made.pk}/accept", token)
    assert again.status_code == 409 and again.json()["error"] == "not_allowed"


def test_only_the_host_invites_and_only_an_online_bot(client, owner, make_account):
    new_bot(owner)
    offline, _ = new_bot(owner, "Sleepy", online=False)
    host = make_account("hana")
    room = waiting_room(host)
    logged_in(client, make_account("mallory"))
    client.post(f"/r/{room.code}/invite-bot/", {"bot": "RandomRita"})
    logged_in(client, host)
    client.post(f"/r/{room.code}/invite-bot/", {"bot": "Sleepy"})
    client.post(f"/r/{room.code}/invite-bot/", {"bot": "Nobody"})
    assert not Challenge.objects.exists()
    page = client.get(f"/r/{room.code}/").content.decode()
    assert "Sleepy is not online" in page and "There is no bot called Nobody." in page
    assert '<option value="Sleepy">' not in page


def test_a_bot_cannot_take_a_seat_after_the_start_and_is_told(owner, make_account):
    bot, token = new_bot(owner)
    host = make_account("hana")
    room = waiting_room(host)
    made = bots.challenge(room_id=room.pk, actor=Actor(user_id=host.pk), bot_name="RandomRita")
    rooms.services.start_match(
        room_id=room.pk, actor=Actor(user_id=host.pk), fill_with_computers=True
    )
    made.refresh_from_db()
    assert made.status == Challenge.Status.CANCELED  # withdrawn by the start
    answer = api(Client(), "post", f"/api/bot/challenges/{made.pk}/accept", token)
    assert answer.status_code == 409
    assert not room.seats.filter(user_id=bot.pk).exists()


def test_a_bot_answers_only_its_own_challenges(owner, make_account):
    bot, _token = new_bot(owner)
    _other, other_token = new_bot(owner, "Other")
    host = make_account("hana")
    room = waiting_room(host)
    made = bots.challenge(room_id=room.pk, actor=Actor(user_id=host.pk), bot_name="RandomRita")
    for how in ("accept", "decline"):
        answer = api(Client(), "post", f"/api/bot/challenges/{made.pk}/{how}", other_token)
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    made.refresh_from_db()
    assert made.status == Challenge.Status.PENDING
    assert not room.seats.filter(user_id=bot.pk).exists()


def test_a_declined_challenge_cannot_be_accepted(owner, make_account):
    _bot, token = new_bot(owner)
    host = make_account("hana")
    room = waiting_room(host)
    made = bots.challenge(room_id=room.pk, actor=Actor(user_id=host.pk), bot_name="RandomRita")
    assert api(Client(), "post", f"/api/bot/challenges/{made.pk}/decline", token).status_code == 200
    assert api(Client(), "post", f"/api/bot/challenges/{made.pk}/accept", token).status_code == 409
    assert room.seats.filter(bot=True).count() == 0


def test_challenges_a_minute_pass_to_the_limit_and_the_next_is_refused(
    owner, make_account, settings
):
    settings.BOT_CHALLENGES_PER_MINUTE = 3
    host = make_account("hana")
    for i in range(3):
        new_bot(owner, f"bot{i}")
    new_bot(owner, "bot3")
    host_actor = Actor(user_id=host.pk)
    room = waiting_room(host, seats=8)
    for i in range(3):  # the last allowed
        bots.challenge(room_id=room.pk, actor=host_actor, bot_name=f"bot{i}")
    with pytest.raises(bots.TooMany) as refused:  # the first refused
        bots.challenge(room_id=room.pk, actor=host_actor, bot_name="bot3")
    assert 0 < refused.value.retry_after <= 60
    assert Challenge.objects.count() == 3


def test_a_game_between_bots_takes_the_fewest_seats_its_game_allows_unless_told(client, owner):
    _alpha, token = new_bot(owner, "Alpha")
    new_bot(owner, "Beta")
    for variant, seats in (("jijinuki", 3), ("babanuki", 2)):
        body = {"variant": variant}
        answer = api(
            client,
            "post",
            "/api/bot/challenge/Beta",
            token,
            data=body,
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.json()
        assert Room.objects.get(code=answer.json()["challenge"]["room"]).seat_count == seats


def test_games_between_bots_a_day_pass_to_the_limit_and_the_next_is_429(client, owner, settings):
    settings.BOT_GAMES_PER_DAY = 2
    _alpha, token = new_bot(owner, "Alpha")
    new_bot(owner, "Beta")
    for _ in range(2):
        answer = api(
            client,
            "post",
            "/api/bot/challenge/Beta",
            token,
            data={},
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.json()
    refused = api(
        client, "post", "/api/bot/challenge/Beta", token, data={}, content_type="application/json"
    )
    assert refused.status_code == 429 and refused.json()["error"] == "too_many"
    assert 0 < int(refused["Retry-After"]) <= 86400
    assert Room.objects.filter(host__username="Alpha").count() == 2


def test_a_bot_game_refuses_what_it_cannot_open(client, owner):
    _alpha, token = new_bot(owner, "Alpha")
    new_bot(owner, "Sleepy", online=False)
    cases = [
        ("/api/bot/challenge/Alpha", {}, 409),  # itself
        ("/api/bot/challenge/Nobody", {}, 404),
        ("/api/bot/challenge/Sleepy", {}, 409),  # offline
        ("/api/bot/challenge/Beta", [], 400),
    ]
    new_bot(owner, "Beta")
    cases += [
        ("/api/bot/challenge/Beta", {"variant": "chess"}, 400),
        ("/api/bot/challenge/Beta", {"variant": "jijinuki", "seats": 2}, 400),
        ("/api/bot/challenge/Beta", {"variant": "babanuki", "seats": 9}, 400),
        ("/api/bot/challenge/Beta", {"seats": "two"}, 400),
    ]
    for path, body, status in cases:
        answer = api(client, "post", path, token, data=body, content_type="application/json")
        assert answer.status_code == status, (path, body, answer.json())
        assert answer.json()["message"]
    big = api(
        client,
        "post",
        "/api/bot/challenge/Beta",
        token,
        data="x" * 3000,
        content_type="application/json",
    )
    assert big.status_code == 400
    assert not Room.objects.exists()


# -- the new-game form's bots -----------------------------------------------------------------


def new_game_with_bots(client, names, seats=3):
    return client.post(
        "/new/",
        {
            "variant": "babanuki",
            "mode": "computer",
            "seat_count": seats,
            "computer_level": "easy",
            "rounds": 1,
            "strike_limit": 3,
            "bots": names,
        },
    )


def test_the_new_game_form_offers_the_bots_online_to_a_signed_in_player(client, owner):
    new_bot(owner)
    new_bot(owner, "Sleepy", online=False)
    assert 'name="bots"' not in client.get("/new/").content.decode()  # a guest: no bots
    logged_in(client, owner)
    page = client.get("/new/").content.decode()
    assert 'value="RandomRita"' in page and 'value="Sleepy"' not in page
    assert "Bots instead of the computer" in page


def test_bots_chosen_on_the_form_are_invited_and_the_match_starts_once_they_answer(client, owner):
    rita, rita_token = new_bot(owner)
    _bob, bob_token = new_bot(owner, "Bob")
    logged_in(client, owner)
    response = new_game_with_bots(client, ["RandomRita", "Bob"], seats=4)
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    assert (room.mode, room.status) == (Room.Mode.FRIENDS, Room.Status.WAITING)
    asked = {c.bot.name: c for c in Challenge.objects.all()}
    assert {n: (c.seat, c.start_when_answered) for n, c in asked.items()} == {
        "RandomRita": (1, True),
        "Bob": (2, True),
    }
    assert (
        api(
            Client(), "post", f"/api/bot/challenges/{asked['RandomRita'].pk}/accept", rita_token
        ).status_code
        == 200
    )
    room.refresh_from_db()
    assert room.status == Room.Status.WAITING  # Bob has not answered yet
    assert (
        api(
            Client(), "post", f"/api/bot/challenges/{asked['Bob'].pk}/decline", bob_token
        ).status_code
        == 200
    )
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    kinds = [(s.kind, s.bot, s.user_id) for s in room.seats.all()]
    assert kinds == [
        ("human", False, owner.pk),
        ("human", True, rita.pk),
        ("computer", False, None),
        ("computer", False, None),
    ]


def test_the_form_takes_as_many_bots_as_opponents_and_refuses_one_more(client, owner):
    for name in ("one", "two", "three"):
        new_bot(owner, name)
    logged_in(client, owner)
    refused = new_game_with_bots(client, ["one", "two", "three"], seats=3)
    assert refused.status_code == 200 and not Room.objects.exists()
    assert "At this table 2 seats are the opponents': choose at most 2 bots." in html.unescape(
        refused.content.decode()
    )
    assert new_game_with_bots(client, ["one", "two"], seats=3).status_code == 302
    assert Challenge.objects.count() == 2


def test_a_person_joining_by_link_leaves_the_seat_a_bot_is_invited_to(owner, make_account):
    bot, token = new_bot(owner)
    host = make_account("hana")
    room = waiting_room(host, seats=3)
    made = bots.challenge(room_id=room.pk, actor=Actor(user_id=host.pk), bot_name="RandomRita")
    rooms.services.join_room(room_id=room.pk, actor=Actor(guest="g1"), name="Mia")
    assert room.seats.get(index=2).name == "Mia"  # seat 1 is kept for the bot
    assert api(Client(), "post", f"/api/bot/challenges/{made.pk}/accept", token).status_code == 200
    assert room.seats.get(index=1).user_id == bot.pk


def test_a_bots_name_inside_a_sentence_still_shows_that_it_is_a_bot(owner):
    from lobby.templatetags.seat_names import seat_name

    bot, _token = new_bot(owner)
    room = waiting_room(owner)
    bot_seat = room.seats.get(index=1)
    bot_seat.user_id, bot_seat.name, bot_seat.bot = bot.pk, bot.name, True
    person = room.seats.get(index=0)
    assert '<span class="seat-what">bot</span>' in seat_name(bot_seat, inline=True)
    assert "seat-what" not in seat_name(person, inline=True)  # a person's has no second line
