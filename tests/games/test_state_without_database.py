"""A room's state is built from what was read of it (``games.state.load``) and nothing
else: ``room_state`` reads no row, so a draw made from a kept room on the event loop,
where a query cannot run, builds its state there in every kind of room."""

from contextlib import contextmanager

import pytest
from django.db import connection

from games import selectors, services
from games.models import Room
from games.state import load, room_state
from tests.games.conftest import make_user
from tests.play import play_match_out, play_until
from tests.rooms import friends_room, rematch_with_a_covered_seat

pytestmark = pytest.mark.django_db


@contextmanager
def database_unreachable():
    """Any statement on this thread's connection fails the test."""

    def refuse(execute, sql, params, many, context):
        raise AssertionError(f"a query while building a state: {sql[:120]}")

    with connection.execute_wrapper(refuse):
        yield


def _people(n: int) -> list:
    return [make_user(f"person{i}") for i in range(n)]


def _actors(users) -> dict:
    return {i: services.Actor(user_id=u.pk) for i, u in enumerate(users)}


def _waiting():
    host, friend = _people(2)
    return friends_room(host, {"friend": friend}, seats=3)


def _in_play():
    host, friend = _people(2)
    room = friends_room(host, {"friend": friend}, seats=3, rounds=3, start=True, fill=True)
    play_until(room.pk, _actors([host, friend]), lambda s: s["round"]["state"]["draws"] >= 3)
    return room


def _round_over():
    host, friend = _people(2)
    room = friends_room(host, {"friend": friend}, seats=3, rounds=3, start=True, fill=True)
    play_until(room.pk, _actors([host, friend]), lambda s: s["round"]["over"])
    return room


def _match_over():
    host, friend = _people(2)
    room = friends_room(host, {"friend": friend}, seats=3, rounds=1, start=True, fill=True)
    play_match_out(room.pk, _actors([host, friend]))
    return room


MOMENTS = {
    "waiting": _waiting,
    "in play": _in_play,
    "round over": _round_over,
    "match over": _match_over,
    "rematch, a seat covered while away": lambda: rematch_with_a_covered_seat(
        _people(3), seats=3, how="away"
    ),
    "rematch, a seat left in the match before": lambda: rematch_with_a_covered_seat(
        _people(3), seats=3, how="left"
    ),
}


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_state_is_built_with_the_database_unreachable(moment):
    room = MOMENTS[moment]()
    room = Room.objects.get(pk=room.pk)
    loaded = load(room)

    with database_unreachable():
        state = room_state(room, loaded)

    assert state == selectors.snapshot(room.pk)
    if moment.startswith("rematch"):
        assert state["match"]["number"] == 2 and state["seats"][2]["covered"]
        assert state["seats"][2]["left_before"] is moment.endswith("before")
