"""Playing rooms forward, for every kind of test: one home for "play until" loops.

Through the services (no socket): ``play_until`` plays a room until a moment (a round's
end, a number of draws), ``play_match_out`` its latest match to the end; people draw the
first card of the giver's hand and deal each next round, the computer draws for the
seats it plays, as the table page and the driver would."""

from __future__ import annotations

from collections.abc import Callable

from games import selectors, services
from games.engine.seats import played_by_computer
from games.engine.shapes import RoomState

#: More moves than any match of the site's sizes takes: a loop past it is a defect.
MOVES_AT_MOST = 2000


def play_until(room_id: int, people: dict, moment: Callable[[RoomState], bool]) -> RoomState:
    """Play the room through the services until ``moment(state)`` holds (or its match is
    over): ``people`` (seat index: actor) draw position 0 on their turns and the first of
    them deals each next round; the computer draws for the seats it plays. Returns the
    state at that moment."""
    for _ in range(MOVES_AT_MOST):
        state = selectors.snapshot(room_id)
        assert state is not None and state["match"] is not None, "no match to play"
        if moment(state) or state["match"]["over"]:
            return state
        rnd = state["round"]
        if rnd["over"]:
            services.next_round(room_id=room_id, actor=next(iter(people.values())))
            continue
        drawer = rnd["state"]["drawer"]
        if played_by_computer(state["seats"][drawer]):
            services.computer_turn(room_id=room_id, version=state["version"])
        else:
            services.draw(room_id=room_id, actor=people[drawer], position=0)
    raise AssertionError(f"the moment did not come in {MOVES_AT_MOST} moves")


def play_match_out(room_id: int, people: dict) -> RoomState:
    """Play the room's latest match to its end (``play_until``); the final state."""
    return play_until(room_id, people, lambda state: False)
