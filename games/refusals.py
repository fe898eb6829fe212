"""The refusals a room's full state decides on its own: pure, no database.

``refusal(state, actor, action)`` answers, from a room's full state
(``games.state.room_state``), the refusal the service would answer for ``action``, with
the same code and message, checked in the same order, or ``None`` when the state alone
cannot tell (the service then decides, under the room's lock). The table socket keeps the
latest state it was sent, so a spectator's draw, an out-of-turn draw, a draw for a move
already made, a ``next_round`` while the round is played ... cost it no database call.

It is sound for a socket's kept state even when the room has moved on since: the move
numbers (match, round, draws) only grow, so an action naming another move than the kept
state's is stale for the room too; and the socket only uses it while it knows of no
change it missed (``TableConsumer.missed``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.view import seats_of
from games.errors import ActionError

#: The fields of a ply, in order (``games.services.change.PLY_FIELDS``).
PLY_FIELDS = ("match", "round", "draw")


def refusal(state: dict, actor, action: dict) -> ActionError | None:
    check = _CHECKS.get(action["type"])
    return check(state, actor, action) if check else None


def _not_seated() -> ActionError:
    return ActionError("not_seated", _("Only the players at this table may do that."))


def _not_started() -> ActionError:
    return ActionError("not_started", _("The match has not started yet."))


def _stale(state: dict, action: dict) -> ActionError | None:
    match, rnd = state["match"], state["round"]
    now = {
        "match": match["number"] if match else None,
        "round": rnd["number"] if rnd else None,
        "draw": rnd["state"]["draws"] if rnd else None,
    }
    for field in PLY_FIELDS:
        if field in action and action[field] != now[field]:
            return ActionError(
                "stale_version", _("The table has moved on: that was meant for an earlier move.")
            )
    return None


def _draw(state: dict, actor, action: dict) -> ActionError | None:
    """``games.services.play.draw``'s refusals, in its order."""
    mine = seats_of(state, actor)
    if not mine:
        return _not_seated()
    if state["room"]["status"] == "waiting" or not state["match"] or not state["round"]:
        return _not_started()
    if (stale := _stale(state, action)) is not None:
        return stale
    if state["match"]["over"]:
        return ActionError("match_over", _("The match is over."))
    round_state = state["round"]["state"]
    drawer, giver = round_state["drawer"], round_state["giver"]
    if state["round"]["over"] or drawer is None or giver is None:
        return ActionError("round_over", _("The round is over."))
    if drawer not in mine:
        return ActionError("not_your_turn", _("It is not your turn to draw."))
    seat = state["seats"][drawer]
    if seat["kind"] == "computer" or seat["covered"] or seat["left"]:
        return ActionError("not_your_turn", _("The computer is playing this seat."))
    if not 0 <= action["position"] < len(round_state["hands"][giver]):
        return ActionError("bad_position", _("That card is not in the hand you are drawing from."))
    return None


def _next_round(state: dict, actor, action: dict) -> ActionError | None:
    """``games.services.rooms.next_round``'s refusals, in its order."""
    if not seats_of(state, actor):
        return _not_seated()
    if not state["match"] or not state["round"]:
        return _not_started()
    if (stale := _stale(state, action)) is not None:
        return stale
    if state["match"]["over"]:
        return ActionError("match_over", _("The match is over: start a rematch instead."))
    if not state["round"]["over"]:
        return ActionError("round_in_play", _("The round is still being played."))
    return None


def _rematch(state: dict, actor, action: dict) -> ActionError | None:
    """``games.services.rooms.rematch``'s refusals, in its order."""
    if not seats_of(state, actor):
        return _not_seated()
    if not state["match"]:
        return _not_started()
    if (stale := _stale(state, action)) is not None:
        return stale
    if not state["match"]["over"]:
        return ActionError("match_in_play", _("The match is still being played."))
    return None


def _leave_or_resign(state: dict, actor, action: dict) -> ActionError | None:
    """``games.services.play.leave_match``'s and ``resign``'s refusals, in their order."""
    seat_count = state["room"]["seat_count"]
    if action["type"] == "leave" and seat_count < 3:
        return ActionError("not_allowed", _("With two seats, resign instead of leaving."))
    if action["type"] == "resign" and seat_count != 2:
        return ActionError(
            "not_allowed", _("With three or more seats, leave instead: the computer takes over.")
        )
    if state["room"]["status"] != "playing":
        return ActionError("not_started", _("The match is not being played."))
    if not seats_of(state, actor):
        return _not_seated()
    if not state["match"]:
        return _not_started()
    return _stale(state, action)


_CHECKS = {
    "draw": _draw,
    "next_round": _next_round,
    "rematch": _rematch,
    "leave": _leave_or_resign,
    "resign": _leave_or_resign,
}
