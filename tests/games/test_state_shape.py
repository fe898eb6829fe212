"""``games.state.room_state`` builds exactly the shape ``games.engine.shapes`` declares, before
a match and during one, nested parts included: a key added to one and not the other
fails here."""

import pytest

from games import selectors, services
from games.engine import shapes
from tests.play import play_match_out
from tests.rooms import actor_of, computer_room, friends_room

pytestmark = pytest.mark.django_db


def keys(shape) -> set[str]:
    return set(shape.__annotations__)


def assert_shaped(state: dict) -> None:
    assert set(state) == keys(shapes.RoomState)
    assert set(state["room"]) == keys(shapes.RoomInfo)
    for seat in state["seats"]:
        assert set(seat) == keys(shapes.SeatState)
    if state["match"] is not None:
        assert set(state["match"]) == keys(shapes.MatchState)
        for finished in state["match"]["rounds"]:
            assert set(finished) == keys(shapes.RoundResultState)
    if state["round"] is not None:
        assert set(state["round"]) == keys(shapes.RoundInfo)


def test_a_waiting_room_has_the_declared_shape(django_user_model):
    host = django_user_model.objects.create_user("host")
    room = friends_room(host)
    state = selectors.snapshot(room.pk)
    assert state["match"] is None and state["round"] is None
    assert_shaped(state)


def test_a_finished_match_has_the_declared_shape_at_every_level(django_user_model):
    host = django_user_model.objects.create_user("host")
    room = computer_room(host, seats=3, rounds=1)
    play_match_out(room.pk, {0: actor_of(host)})
    state = selectors.snapshot(room.pk)
    assert state["match"]["over"] and state["match"]["rounds"] and state["round"]["over"]
    assert_shaped(state)


def test_a_round_in_play_has_the_declared_shape(django_user_model):
    host = django_user_model.objects.create_user("host")
    friend = django_user_model.objects.create_user("friend")
    room = friends_room(host, {"friend": friend})
    services.start_match(room_id=room.pk, actor=actor_of(host))
    state = selectors.snapshot(room.pk)
    assert state["round"] is not None
    assert_shaped(state)
