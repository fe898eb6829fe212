"""Playing together: the drawer's point (the hover over the giver's cards), reactions,
and the computer faces a point can bring (``games.engine.tells``).

None of it is a move: nothing is stored, no ply or version moves, and no database is
read. Each function checks a frame against the table socket's kept state (the drawer's
point as its draw would be checked, ``games.refusals``) and answers the channel-layer
messages to send to the room's group, or raises the refusal.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games.engine.seats import seats_of
from games.engine.shapes import RoomState
from games.engine.tells import face_at, shows_face
from games.errors import ActionError
from games.reactions import REACTIONS
from games.realtime.windows import allowed
from games.refusals import not_seated, refusal, stale_move


def slow_down() -> ActionError:
    return ActionError("slow_down", _("Not so fast: wait a moment and try again."))


def bad_reaction() -> ActionError:
    return ActionError("bad_reaction", _("That is not one of the table's reactions."))


def point(state: RoomState | None, actor, action: dict) -> list[dict]:
    """The drawer points at ``action["position"]`` of the giver's hand (None: at no card).
    ``state`` is the socket's kept state, or None when the socket knows it is behind
    (then the point is refused as stale: it would name a move the room is past)."""
    if state is None:
        raise stale_move()
    refused = refusal(state, actor, action)
    if refused is not None:
        raise refused
    rnd, match = state["round"], state["match"]
    assert rnd is not None and match is not None  # refusal() refused a room not started
    drawer, giver = rnd["state"]["drawer"], rnd["state"]["giver"]
    position = action["position"]
    messages = [{"type": "room.pointing", "seat": drawer, "position": position}]
    level = state["room"]["computer_level"]
    seats = state["seats"]
    if position is not None and level and shows_face(seats[drawer], seats[giver]):
        face = face_at(rnd["state"], level, rnd["seed"], match["number"], rnd["number"], position)
        if face is not None:
            messages.append({"type": "room.reaction", "seat": giver, "reaction": face})
    return messages


def seat_may_point(room_id: int, seat: int) -> bool:
    """Count a point of ``seat`` (one ``point`` allows); whether it is within
    ``SEAT_POINTS_PER_WINDOW`` in ``SEAT_POINT_WINDOW_SECONDS``, counted across the seat's
    sockets and processes (``games.realtime.windows``: Redis, so call it off the event
    loop). A point past it is refused as ``slow_down``."""
    limit, window = settings.SEAT_POINTS_PER_WINDOW, settings.SEAT_POINT_WINDOW_SECONDS
    return allowed(f"points:{room_id}:{seat}", limit, window)


def react(state: RoomState | None, actor, action: dict, room_id: int) -> list[dict]:
    """A seated player's reaction: one of ``REACTIONS``, at most
    ``REACTIONS_PER_WINDOW`` per seat in ``REACTION_WINDOW_SECONDS``, counted across
    processes (``games.realtime.windows``: Redis, so call it off the event loop)."""
    key = action["reaction"]
    if key not in REACTIONS:
        raise bad_reaction()
    mine = seats_of(state, actor) if state is not None else frozenset()
    if state is None or not mine:
        raise not_seated()
    rnd = state["round"]
    drawer = rnd["state"]["drawer"] if rnd and not rnd["over"] else None
    seat = drawer if drawer in mine else min(mine)  # one device for every seat: the acting
    limit, window = settings.REACTIONS_PER_WINDOW, settings.REACTION_WINDOW_SECONDS
    if not allowed(f"reactions:{room_id}:{seat}", limit, window):
        raise slow_down()
    return [{"type": "room.reaction", "seat": seat, "reaction": key}]
