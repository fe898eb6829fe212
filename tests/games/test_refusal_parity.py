"""The table socket's kept-state refusals (games.refusals.refusal) and the services'
refusals under the room's lock answer every action with the same code and message: for
each case the kept state refuses, the service refuses it too, identically."""

import pytest
from django.contrib.auth import get_user_model

from games import selectors, services
from games.engine.view import view_for
from games.errors import ActionError
from games.identity import Actor
from games.refusals import refusal
from tests import rooms
from tests.support import ply

pytestmark = pytest.mark.django_db

SERVICES = {
    "draw": lambda room, actor, at, action: services.draw(
        room_id=room, actor=actor, at=at, position=action["position"]
    ),
    "next_round": lambda room, actor, at, action: services.next_round(
        room_id=room, actor=actor, at=at
    ),
    "rematch": lambda room, actor, at, action: services.rematch(room_id=room, actor=actor, at=at),
    "leave": lambda room, actor, at, action: services.leave_match(room_id=room, actor=actor, at=at),
    "resign": lambda room, actor, at, action: services.resign(room_id=room, actor=actor, at=at),
    "speed": lambda room, actor, at, action: services.set_computer_speed(
        room_id=room, actor=actor, speed=action["speed"]
    ),
}


def friends_room_with_actors(seats: int, *, start: bool = True):
    """A friends room of ``seats`` signed-in players (p0 hosts), started unless not."""
    users = [get_user_model().objects.create_user(f"p{i}") for i in range(seats)]
    joined = {f"p{i}": user for i, user in enumerate(users[1:], start=1)}
    room = rooms.friends_room(users[0], joined, name="p0", seats=seats, rounds=3, start=start)
    return room, [Actor(user_id=u.pk) for u in users]


def service_refusal(room, actor, action) -> ActionError | None:
    at = {k: action[k] for k in ("match", "round", "draw") if k in action}
    try:
        SERVICES[action["type"]](room.pk, actor, at, action)
    except ActionError as exc:
        return exc
    return None


def assert_same(room, actor, action, code: str):
    state = selectors.snapshot(room.pk)
    kept = refusal(state, actor, action)
    assert kept is not None and kept.code == code, kept and (kept.code, kept.message)
    served = service_refusal(room, actor, action)
    assert served is not None, "the service let through what the kept state refused"
    assert (served.code, served.message) == (kept.code, kept.message)


def test_a_draw_is_refused_alike_for_a_spectator_out_of_turn_stale_or_out_of_range():
    room, actors = friends_room_with_actors(2)
    state = selectors.snapshot(room.pk)
    first = actors[state["round"]["state"]["drawer"]]
    second = actors[1 - state["round"]["state"]["drawer"]]
    at = ply(view_for(state), "draw")
    giver = state["round"]["state"]["giver"]
    count = len(state["round"]["state"]["hands"][giver])
    assert_same(room, Actor(guest="g-eyes"), {"type": "draw", **at, "position": 0}, "not_seated")
    assert_same(room, second, {"type": "draw", **at, "position": 0}, "not_your_turn")
    stale = {"type": "draw", **at, "draw": at["draw"] + 1, "position": 0}
    assert_same(room, first, stale, "stale_version")
    assert_same(room, first, {"type": "draw", **at, "position": count}, "bad_position")


def test_between_rounds_actions_are_refused_alike_while_the_round_is_played():
    room, (_, second, _) = friends_room_with_actors(3)
    state = view_for(selectors.snapshot(room.pk))
    assert_same(room, second, {"type": "next_round", **ply(state, "next_round")}, "round_in_play")
    assert_same(room, second, {"type": "rematch", **ply(state, "rematch")}, "match_in_play")
    stale = {"type": "next_round", **ply(state, "next_round"), "round": 9}
    assert_same(room, second, stale, "stale_version")
    assert_same(room, second, {"type": "resign", **ply(state, "resign")}, "not_allowed")
    outsider = Actor(guest="g-eyes")
    assert_same(room, outsider, {"type": "leave", **ply(state, "leave")}, "not_seated")


def test_a_waiting_rooms_actions_are_refused_alike():
    room, (host, friend) = friends_room_with_actors(2, start=False)
    assert_same(room, host, {"type": "draw", "position": 0}, "not_started")
    assert_same(room, host, {"type": "next_round"}, "not_started")
    assert_same(room, friend, {"type": "rematch"}, "not_started")
    assert_same(room, host, {"type": "leave"}, "not_allowed")
    assert_same(room, host, {"type": "resign"}, "not_started")


def test_the_speed_is_the_hosts_alike_and_the_host_is_the_one_the_view_names():
    room, (host, second, _) = friends_room_with_actors(3)
    state = selectors.snapshot(room.pk)
    assert view_for(state, second)["host"] == 0
    assert refusal(state, host, {"type": "speed", "speed": "fast"}) is None
    assert_same(room, second, {"type": "speed", "speed": "fast"}, "not_host")
    # The host left the match: nobody sets the speed now, and the view names no host.
    services.leave_match(room_id=room.pk, actor=host, at=ply(view_for(state), "leave"))
    state = selectors.snapshot(room.pk)
    assert view_for(state, second)["host"] is None
    assert_same(room, host, {"type": "speed", "speed": "fast"}, "not_host")
