"""The profile's unfinished games: a match nobody is at says "unfinished, last played ..."
(in the reader's language) with a way back to the table and a way to end it (a POST
through the services, guarded by CSRF); only a match someone is connected to now says
"in progress". Forged, foreign and stale requests to end one are refused and change
nothing."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import selectors, services
from games.models import Draw, Match, Presence, Room
from lobby.profile import last_played_text
from tests.rooms import open_room

pytestmark = pytest.mark.django_db


def computer_game(user, seats=2, **rules) -> Room:
    return open_room(user, Room.Mode.COMPUTER, variant="babanuki", seats=seats, rounds=3)


def entry_of(user, room) -> dict:
    return next(e for e in selectors.player_stats(user.pk)["matches"] if e["room"] == room)


def row_of(page: str, room) -> str:
    rows = re.findall(r'<li class="outcome-(\w+)">(.*?)</li>', page, re.S)
    return next(f"{outcome}:{row}" for outcome, row in rows if f"Room {room.code}," in row)


def test_a_match_nobody_is_at_is_unfinished_with_when_it_was_last_played(make_account, client):
    me = make_account("walker")
    room = computer_game(me)
    match = room.matches.get()
    an_hour_ago = timezone.now() - timedelta(hours=3)
    Match.objects.filter(pk=match.pk).update(created_at=an_hour_ago)
    entry = entry_of(me, room)
    assert entry["outcome"] == "unfinished" and entry["may_end"]
    draws = Draw.objects.filter(round__match=match)
    assert entry["last_played"] == (draws.latest("created_at").created_at if draws else an_hour_ago)
    client.force_login(me)
    row = row_of(client.get("/accounts/profile/").content.decode(), room)
    assert row.startswith("unfinished:") and ">Unfinished<" in row
    assert "Unfinished, last played 3\xa0hours ago" in row
    assert f'href="/r/{room.code}/">Resume</a>' in row
    assert 'action="/accounts/profile/end/"' in row and "csrfmiddlewaretoken" in row
    assert ">Resign</button>" in row  # two seats: the table's own word for it


def test_a_match_someone_is_connected_to_is_in_progress(make_account, client):
    me = make_account("sitter")
    room = computer_game(me)
    services.connect(room_id=room.pk, actor=services.Actor(user_id=me.pk), channel_name="c1")
    assert entry_of(me, room)["outcome"] == "playing"
    client.force_login(me)
    row = row_of(client.get("/accounts/profile/").content.decode(), room)
    assert ">In progress<" in row and "/accounts/profile/end/" not in row
    # A connection left behind by a process that died is not someone at the table.
    Presence.objects.update(last_seen=timezone.now() - timedelta(hours=1))
    assert entry_of(me, room)["outcome"] == "unfinished"


@pytest.mark.parametrize(
    ("language", "words"),
    [("ja", "未完了・最後のプレイは3時間前"), ("zh-hans", "未完成，上次玩是3小时前")],
)
def test_last_played_is_said_in_the_readers_language(make_account, client, language, words):
    me = make_account("polyglot")
    room = computer_game(me)
    Match.objects.filter(room=room).update(created_at=timezone.now() - timedelta(hours=3))
    Draw.objects.filter(round__match__room=room).delete()
    client.force_login(me)
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page.replace("\xa0", "")


def test_last_played_within_a_minute_is_just_now():
    now = timezone.now()
    assert last_played_text(now - timedelta(seconds=59), now) == "Unfinished, last played just now"
    assert last_played_text(now - timedelta(seconds=60), now) == (
        "Unfinished, last played 1\xa0minute ago"
    )


def test_ending_a_two_seat_game_resigns_it(make_account, client):
    me = make_account("quitter")
    room = computer_game(me)
    client.force_login(me)
    response = client.post("/accounts/profile/end/", {"code": room.code, "match": 1}, follow=True)
    match = room.matches.get()
    assert match.finished_at and match.losers == [0] and match.ended_by["how"] == "resign"
    assert f"You resigned room {room.code}." in response.content.decode()
    assert entry_of(me, room)["outcome"] == "lost"


def test_ending_a_bigger_game_leaves_it_to_the_computer(make_account, client):
    me = make_account("leaver")
    room = computer_game(me, seats=3)
    client.force_login(me)
    response = client.post("/accounts/profile/end/", {"code": room.code, "match": 1}, follow=True)
    assert room.seats.get(index=0).left
    # The last human left: nobody is left to play for, so the match ends.
    assert room.matches.get().ended_by == {"how": "everyone_left"}
    assert f"You left the game in room {room.code}." in response.content.decode()
    assert entry_of(me, room)["outcome"] == "abandoned"


def test_a_forged_request_without_the_csrf_token_is_refused(make_account):
    me = make_account("victim")
    room = computer_game(me)
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(me)
    response = forged.post("/accounts/profile/end/", {"code": room.code, "match": 1})
    assert response.status_code == 403
    assert not room.matches.get().finished_at


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"code": ""}, "That game could not be found."),
        ({"code": "ZZZZZZ"}, "That game could not be found."),
        ({"match": "one"}, "That game could not be found."),
        # A match the room has not reached (a forged form): refused, not ended.
        ({"match": 2}, "The table has not reached that move yet"),
    ],
)
def test_malformed_or_stale_requests_are_refused_in_words(make_account, client, form, message):
    me = make_account("careful")
    room = computer_game(me)
    client.force_login(me)
    form = {"code": room.code, "match": 1, **form}
    response = client.post("/accounts/profile/end/", form, follow=True)
    assert response.status_code == 200 and message in response.content.decode()
    assert not room.matches.get().finished_at


def test_someone_elses_game_cannot_be_ended(make_account, client):
    owner, stranger = make_account("owner"), make_account("stranger")
    room = computer_game(owner)
    client.force_login(stranger)
    response = client.post("/accounts/profile/end/", {"code": room.code, "match": 1}, follow=True)
    assert "Only the players at this table may do that." in response.content.decode()
    assert not room.matches.get().finished_at


def test_a_game_already_ended_is_not_ended_twice(make_account, client):
    me = make_account("twice")
    room = computer_game(me)
    client.force_login(me)
    client.post("/accounts/profile/end/", {"code": room.code, "match": 1})
    ended = room.matches.get().finished_at
    response = client.post("/accounts/profile/end/", {"code": room.code, "match": 1}, follow=True)
    assert "The match is not being played." in response.content.decode()
    assert room.matches.get().finished_at == ended


def test_ending_needs_a_post_and_an_account(make_account, client):
    me = make_account("lazy")
    room = computer_game(me)
    assert client.post("/accounts/profile/end/", {"code": room.code, "match": 1}).status_code == 302
    client.force_login(me)
    assert client.get("/accounts/profile/end/").status_code == 405
    assert not room.matches.get().finished_at
