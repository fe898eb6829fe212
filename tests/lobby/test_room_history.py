"""The room page's "Rounds played" and what it tells about a match's ending: rendered with
the page and again, alone, when the page fetches it live; and the page of a player who
left their seat says so."""

import pytest
from django.utils import timezone

from games import services
from games.models import Room
from tests.lobby.conftest import logged_in
from tests.rooms import computer_room

pytestmark = pytest.mark.django_db


def test_a_resignation_in_the_history_and_its_live_fragment(client, make_account):
    user = make_account("rei")
    room = computer_room(user, rounds=1)
    services.resign(room_id=room.pk, actor=services.Actor(user_id=user.pk))
    logged_in(client, user)
    page = client.get(f"/r/{room.code}/").content.decode()
    fragment = client.get(f"/r/{room.code}/history/").content.decode()
    for text in (page, fragment):
        heading = text.split("<h3>", 1)[1].split("</h3>", 1)[0]
        assert heading.startswith("Match 1 · ") and " resigned · won by " in heading
        assert '<span class="seat-name">rei</span>' in heading
        assert '<span class="seat-name">Bruno</span>' in heading
        assert "computer · medium" in heading and "(computer" not in heading
        assert "No round was played to its end." in text
        # What room.js compares with the state's match: number, rounds ended, over.
        assert 'data-key="1/0/1"' in text
    assert fragment.startswith('<section id="history"')


def test_an_abandoned_match_in_the_history(client, make_account):
    user = make_account("aban")
    room = computer_room(user, rounds=1)
    room.matches.update(
        finished_at=timezone.now(), ended_by={"how": "abandoned"}, winners=[], losers=[]
    )
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    text = logged_in(client, user).get(f"/r/{room.code}/history/").content.decode()
    assert "Match 1 · abandoned: nobody was connected" in text
    assert "won by" not in text


def test_the_fragment_is_shown_only_to_who_may_see_the_room(client, make_account):
    room = computer_room(make_account("owner"), rounds=1)
    logged_in(client, make_account("stranger"))
    assert client.get(f"/r/{room.code}/history/").status_code == 404
    assert client.get(f"/r/{room.code}/history/?t=wrong").status_code == 404
    assert client.get(f"/r/{room.code}/history/?t={room.token}").status_code == 200
    assert client.get("/r/NOSUCH/history/").status_code == 404


def test_a_player_who_left_is_told_so_after_a_reload(client, make_account):
    user = make_account("lev")
    room = computer_room(user, seats=3, rounds=1)
    page = logged_in(client, user).get(f"/r/{room.code}/").content.decode()
    assert 'data-left=""' in page
    services.leave_match(room_id=room.pk, actor=services.Actor(user_id=user.pk))
    page = client.get(f"/r/{room.code}/").content.decode()
    assert 'data-left="0"' in page
    assert "You left the match; the computer now plays your seat." in page
