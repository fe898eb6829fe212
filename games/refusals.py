"""Why a player's action is refused: each refusal's code and message in one place, and
the order each action checks them in, as pure functions of plain facts (no database).

Two callers give the same facts and so get the same answer:

- the services (``games.services``), from the rows they read with the room locked;
- the table socket, from the room's full state it keeps (``games.state.room_state``):
  ``refusal(state, actor, action)`` answers with the refusal the service would answer, or
  ``None`` when the state alone cannot tell (the service then decides, under the room's
  lock). So a spectator's draw, an out-of-turn draw, a draw for a move already made, a
  ``next_round`` while the round is played ... cost the socket no database call.

It is sound for a socket's kept state even when the room has moved on since: the move
numbers (match, round, draws) only grow, so an action naming another move than the kept
state's is stale for the room too; and the socket only uses it while it knows of no
change it missed (``TableConsumer.missed``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.seats import played_by_computer, plays_as_host, seats_of
from games.engine.shapes import RoomState
from games.errors import ActionError
from games.labels import SPEED_NAMES

#: The fields of a ply, in order: an action names the move it answers with some of them
#: (lichess's ply: the match number, the round number, the draws made in that round).
PLY_FIELDS = ("match", "round", "draw")


def ply(match: int | None = None, round: int | None = None, draws: int | None = None) -> dict:
    """The move a room is at, as an action names it (``PLY_FIELDS``); an action that
    answers no round (a rematch, leaving) is compared with ``round`` and ``draws`` None."""
    return {"match": match, "round": round, "draw": draws}


def refuse(refused: ActionError | None) -> None:
    """Raise ``refused``, if there is a refusal."""
    if refused is not None:
        raise refused


# -- each refusal, once ---------------------------------------------------------------------


def not_seated() -> ActionError:
    return ActionError("not_seated", _("Only the players at this table may do that."))


def not_started() -> ActionError:
    return ActionError("not_started", _("The match has not started yet."))


def not_being_played() -> ActionError:
    return ActionError("not_started", _("The match is not being played."))


def stale_move() -> ActionError:
    return ActionError(
        "stale_version", _("The table has moved on: that was meant for an earlier move.")
    )


def ahead_move() -> ActionError:
    """A move the room has not reached: no race on one socket (it sent the client every
    move the client can name), but a client naming the move it wants rather than the one
    it answers (a ``next_round`` naming the round to deal instead of the round just over).
    The same code as ``stale_move``, with a message that says so (people meet it only
    on a forged form, so it names no field; docs/bots.md says what to send)."""
    return ActionError(
        "stale_version",
        _("The table has not reached that move yet: nothing changed."),
    )


def match_over() -> ActionError:
    return ActionError("match_over", _("The match is over."))


def round_over() -> ActionError:
    return ActionError("round_over", _("The round is over."))


def not_your_turn() -> ActionError:
    return ActionError("not_your_turn", _("It is not your turn to draw."))


def computer_plays_seat() -> ActionError:
    return ActionError("not_your_turn", _("The computer is playing this seat."))


def bad_position() -> ActionError:
    return ActionError("bad_position", _("That card is not in the hand you are drawing from."))


# -- each action's checks, in order ---------------------------------------------------------


def stale(at: dict | None, now: dict) -> ActionError | None:
    """Refused when ``at`` (what the player saw) names another move than ``now``
    (``ply``): each field it gives is checked; ``None`` (the server's own call) checks
    nothing. Presence and spectators never move a ply, so they never make a click stale.
    A move ahead of ``now`` gets ``ahead_move``'s message, an earlier one ``stale_move``'s."""
    if at is None:
        return None
    named = [field for field in PLY_FIELDS if field in at]
    if all(at[field] == now[field] for field in named):
        return None
    if all(isinstance(now[field], int) for field in named) and (
        tuple(at[field] for field in named) > tuple(now[field] for field in named)
    ):
        return ahead_move()
    return stale_move()


def drawing(
    *,
    seated: bool,
    started: bool,
    at: dict | None,
    now: dict,
    match_is_over: bool,
    round_is_over: bool,
) -> ActionError | None:
    """Why nobody may draw now (a human's draw, or the computer's with ``seated``)."""
    if not seated:
        return not_seated()
    if not started:
        return not_started()
    if (refused := stale(at, now)) is not None:
        return refused
    if match_is_over:
        return match_over()
    if round_is_over:
        return round_over()
    return None


def drawer(
    *, plays_drawer: bool, computer_plays: bool, position: int | None, hand_size: int
) -> ActionError | None:
    """Why this player may not draw (or point at: ``position`` None for no card) the card
    at ``position`` of the giver's hand (of ``hand_size`` cards) once someone may draw:
    not their seat's turn, or the computer's."""
    if not plays_drawer:
        return not_your_turn()
    if computer_plays:
        return computer_plays_seat()
    if position is not None and not 0 <= position < hand_size:
        return bad_position()
    return None


def between_matches(
    *, seated: bool, started: bool, at: dict | None, now: dict
) -> ActionError | None:
    """What ``next_round`` and ``rematch`` both check first: a player, a match, this move."""
    if not seated:
        return not_seated()
    if not started:
        return not_started()
    return stale(at, now)


def next_round(*, match_is_over: bool, round_is_over: bool) -> ActionError | None:
    """Why the next round may not be dealt, once ``between_matches`` allows it."""
    if match_is_over:
        return ActionError("match_over", _("The match is over: start a rematch instead."))
    if not round_is_over:
        return ActionError("round_in_play", _("The round is still being played."))
    return None


def rematch(*, match_is_over: bool) -> ActionError | None:
    """Why no rematch may start, once ``between_matches`` allows it."""
    if not match_is_over:
        return ActionError("match_in_play", _("The match is still being played."))
    return None


def leaving(kind: str, *, seat_count: int, playing: bool) -> ActionError | None:
    """Why nobody may ``kind`` ("leave" or "resign") this room: the table's size decides
    which, and only while the match is played (the seat and move are checked next, by
    ``between_matches``)."""
    if kind == "leave" and seat_count < 3:
        return ActionError("not_allowed", _("With two seats, resign instead of leaving."))
    if kind == "resign" and seat_count != 2:
        return ActionError(
            "not_allowed", _("With three or more seats, leave instead: the computer takes over.")
        )
    if not playing:
        return not_being_played()
    return None


def joining(*, friends: bool, waiting: bool, free: bool) -> ActionError | None:
    """Why nobody may take a seat in a room (``services.join_room``, and the invitation's
    page before anyone tries): only a ``friends`` room takes players, only while
    ``waiting`` for its first match, and only with a ``free`` seat."""
    if not friends:
        return ActionError("not_allowed", _("Only friends rooms take new players."))
    if not waiting:
        return ActionError("already_started", _("This match has already started."))
    if not free:
        return ActionError("room_full", _("Every seat is taken."))
    return None


def speed_change(*, host: bool, speed: object) -> ActionError | None:
    """Why the computer speed may not be set to ``speed``: only the host, while they play
    their seat (``games.engine.seats.plays_as_host``), sets it, at any time (between
    matches too, for the rematch), and only to a speed there is."""
    if not host:
        return ActionError("not_host", _("Only the host may change the computer speed."))
    if speed not in SPEED_NAMES:
        return ActionError("malformed", _("That is not a computer speed."))
    return None


# -- from the table socket's kept state -----------------------------------------------------


def refusal(state: RoomState, actor, action: dict) -> ActionError | None:
    """The refusal the service would answer for ``action`` by ``actor``, from ``state``."""
    check = _CHECKS.get(action["type"])
    return check(state, actor, action) if check else None


def _ply_of(state: RoomState, answers: str) -> dict:
    """The move ``state`` is at, as far as an action answering a "match", a "round" or a
    "draw" names it (the services compare the same fields)."""
    match, rnd = state["match"], state["round"]
    return ply(
        match=match["number"] if match else None,
        round=rnd["number"] if rnd and answers != "match" else None,
        draws=rnd["state"]["draws"] if rnd and answers == "draw" else None,
    )


def _draw(state: RoomState, actor, action: dict) -> ActionError | None:
    mine = seats_of(state, actor)
    match, rnd = state["match"], state["round"]
    round_state = rnd["state"] if rnd else None
    refused = drawing(
        seated=bool(mine),
        started=state["room"]["status"] != "waiting" and bool(match) and bool(rnd),
        at=action,
        now=_ply_of(state, "draw"),
        match_is_over=bool(match and match["over"]),
        round_is_over=bool(
            rnd
            and round_state is not None
            and (rnd["over"] or round_state["drawer"] is None or round_state["giver"] is None)
        ),
    )
    if refused is not None:
        return refused
    assert round_state is not None  # started, and the round not over: it has a drawer
    turn = round_state["drawer"]
    return drawer(
        plays_drawer=turn in mine,
        computer_plays=played_by_computer(state["seats"][turn]),
        position=action["position"],
        hand_size=len(round_state["hands"][round_state["giver"]]),
    )


def _between(state: RoomState, actor, action: dict, answers: str) -> ActionError | None:
    return between_matches(
        seated=bool(seats_of(state, actor)),
        started=bool(state["match"]) and (bool(state["round"]) or answers == "match"),
        at=action,
        now=_ply_of(state, answers),
    )


def _next_round(state: RoomState, actor, action: dict) -> ActionError | None:
    refused = _between(state, actor, action, "round")
    if refused is not None:
        return refused
    match, rnd = state["match"], state["round"]
    assert match is not None and rnd is not None  # _between refused a room not started
    return next_round(match_is_over=match["over"], round_is_over=rnd["over"])


def _rematch(state: RoomState, actor, action: dict) -> ActionError | None:
    refused = _between(state, actor, action, "match")
    if refused is not None:
        return refused
    match = state["match"]
    assert match is not None  # _between refused a room with no match
    return rematch(match_is_over=match["over"])


def _leave_or_resign(state: RoomState, actor, action: dict) -> ActionError | None:
    room = state["room"]
    refused = leaving(
        action["type"], seat_count=room["seat_count"], playing=room["status"] == "playing"
    )
    return refused if refused is not None else _between(state, actor, action, "match")


def _speed(state: RoomState, actor, action: dict) -> ActionError | None:
    room = state["room"]
    host = plays_as_host(actor, state["seats"], room["host_user_id"], room["host_guest"])
    return speed_change(host=host, speed=action["speed"])


_CHECKS = {
    "draw": _draw,
    "point": _draw,  # a point is checked as the draw it announces (position None: no card)
    "next_round": _next_round,
    "rematch": _rematch,
    "leave": _leave_or_resign,
    "resign": _leave_or_resign,
    "speed": _speed,
}
