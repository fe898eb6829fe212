"""Draws (a human's or the computer's), the end of a round, and leaving or resigning a
match. Computer seats are not a special path: they call the same draw."""

from __future__ import annotations

import logging
import random
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import refusals
from games.engine import RoundState, RulesError, arrange_after_own_draw, choose_position
from games.engine.shapes import RoomState
from games.errors import ActionError
from games.identity import Actor
from games.models import Draw, Match, Presence, Room, Round, Seat
from games.refusals import refuse
from games.services import resident, sql
from games.services.attendance import note_attendance
from games.services.change import Change, changing, checked_ply
from games.services.matches import end_match, end_match_if_decided, seated_at_latest_match
from games.state import load

log = logging.getLogger(__name__)
_system_random = random.SystemRandom()


def draw(*, room_id: int, actor: Actor, position: object, at: dict | None = None) -> Draw:
    """A human draws the card at ``position`` of the giver's hand; ``at`` names the move
    they saw (match, round and draw number). Returns the ``Draw`` row as written (its key
    is not read back: it is written with the commit's own statement)."""
    return _drawing(room_id, None, _human_draw(actor, position, at))


async def draw_on_loop(
    *, room_id: int, actor: Actor, position: object, at: dict | None = None
) -> bool:
    """``draw`` made from the event loop (``_drawing_on_loop``); False when ``draw`` must
    make it on a worker thread."""
    human_draws = _human_draw(actor, position, at)  # a malformed frame is refused here
    made, _ = await _drawing_on_loop(room_id, None, human_draws)
    return made


def _human_draw(actor: Actor, position: object, at: dict | None):
    """The draw ``draw`` makes, as a function of the change it is made in."""
    if isinstance(position, bool) or not isinstance(position, int):
        raise ActionError("malformed", _("position must be a whole number."))
    at = checked_ply(at)

    def human_draws(change: Change) -> Draw:
        match, rnd, state, seat = _playable(change, at, actor)
        # _playable refused a round that is over, and a round in play has a giver.
        assert state.giver is not None
        refuse(
            refusals.drawer(
                plays_drawer=actor.plays(seat),
                computer_plays=seat.played_by_computer,
                position=position,
                hand_size=len(state.hands[state.giver]),
            )
        )
        return _apply_draw(change, match, rnd, state, seat, position, by_computer=False)

    return human_draws


def computer_turn(*, room_id: int, version: int) -> RoomState | None:
    """The computer draws for the current drawer, if the computer plays that seat.

    Called by the driver with the version it planned against, so a computer never draws
    twice for one turn: a second call for the same turn finds the version moved on.
    Returns the new state, or None when the computer does not play the drawer's seat.
    """

    return _drawing(room_id, version, _computer_draw)


async def computer_turn_on_loop(*, room_id: int, version: int) -> tuple[bool, RoomState | None]:
    """``computer_turn`` made from the event loop (``_drawing_on_loop``): whether it was
    made there, and what ``computer_turn`` returns; if not, ``computer_turn`` must make it
    on a worker thread."""
    return await _drawing_on_loop(room_id, version, _computer_draw)


def _computer_draw(change: Change) -> RoomState | None:
    """The draw ``computer_turn`` makes, in ``change``."""
    match, rnd, state, seat = _playable(change)
    if not seat.played_by_computer:
        return None
    position = choose_position(state, _system_random)
    _apply_draw(change, match, rnd, state, seat, position, by_computer=True)
    return change.state


def _drawing(room_id: int, version: int | None, draws):
    """``draws(change)`` from the room this process kept at its last draw, written with one
    statement (``games.services.resident``); on the locked path when there is none or it
    cannot answer (another process changed the room, a refusal, the round's last draw)."""
    try:
        with resident.kept(room_id, version) as kept:
            return draws(_kept_change(kept))
    except resident.Missed:
        pass
    with changing(room_id, version) as change:
        return draws(change)


async def _drawing_on_loop(room_id: int, version: int | None, draws) -> tuple[bool, Any]:
    """``_drawing``'s kept path from the event loop, when this process kept the room (on
    PostgreSQL): the same checks and engine, and the one statement sent on one of the
    loop's own connections (``sql.execute_on_loop``) while the loop serves every other
    socket, with no worker thread to hop to and back. ``(True, what draws returned)``
    once made; ``(False, None)`` when ``_drawing`` must make it on a worker thread: no
    room kept, another draw in the room under way in this process, or what the kept room
    cannot answer for (a refusal, the round's last draw, another process's change), and
    a defect met before the statement is sent (logged: the worker thread's path, which
    may query, makes the draw, so that the room never stands still)."""
    if not sql.on_loop():
        return False, None
    try:
        with resident.kept(room_id, version, wait=False) as kept:
            change = _kept_change(kept, on_loop=True)
            try:
                made = draws(change)
            except (ActionError, resident.Missed):
                raise
            except Exception as exc:
                log.exception("room %s: a draw on the event loop failed", room_id)
                raise resident.Missed from exc
            if change.state is not None:  # committed: its statement goes out
                await change.sent_on_loop()
            return True, made
    except resident.Missed:
        return False, None


def _kept_change(kept: resident.Kept, *, on_loop: bool = False) -> Change:
    """A change made from the room this process kept, without the lock."""
    change = Change(kept.room, kept.loaded.seats, guarded=True, on_loop=on_loop)
    change.loaded = kept.loaded
    return change


def _playable(
    change: Change, at: dict | None = None, actor: Actor | None = None
) -> tuple[Match, Round, RoundState, Seat]:
    """The match, round and round state to draw in, and the drawer's seat; refused
    (``refusals.drawing``) for an ``actor`` playing no seat, a match not started, a move
    other than ``at``, or a match or round over. Without an ``actor``: the computer."""
    room = change.room
    if change.loaded is None:
        change.loaded = load(room, change.seats)
    loaded = change.loaded
    seats, match, rounds = loaded.seats, loaded.match, loaded.rounds
    rnd = rounds[-1] if rounds else None
    state = RoundState.from_dict(rnd.state) if rnd else None
    refuse(
        refusals.drawing(
            seated=actor is None or bool(actor.seats_in(seats)),
            started=room.status != Room.Status.WAITING and match is not None and rnd is not None,
            at=at,
            now=refusals.ply(
                match=match.number if match else None,
                round=rnd.number if rnd else None,
                draws=state.draws if state else None,
            ),
            match_is_over=match is not None and match.finished_at is not None,
            round_is_over=state is not None and state.over,
        )
    )
    # Refused above unless a match and its round are under way.
    assert match is not None and rnd is not None and state is not None
    seat = next(s for s in seats if s.index == state.drawer)
    return match, rnd, state, seat


def _apply_draw(change, match, rnd, state, seat, position, *, by_computer) -> Draw:
    try:
        result = state.draw(position)
    except RulesError as exc:
        raise refusals.bad_position() from exc
    if state.over and change.guarded:
        raise resident.Missed  # the round's end (and the match's) on the locked path
    level = change.room.computer_level if seat.played_by_computer else None
    arrange_after_own_draw(state, result.drawer, _system_random, level)
    row = Draw(
        round=rnd,
        number=result.number,
        drawer=result.drawer,
        giver=result.giver,
        position=result.position,
        card=result.card,
        paired_with=result.paired_with or "",
        finished=list(result.finished),
        hand_after=state.hand(result.drawer),
        by_computer=by_computer,
    )
    change.insert(row)
    rnd.state = state.to_dict()
    fields = ["state"]
    if state.over:
        rnd.ranking, rnd.holder, rnd.finished_at = state.ranking, state.holder, timezone.now()
        fields += ["ranking", "holder", "finished_at"]
    change.update(rnd, fields)
    if state.over:
        end_match_if_decided(change.room, match, change.loaded.rounds)
    # The next draw starts from what this one read and wrote, unless the round is over.
    event = {"kind": "draw", **result.as_dict(), "by_computer": by_computer}
    change.commit(event, keep=not state.over)
    return row


def leave_match(*, room_id: int, actor: Actor, at: dict | None = None) -> None:
    """With 3+ seats: the computer plays the leaver's seat for the rest of the match. The
    leaver's open sockets get the spectator's view from the next state on."""
    at = checked_ply(at)
    with changing(room_id) as change:
        room = change.room
        refuse(refusals.leaving("leave", seat_count=room.seat_count, playing=_playing(room)))
        mine, match, _ = seated_at_latest_match(change, actor, at, answers="match")
        for seat in mine:
            seat.left, seat.covered, seat.away_since = True, False, None
            seat.save(update_fields=["left", "covered", "away_since"])
        Presence.objects.filter(seat__in=mine).delete()
        note_attendance(room)
        if all(s.played_by_computer for s in room.seats.all()):
            # The last human left: nobody is left to play for, so the match ends here.
            end_match(room, match, [], [], {"how": "everyone_left"})
        change.commit({"kind": "seat_left", "seats": [s.index for s in mine]})


def resign(*, room_id: int, actor: Actor, at: dict | None = None) -> None:
    """With 2 seats: the match ends as a loss for the resigner."""
    at = checked_ply(at)
    with changing(room_id) as change:
        room = change.room
        refuse(refusals.leaving("resign", seat_count=room.seat_count, playing=_playing(room)))
        mine, match, _ = seated_at_latest_match(change, actor, at, answers="match")
        seat = mine[0]
        other = 1 - seat.index
        end_match(room, match, [other], [seat.index], {"seat": seat.index, "how": "resign"})
        change.commit({"kind": "resigned", "seat": seat.index})


def end_unfinished(*, room_id: int, actor: Actor, at: dict | None = None) -> str:
    """From away from the table (the profile's "End it"): the actor's part in the room's
    unfinished match ends the way the table would end it, by resigning with two seats
    or by leaving with more (the computer plays on; the last human leaving ends the
    match). Returns ``"resign"`` or ``"leave"``; refused like either."""
    seat_count = Room.objects.filter(pk=room_id).values_list("seat_count", flat=True).first()
    if seat_count is None:
        raise ActionError("not_allowed", _("This room does not exist."))
    if seat_count == 2:
        resign(room_id=room_id, actor=actor, at=at)
        return "resign"
    leave_match(room_id=room_id, actor=actor, at=at)
    return "leave"


def _playing(room: Room) -> bool:
    return room.status == Room.Status.PLAYING
