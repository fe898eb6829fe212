"""The profile's statistics: a player's record and a room's matches, round by round."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Presence, Room


def player_stats(user_id: int) -> dict:
    """A player's record, by variant and match by match (newest first, at most 50).

    Per variant: matches played to a result for the player (``won`` + ``lost``), rounds
    played, rounds in which the player was left holding the odd card, and, for
    points-scored variants, how often the player finished in each place. A match counts
    for the player only when it has a result for their seat: matches in progress,
    abandoned, or the one the player left (the computer finished it) are listed but not
    counted (a match the player left counts none of its rounds either: it is the
    computer's, kept per match in ``Match.left`` once a rematch follows). Games on one
    device (the player holds every seat) are listed, not counted:
    they are nobody's own result.

    Each listed match: ``match``, ``room``, ``variant``, ``seat`` (``None`` on one
    device), ``rounds`` (finished), ``date`` (when it ended, else when it began) and
    ``outcome``: ``won``, ``lost``, ``playing``, ``unfinished``, ``abandoned``, ``left`` or
    ``shared``. A match not over is ``playing`` only while one of its room's humans is
    connected (a fresh ``Presence``); otherwise it is ``unfinished`` (walked away from),
    with ``last_played`` (its latest draw, else its start) and ``may_end`` (the player's
    own seat is still in it: ``services.end_unfinished`` can end it).
    """
    from collections import defaultdict

    from django.db.models import Max

    from games.models import Draw, Match, Seat

    held: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for room_id, index, left in Seat.objects.filter(user_id=user_id).values_list(
        "room_id", "index", "left"
    ):
        held[room_id].append((index, left))
    matches = (
        Match.objects.filter(room_id__in=held)
        .select_related("room")
        .prefetch_related("rounds")
        .order_by("-created_at", "-number")
    )
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    attended = set(
        Presence.objects.filter(seat__room_id__in=held, last_seen__gte=fresh).values_list(
            "seat__room_id", flat=True
        )
    )
    by_variant: dict[str, dict] = {}
    listing = []
    latest_seen: set[int] = set()
    for match in matches:
        room = match.room
        latest = room.pk not in latest_seen  # newest first: the room's latest match
        latest_seen.add(room.pk)
        seats = held[room.pk]
        shared = len(seats) > 1
        seat, left = (None, False) if shared else seats[0]
        finished_rounds = sorted(
            (r for r in match.rounds.all() if r.finished_at), key=lambda r: r.number
        )
        ended_by = match.ended_by or {}
        # Still the player's to finish: the room's current match, their seat kept.
        under_way = not match.finished_at and latest and not left
        if under_way:
            outcome = "playing" if room.pk in attended else "unfinished"
        elif shared:
            outcome = "shared"
        elif not match.finished_at:
            outcome = "left" if left else "unfinished"
        elif ended_by.get("how") in ("abandoned", "everyone_left"):
            outcome = "abandoned"
        elif seat in match.left or (left and latest):
            outcome = "left"
        else:
            outcome = "won" if seat in (match.winners or []) else "lost"
        listing.append(
            {
                "match": match,
                "room": room,
                "variant": room.variant,
                "seat": seat,
                "outcome": outcome,
                "rounds": len(finished_rounds),
                "date": match.finished_at or match.created_at,
                "may_end": under_way,
            }
        )
        if shared:
            continue
        record = by_variant.setdefault(
            room.variant,
            {
                "matches": 0,
                "won": 0,
                "lost": 0,
                "rounds": 0,
                "held_odd": 0,
                "scoring": (match.rules or room.rules).get("scoring"),
                "places": defaultdict(int),
            },
        )
        if outcome == "left":
            continue  # the computer finished it: neither its result nor its rounds count
        if outcome in ("won", "lost"):
            record["matches"] += 1
            record[outcome] += 1
        for r in finished_rounds:
            record["rounds"] += 1
            if r.holder == seat:
                record["held_odd"] += 1
            if record["scoring"] == "points" and r.ranking and seat in r.ranking:
                record["places"][r.ranking.index(seat) + 1] += 1
    for record in by_variant.values():
        record["places"] = dict(sorted(record["places"].items()))
        record["win_rate"] = record["won"] / record["matches"] if record["matches"] else None
    listing = listing[:50]
    waiting = [e["match"].pk for e in listing if e["outcome"] == "unfinished"]
    last_draws = dict(
        Draw.objects.filter(round__match_id__in=waiting)
        .values("round__match_id")
        .annotate(last=Max("created_at"))
        .values_list("round__match_id", "last")
    )
    for entry in listing:
        if entry["outcome"] == "unfinished":
            match = entry["match"]
            entry["last_played"] = last_draws.get(match.pk) or match.created_at
    return {"by_variant": by_variant, "matches": listing}


def match_summaries(room: Room) -> list[dict]:
    """Each match of a room with its finished rounds: dealer, loser (the odd card's
    holder), ranking and number of draws, newest match first."""
    from django.db.models import Count

    from games.models import Match

    seats = {s.index: s for s in room.seats.all()}
    summaries = []
    for match in Match.objects.filter(room=room).order_by("-number"):
        rounds = (
            match.rounds.filter(finished_at__isnull=False)
            .annotate(draw_count=Count("draws"))
            .order_by("number")
        )
        summaries.append(
            {
                "match": match,
                "winners": [seats[i] for i in match.winners or []],
                "rounds": [
                    {
                        "number": r.number,
                        "dealer": seats[r.dealer],
                        "holder": seats.get(r.holder),
                        "ranking": [seats[i] for i in r.ranking or []],
                        "draws": r.draw_count,
                        "replay_id": r.replay_id,
                    }
                    for r in rounds
                ],
            }
        )
    return summaries
