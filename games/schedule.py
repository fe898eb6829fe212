"""What the server owes a room by itself, and when: computer turns, covering a seat whose
player stayed away, dealing the next round where no person plays a seat, and ending a room
nobody is at.

One pure function of the room's state decides it. The driver sleeps until what it says,
and every change stores its time as ``Room.due_at``, so the periodic sweep's query (rooms
whose ``due_at`` has passed) asks exactly what the driver would do.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from games.engine.seats import people_hold, played_by_computer, played_in_person
from games.engine.shapes import RoomState
from games.labels import SPEED_NAMES

#: How a room paces its computer seats' draws (RULES.md section 6): each scales
#: ``settings.COMPUTER_DELAY_SECONDS``, so a delay of zero (the tests') stays zero.
COMPUTER_SPEEDS = {"slow": 1.8, "normal": 1.0, "fast": 0.4}
DEFAULT_COMPUTER_SPEED = "normal"
assert set(COMPUTER_SPEEDS) == set(SPEED_NAMES)


def computer_delay(speed: str | None) -> float:
    """Seconds between a change and a computer seat's draw in a room set to ``speed``
    (an unknown or missing speed is the normal one)."""
    factor = COMPUTER_SPEEDS.get(speed or DEFAULT_COMPUTER_SPEED, 1.0)
    return settings.COMPUTER_DELAY_SECONDS * factor


@dataclass(frozen=True)
class Due:
    """The next thing the server must do in a room: ``kind`` at ``at`` (seconds since the
    epoch), planned against the room's ``version``."""

    # "computer_turn", "cover_seat", "next_round", "abandon", "start_table" or "free_seat"
    kind: str
    at: float
    version: int
    seat: int | None = None


def next_due(state: RoomState) -> Due | None:
    """The server's next move in a room in ``state`` (``games.state.room_state``).

    While no player is connected to a room a person holds a seat in, the server owes
    nothing but, after ``ABANDON_AFTER_SECONDS``, ending the room: nobody is there to see
    computers play. A room held only by bots (and computer seats) plays on without them:
    its seats are covered after their grace, and the computer plays them to the end.

    Between rounds, where no person plays a seat (every seat a bot's, the computer's, or
    a person's that the computer covers), nobody presses the page's button: the server
    deals the next round ``ROUND_PAUSE_SECONDS`` after the round ended (a bot that deals
    first is welcome to).

    A public table waiting for people (Play now: ``games.services.public_tables``) starts at
    its ``starts_at``, and gives back the seat of a person whose page has not been connected
    for ``PLAY_NOW_AWAY_SECONDS``.
    """
    room = state["room"]
    if room["status"] == "waiting" and room.get("public"):
        return _public_table_due(state)
    if room["status"] != "playing":
        return None
    version, seats = state["version"], state["seats"]
    if state["unattended_since"] is not None and people_hold(seats):
        return Due("abandon", state["unattended_since"] + settings.ABANDON_AFTER_SECONDS, version)
    due = [
        Due("cover_seat", seat["away_since"] + settings.SEAT_GRACE_SECONDS, version, seat["index"])
        for seat in seats
        if seat["kind"] == "human"
        and seat["away_since"] is not None
        and not played_by_computer(seat)
    ]
    rnd, match, changed_at = state["round"], state["match"], state["changed_at"]
    if rnd and match and not match["over"] and changed_at is not None:
        if not rnd["over"]:
            drawer = rnd["state"]["drawer"]
            if played_by_computer(seats[drawer]):
                at = changed_at + computer_delay(state["room"].get("computer_speed"))
                due.append(Due("computer_turn", at, version, drawer))
        elif not any(played_in_person(seat) for seat in seats):
            at = changed_at + settings.ROUND_PAUSE_SECONDS
            due.append(Due("next_round", at, version))
    return min(due, key=lambda d: d.at) if due else None


def _public_table_due(state: RoomState) -> Due | None:
    version, grace = state["version"], settings.PLAY_NOW_AWAY_SECONDS
    due = [
        Due("free_seat", seat["away_since"] + grace, version, seat["index"])
        for seat in state["seats"]
        if seat["kind"] == "human" and seat["away_since"] is not None
    ]
    starts_at = state["room"].get("starts_at")
    if starts_at is not None:
        due.append(Due("start_table", starts_at, version))
    return min(due, key=lambda d: d.at) if due else None
