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
    """What a change reads of its room besides the room's row (``load``): the new state is
    built from it (``room_state``), and a process keeps it between draws
    (``games.services.resident``)."""

    #: The room's seats, by index.
    seats: list[Seat]
    #: The latest match (None before the first).
    match: Match | None
    #: That match's rounds, in order.
    rounds: list[Round]


def load(room: Room, seats: list[Seat] | None = None) -> Loaded:
    """The room's seats (read now, unless given), its latest match and that match's
    rounds in order (a draw builds the new state from the rows it has already read,
    without reading them again)."""
    seats = rows.seats(room.pk) if seats is None else seats
    match, rounds = rows.latest_match(room.pk)
    if match is None:  # never for a started match: it is created with its first round
        match = room.matches.order_by("-number").first()
    return Loaded(seats, match, rounds)


def _epoch(moment) -> float | None:
    return moment.timestamp() if moment is not None else None


def spectator_count(room_id: int) -> int:
    """Spectators watching the room now (sockets whose heartbeat is fresh)."""
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    return Watcher.objects.filter(room_id=room_id, last_seen__gte=fresh).count()


def room_state(room: Room, event: dict | None = None, loaded: Loaded | None = None) -> RoomState:
    """Everything about ``room`` as plain data, for broadcasting and snapshots.

    ``loaded`` is what ``load(room)`` returned, if the caller already has it; ``room``
    carries the live spectator count as ``spectators_now`` when it was read with it
    (``games.services.sql.lock_room``)."""
    loaded = loaded if loaded is not None else load(room)
    seats, match, rounds = loaded.seats, loaded.match, loaded.rounds
    spectators = getattr(room, "spectators_now", None)
    if spectators is None:
        spectators = spectator_count(room.pk)
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
                "left_before": False,  # set below
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
        "spectators": spectators,
    }
    # A covered seat whose human left the previous match (a rematch followed) is told as
    # left, not as a short disconnection: one more query, only while such a seat exists.
    if match is not None and match.number > 1 and any(s.covered for s in seats):
        before = (
            Match.objects.filter(room_id=room.pk, number=match.number - 1)
            .values_list("left", flat=True)
            .first()
        ) or []
        for seat in state["seats"]:
            seat["left_before"] = bool(seat["covered"] and seat["index"] in before)
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
