"""The room's full state, as plain data: built once per change, server side only.

``room_state`` gathers everything about a room, hidden faces and who holds each seat
included; it travels only between server processes (the channel layer) and is never sent
to a client as is. ``games.engine.view.view_for`` is the one function that turns it into
what a socket may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import rows
from games.engine import MatchRules, MatchScore, RoundResult, get_variant
from games.engine.shapes import RoomState
from games.models import COLOURS, Match, Room, Round, Seat, Watcher


@dataclass(frozen=True)
class Loaded:
    """Everything a room's state is built from besides the room's row (``load``): the new
    state is built from it alone (``room_state``, which reads nothing), and a process
    keeps it between draws (``games.services.resident``), so a draw made from a kept room
    on the event loop never touches the database before its one statement."""

    #: The room's seats, by index.
    seats: list[Seat]
    #: The latest match (None before the first).
    match: Match | None
    #: That match's rounds, in order.
    rounds: list[Round]
    #: The seats whose human left the match before the latest (a rematch followed): a
    #: covered one among them is told as left, not as a short disconnection.
    left_before: tuple[int, ...] = ()
    #: Spectators watching at the load (their sockets' fresh heartbeats).
    spectators: int = 0


def load(room: Room, seats: list[Seat] | None = None) -> Loaded:
    """The room's seats (read now, unless given), its latest match and that match's
    rounds in order, the previous match's leavers while a seat is covered, and the
    spectators (as read with the room's lock, ``games.services.sql.lock_room``, else
    counted now): all a state is built from, read once (a draw builds the new state from
    the rows it has already read, without reading them again)."""
    seats = rows.seats(room.pk) if seats is None else seats
    match, rounds = rows.latest_match(room.pk)
    if match is None:  # never for a started match: it is created with its first round
        match = room.matches.order_by("-number").first()
    left_before: tuple[int, ...] = ()
    if match is not None and match.number > 1 and any(s.covered for s in seats):
        left = (
            Match.objects.filter(room_id=room.pk, number=match.number - 1)
            .values_list("left", flat=True)
            .first()
        )
        left_before = tuple(left or ())
    spectators = getattr(room, "spectators_now", None)
    if spectators is None:
        spectators = spectator_count(room.pk)
    return Loaded(seats, match, rounds, left_before, spectators)


def _epoch(moment) -> float | None:
    return moment.timestamp() if moment is not None else None


def spectator_count(room_id: int) -> int:
    """Spectators watching the room now (sockets whose heartbeat is fresh)."""
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    return Watcher.objects.filter(room_id=room_id, last_seen__gte=fresh).count()


def room_state(room: Room, loaded: Loaded, event: dict | None = None) -> RoomState:
    """Everything about ``room`` as plain data, for broadcasting and snapshots, built from
    ``room`` and what ``load(room)`` read of it, as the change left them: it reads
    nothing (a draw on the event loop builds its state here)."""
    seats, match, rounds = loaded.seats, loaded.match, loaded.rounds
    state: RoomState = {
        "version": room.version,
        "room": {
            "code": room.code,
            "variant": room.variant,
            "variant_name": get_variant(room.variant).name,
            "mode": room.mode,
            "status": room.status,
            "seat_count": room.seat_count,
            "options": room.options,
            "rules": room.rules,
            "computer_level": room.computer_level,
            "computer_speed": room.computer_speed,
            "listed": room.listed,
            "public": room.public,
            # A waiting public table starts by itself then (seconds since the epoch).
            "starts_at": _epoch(room.starts_at),
            # Server side only: who opened the room (the view tells its seat, ``host``).
            "host_user_id": room.host_id,
            "host_guest": room.host_guest,
        },
        # Server side only: when the room last changed and since when nobody is there
        # (games.schedule plans the server's own moves from them).
        "changed_at": _epoch(room.updated_at),
        "unattended_since": _epoch(room.unattended_since),
        "seats": [
            {
                "index": s.index,
                "colour": COLOURS[s.index],
                "name": s.name,
                "kind": s.kind,
                "covered": s.covered,
                "left": s.left,
                "away": s.away_since is not None,
                "bot": s.bot,
                # Covered, its human having left the previous match (a rematch followed):
                # told as left, not as a short disconnection.
                "left_before": s.covered and s.index in loaded.left_before,
                # Server side only: who holds the seat, and since when it is away.
                "user_id": s.user_id,
                "guest": s.guest,
                "away_since": _epoch(s.away_since),
            }
            for s in seats
        ],
        "match": None,
        "round": None,
        "event": event,
        "spectators": loaded.spectators,
    }
    if match is None:
        return state
    score = match_score(room, match, rounds)
    state["match"] = {
        "number": match.number,
        "scoring": score.rules.scoring,
        "scores": score.scores(),
        "standings": score.standings(),
        "over": match.finished_at is not None,
        "winners": match.winners,
        "losers": match.losers,
        "ended_by": match.ended_by,
        "rounds": [
            {
                "number": r.number,
                "dealer": r.dealer,
                "ranking": r.ranking,
                "holder": r.holder,
                "removed": r.removed,
            }
            for r in rounds
            if r.finished_at is not None
        ],
    }
    if rounds:
        current = rounds[-1]
        state["round"] = {
            "number": current.number,
            "dealer": current.dealer,
            "state": current.state,
            "over": current.finished_at is not None,
            "commitment": current.commitment,
            "seed": current.seed,  # secret: view_for reveals it only once the round is over
            "dealt": current.dealt,
            "deal_version": current.deal_version,
            "deal_start": current.deal_start,
            "deal_counts": current.deal_counts,
        }
    return state


def match_score(room: Room, match, rounds) -> MatchScore:
    score = MatchScore.start(
        room.variant, room.seat_count, MatchRules(**match.rules), match.first_dealer
    )
    for r in rounds:
        if r.finished_at is not None:
            score.results.append(RoundResult(ranking=tuple(r.ranking or ()), holder=r.holder))
    return score
