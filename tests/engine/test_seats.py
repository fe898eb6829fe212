"""Who plays a seat (games/engine/seats.py): the seats someone plays, with and without
those they left, and when the computer plays a seat."""

import pytest

from games.engine.seats import (
    holds,
    host_seat,
    hosts,
    played_by_computer,
    plays,
    plays_as_host,
    seats_of,
)
from games.identity import Actor

ANN, CAT, NOBODY = Actor(user_id=1), Actor(guest="g-cat"), Actor()


def test_a_seat_is_held_by_its_user_or_its_guest_browser_and_never_by_nobody():
    assert holds(ANN, 1, "")
    assert not holds(ANN, 2, "")
    assert holds(CAT, None, "g-cat")
    assert not holds(CAT, None, "g-dog")
    # An empty seat (no user, no guest) is nobody's, not even an actor without a guest id.
    assert not holds(NOBODY, None, "")
    assert not holds(None, 1, "g-cat")


def test_a_seat_its_human_left_is_played_only_when_asked_for():
    assert plays(ANN, 1, "", left=False)
    assert not plays(ANN, 1, "", left=True)
    assert plays(ANN, 1, "", left=True, including_left=True)
    assert not plays(CAT, 1, "", left=False, including_left=True)


def test_seats_of_a_state_leave_out_the_seats_left_unless_asked():
    state = {
        "seats": [
            {"index": 0, "user_id": 1, "guest": "", "left": False},
            {"index": 1, "user_id": None, "guest": "", "left": False},
            {"index": 2, "user_id": 1, "guest": "", "left": True},
        ]
    }
    assert seats_of(state, ANN) == {0}
    assert seats_of(state, ANN, including_left=True) == {0, 2}
    assert seats_of(state, None) == frozenset()


@pytest.mark.parametrize(
    "kind, covered, left, expected",
    [
        ("human", False, False, False),
        ("computer", False, False, True),
        ("human", True, False, True),
        ("human", False, True, True),
    ],
)
def test_the_computer_plays_computer_seats_covered_seats_and_seats_left(
    kind, covered, left, expected
):
    assert played_by_computer({"kind": kind, "covered": covered, "left": left}) is expected


def _seat(index, user_id=None, guest="", left=False):
    return {"index": index, "user_id": user_id, "guest": guest, "left": left}


def test_the_host_is_who_opened_the_room_and_their_seat_the_lowest_they_play():
    seats = [_seat(0, guest="g-cat"), _seat(1, user_id=1), _seat(2, user_id=1)]
    assert hosts(CAT, None, "g-cat") and not hosts(ANN, None, "g-cat")
    assert host_seat(seats, None, "g-cat") == 0
    # An account that holds two seats (a guest's seat it claimed): the lowest.
    assert host_seat(seats, 1, "") == 1
    seats[1]["left"] = True
    assert host_seat(seats, 1, "") == 2
    # Nobody hosts a room opened by nobody; a host who left every seat has none.
    assert host_seat(seats, None, "") is None
    seats[0]["left"] = True
    assert host_seat(seats, None, "g-cat") is None


def test_only_the_host_playing_their_seat_moves_as_host():
    seats = [_seat(0, user_id=1), _seat(1, guest="g-cat")]
    assert plays_as_host(ANN, seats, 1, "")
    assert not plays_as_host(CAT, seats, 1, "")
    assert not plays_as_host(None, seats, 1, "")
    seats[0]["left"] = True
    assert not plays_as_host(ANN, seats, 1, "")
