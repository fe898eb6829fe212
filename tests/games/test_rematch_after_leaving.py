"""Leaving is per match: a rematch gives the leaver's seat back to them (the computer
plays it until they return), and their record does not count the left match."""

import pytest
from django.contrib.auth import get_user_model

from games import selectors, services
from games.models import Match, Seat
from tests.play import play_match_out
from tests.rooms import friends_room

pytestmark = pytest.mark.django_db


@pytest.fixture
def left_and_rematched():
    users = [get_user_model().objects.create_user(n, password="a-long-password-1") for n in "ab"]
    host, friend = (services.Actor(user_id=u.pk) for u in users)
    room = friends_room(host, {"b": friend}, name="a", seats=3, rounds=1, start=True, fill=True)
    services.leave_match(room_id=room.pk, actor=friend)
    play_match_out(room.pk, {0: host})
    services.rematch(room_id=room.pk, actor=host)
    return room, host, friend, users[1]


def test_a_rematch_gives_the_leaver_their_seat_back_covered_by_the_computer(
    left_and_rematched,
):
    room, host, friend, _ = left_and_rematched
    seat = Seat.objects.get(room=room, index=1)
    assert (seat.left, seat.covered) == (False, True)
    assert Match.objects.get(room=room, number=1).left == [1]
    assert Match.objects.get(room=room, number=2).left == []
    # The leaver comes back to the table: the seat is theirs to play again.
    state = services.connect(room_id=room.pk, actor=friend, channel_name="back.1")
    assert state["seats"][1]["covered"] is False and state["seats"][1]["left"] is False
    final = play_match_out(room.pk, {0: host, 1: friend})
    assert final["match"]["number"] == 2 and final["match"]["over"]


def test_the_left_match_is_not_counted_in_the_leavers_record(left_and_rematched):
    room, host, friend, user = left_and_rematched
    services.connect(room_id=room.pk, actor=friend, channel_name="back.1")
    play_match_out(room.pk, {0: host, 1: friend})
    stats = selectors.player_stats(user.pk)
    outcomes = {m["match"].number: m["outcome"] for m in stats["matches"]}
    assert outcomes[1] == "left" and outcomes[2] in ("won", "lost")
    figures = stats["by_variant"]["babanuki"]
    assert figures["matches"] == 1 and figures["won"] + figures["lost"] == 1
    assert figures["rounds"] == 1  # match 2's one round; match 1's was the computer's


def test_a_leaver_who_never_returns_is_played_by_the_computer_in_the_rematch(
    left_and_rematched,
):
    room, host, _, _ = left_and_rematched
    final = play_match_out(room.pk, {0: host})  # seat 1 never draws by hand
    assert final["match"]["over"] and final["seats"][1]["covered"]


def test_in_the_rematch_the_leavers_covered_seat_is_told_as_left_before_until_they_return(
    left_and_rematched,
):
    from games.engine.view import view_for

    room, host, friend, _ = left_and_rematched
    state = selectors.snapshot(room.pk)
    seen = view_for(state, None)["seats"]
    assert [s["left_before"] for s in seen] == [False, True, False]
    # Back at the table: their own seat again, no longer "left".
    state = services.connect(room_id=room.pk, actor=friend, channel_name="back.1")
    assert view_for(state, None)["seats"][1]["left_before"] is False
