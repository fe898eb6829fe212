"""Playing rooms forward, for every kind of test: one home for "play until" loops.

Through the services (no socket): ``play_until`` plays a room until a moment (a round's
end, a number of draws, a hand this small), ``play_match_out`` its latest match to the
end; people draw the first card of the giver's hand and deal each next round, as the
table page would. The computer draws for the seats it plays: here, or (``computers=
"server"``) by the server the test runs, whose driver plays them while this waits."""

from __future__ import annotations

import time
from collections.abc import Callable

from games import selectors, services
from games.engine.seats import played_by_computer
from games.engine.shapes import RoomState
from games.errors import ActionError

#: More moves than any match of the site's sizes takes: a loop past it is a defect.
MOVES_AT_MOST = 2000
#: The longest a server's computer may take to move (a bound for failures only).
SERVER_MOVE_SECONDS = 60


def play_until(
    room_id: int,
    people: dict,
    moment: Callable[[RoomState], bool],
    *,
    computers: str = "here",
) -> RoomState:
    """Play the room through the services until ``moment(state)`` holds (or its match is
    over): ``people`` (seat index: actor) draw position 0 on their turns and the first of
    them deals each next round; the computer's seats are drawn for ``computers`` "here",
    by the "server" (this waits for the room to move on), or here unless the server
    draws first ("either": a page that just left, whose server may still be moving).
    Returns the state at that moment."""
    moves, waiting_since = 0, None
    while moves < MOVES_AT_MOST:
        state = selectors.snapshot(room_id)
        assert state is not None and state["match"] is not None, "no match to play"
        if moment(state) or state["match"]["over"]:
            return state
        rnd = state["round"]
        drawer = None if rnd["over"] else rnd["state"]["drawer"]
        if drawer is not None and played_by_computer(state["seats"][drawer]):
            if computers == "server":
                waiting_since = _waited(waiting_since, state)
                continue
            try:
                services.computer_turn(room_id=room_id, version=state["version"])
            except ActionError:
                if computers == "here":
                    raise
                waiting_since = _waited(waiting_since, state)  # the server's move first
                continue
        else:
            try:
                if drawer is None:
                    services.next_round(room_id=room_id, actor=next(iter(people.values())))
                else:
                    services.draw(room_id=room_id, actor=people[drawer], position=0)
            except ActionError:
                if computers == "here":  # nobody else moves the room: a real refusal
                    raise
                waiting_since = _waited(waiting_since, state)  # the server's move first
                continue
        moves, waiting_since = moves + 1, None
    raise AssertionError(f"the moment did not come in {MOVES_AT_MOST} moves")


def _waited(since: float | None, state: RoomState) -> float:
    """A short wait for the server to move the room on; when the waiting began (a wait
    past ``SERVER_MOVE_SECONDS`` fails)."""
    now = time.monotonic()
    since = now if since is None else since
    assert now - since < SERVER_MOVE_SECONDS, f"the server's computer never moved: {state}"
    time.sleep(0.02)
    return since


def play_match_out(room_id: int, people: dict) -> RoomState:
    """Play the room's latest match to its end (``play_until``); the final state."""
    return play_until(room_id, people, lambda state: False)
