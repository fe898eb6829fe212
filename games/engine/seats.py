"""Who plays a seat: the one home of two game facts every layer asks about.

- The seats someone plays: the seats they hold (as a signed-in user or as a guest
  browser), less those they left to the computer for the rest of the match, unless the
  caller asks for those too (``including_left``: a page still shows a leaver their room).
- Whether the computer plays a seat: a computer seat, a seat whose human left the match,
  or one it covers while its human is away too long.
- Who is the room's host, and which seat that is: the account or guest browser that
  opened the room (``Room.host`` / ``host_guest``), playing the lowest seat it holds and
  has not left (seat 0 as a room is made: its creator sits there, at every seat on a
  shared device, and it is never freed).
- Whether a person holds a seat: a human's seat that no bot account holds, whoever plays
  it now (a computer seat is the computer's own from the start; a bot's seat is a
  program's); whether a person plays it now; and whether a room's seats wait for people
  (one of them is a person's who has not left the match).

Pure: no Django, no I/O. The redaction (``view.py``), the kept-state refusals, the
schedule and the services all ask here; ``games.identity.Actor`` and
``games.models.Seat`` hand their rows' fields to these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol


class Viewer(Protocol):
    # Read-only members, so that a frozen dataclass (``games.identity.Actor``) is one.
    @property
    def user_id(self) -> int | None: ...
    @property
    def guest(self) -> str: ...


def holds(viewer: Viewer | None, user_id: int | None, guest: str) -> bool:
    """Whether ``viewer`` holds what is held by ``user_id`` / ``guest`` (a seat, or a room
    as its host): the same signed-in user, or the same guest browser."""
    if viewer is None:
        return False
    if viewer.user_id is not None and user_id == viewer.user_id:
        return True
    return bool(viewer.guest) and guest == viewer.guest


def plays(
    viewer: Viewer | None,
    user_id: int | None,
    guest: str,
    left: bool,
    *,
    including_left: bool = False,
) -> bool:
    """Whether ``viewer`` plays a seat held by ``user_id`` / ``guest`` whose human has
    ``left`` the match or not: they hold it and have not left it, or, with
    ``including_left``, they hold it at all. (A seat someone holds is a human's: computer
    seats are never held.)"""
    return holds(viewer, user_id, guest) and (including_left or not left)


def seats_of(
    state: Mapping, viewer: Viewer | None, *, including_left: bool = False
) -> frozenset[int]:
    """The seats ``viewer`` plays in a room's full ``state`` (``plays``)."""
    return frozenset(
        s["index"]
        for s in state["seats"]
        if plays(viewer, s["user_id"], s["guest"], s["left"], including_left=including_left)
    )


def hosts(viewer: Viewer | None, host_user_id: int | None, host_guest: str) -> bool:
    """Whether ``viewer`` is the room's host: the account or guest browser that opened it
    (``holds``, with the room's ``host_user_id`` / ``host_guest``). The host's moves before
    the start (removing a player, starting, inviting a bot) ask this."""
    return holds(viewer, host_user_id, host_guest)


def host_seat(seats: Iterable[Mapping], host_user_id: int | None, host_guest: str) -> int | None:
    """The host's seat among ``seats`` (a state's seats, or ``Seat.facts``: ``index``,
    ``user_id``, ``guest``, ``left``): the lowest seat the room's host plays (holds and has
    not left), or None when they play none (they left the match, or hold no seat). The
    one answer to "which seat is the host's": the view's ``host``, and the moves only the
    host's seat makes (``plays_as_host``)."""
    return min(
        (
            s["index"]
            for s in seats
            if holds(_Holder(host_user_id, host_guest), s["user_id"], s["guest"]) and not s["left"]
        ),
        default=None,
    )


def plays_as_host(
    viewer: Viewer | None, seats: Iterable[Mapping], host_user_id: int | None, host_guest: str
) -> bool:
    """Whether ``viewer`` is the host playing their seat (``host_seat``): what the host's
    moves at the table (the computer's speed) need, at any time of the room."""
    return hosts(viewer, host_user_id, host_guest) and (
        host_seat(seats, host_user_id, host_guest) is not None
    )


class _Holder:
    """The room's host as a ``Viewer``."""

    __slots__ = ("user_id", "guest")

    def __init__(self, user_id: int | None, guest: str):
        self.user_id, self.guest = user_id, guest


def reporting_seats(mode: str, seats: Iterable[Mapping]) -> dict[str, int | None]:
    """The seat whose page reports a match's telemetry, so that a game is counted once
    however many pages show it: ``start`` reports it starting, ``end`` finishing. In a
    friends room, the lowest human seat (a person's or a bot's) whose player plays it:
    not left, not covered; for ``end`` also not away (still at the table). In a room of
    one browser (against the computer, a shared device), that browser's lowest seat it
    has not left, for both."""
    if mode != "friends":
        mine = min(
            (s["index"] for s in seats if s["kind"] == "human" and not s["left"]), default=None
        )
        return {"start": mine, "end": mine}
    playing = [s for s in seats if s["kind"] == "human" and not played_by_computer(s)]
    return {
        "start": min((s["index"] for s in playing), default=None),
        "end": min((s["index"] for s in playing if not s["away"]), default=None),
    }


def played_by_computer(seat: Mapping) -> bool:
    """Whether the computer plays ``seat`` (a state's seat: ``kind``, ``covered``,
    ``left``): a computer seat, a human's seat they left the match in, or one it covers."""
    return seat["kind"] == "computer" or bool(seat["covered"]) or bool(seat["left"])


def person(seat: Mapping) -> bool:
    """Whether a person holds ``seat`` (a state's seat: ``kind``, ``bot``): a human seat no
    bot account holds, even while the computer covers it or plays it after they left."""
    return seat["kind"] == "human" and not seat["bot"]


def played_in_person(seat: Mapping) -> bool:
    """Whether a person plays ``seat`` now (``kind``, ``bot``, ``covered``, ``left``): theirs,
    neither covered nor left."""
    return person(seat) and not played_by_computer(seat)


def people_hold(seats: Iterable[Mapping]) -> bool:
    """Whether a person holds one of ``seats`` for the rest of the match (``person``, not
    left). A room nobody is at waits for them (``games.schedule``); a room held
    only by bots and the computer plays on without anyone there."""
    return any(person(s) and not s["left"] for s in seats)
