"""Read-only questions about rooms (the services are the only writers)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.engine.shapes import RoomState
from games.models import Presence, Room
from games.state import room_state


@dataclass(frozen=True)
class Access:
    room_id: int
    same_device: bool


def socket_access(code: str, actor, token: str) -> Access | bool | None:
    """May this socket see the room? Seated players, the host, anyone in a listed room,
    and anyone holding the invitation or the watch token. ``None``: no such room (a
    malformed code counts as none); ``False``: a room this socket may not see (a malformed
    token counts as a wrong one)."""
    room = room_by_code(code)
    if room is None:
        return None
    if not may_view(room, actor, token):
        return False
    return Access(room_id=room.pk, same_device=room.mode == Room.Mode.SAME_DEVICE)


def snapshot(room_id: int) -> RoomState | None:
    """The room's state as of one moment: its version matches its content, even while a
    draw commits between the statements that read it."""
    with _one_moment():
        room = Room.objects.filter(pk=room_id).first()
        return room_state(room) if room else None


@contextmanager
def _one_moment():
    """A read-only transaction whose statements all see one snapshot of the database.

    PostgreSQL's default (read committed) lets each statement see what committed before
    it; repeatable read fixes the snapshot at the first. SQLite's transactions are
    serialised (``BEGIN IMMEDIATE``, config/settings.py), so every transaction is one
    moment there."""
    if connection.in_atomic_block:  # already inside a change: its reads are its own
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def rooms_due(limit: int = 500) -> list[int]:
    """For the periodic sweep: rooms where the server owes a move now (their
    ``due_at``, planned at every change by ``games.schedule.next_due``, has passed),
    the longest overdue first."""
    return list(
        Room.objects.filter(due_at__lte=timezone.now())
        .order_by("due_at")
        .values_list("pk", flat=True)[:limit]
    )


def rooms_with_stale_connections(limit: int = 500) -> list[int]:
    """Rooms holding seat connections left behind by a process that died."""
    stale = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    rooms = Presence.objects.filter(last_seen__lt=stale).values_list("seat__room_id", flat=True)
    return sorted(set(rooms[:limit]))


def lobby_rooms(limit: int = 100) -> list[dict]:
    """Listed rooms waiting for players, newest first, as plain data for the lobby.

    Language-neutral (the variant's key, never its name): the same list goes to every
    lobby socket, and each page names the games in its own reader's language."""
    rooms = (
        Room.objects.filter(listed=True, status=Room.Status.WAITING)
        .select_related("host")
        .prefetch_related("seats")
        .order_by("-created_at")[:limit]
    )
    return [
        {
            "code": room.code,
            "variant": room.variant,
            "taken": sum(1 for s in room.seats.all() if not s.is_empty),
            "seats": room.seat_count,
            "options": room.options,
            "rules": room.rules,
            "host": room.host.get_username() if room.host else "",
        }
        for room in rooms
    ]


def rooms_of(actor, *, active: bool) -> list[Room]:
    """The rooms where ``actor`` plays a seat (``Actor.plays``: not one they left): still
    open (waiting or playing) or finished."""
    seats = actor.seats_query(through="seats__")
    if seats is None:
        return []
    statuses = [Room.Status.WAITING, Room.Status.PLAYING] if active else [Room.Status.FINISHED]
    return list(
        Room.objects.filter(seats, status__in=statuses).distinct().order_by("-updated_at")[:50]
    )


def room_by_code(code: str) -> Room | None:
    """The room with this public code (a malformed code finds none)."""
    from games.tokens import well_formed_code

    return Room.objects.filter(code=code).first() if well_formed_code(code) else None


def room_invited_by(token: str) -> Room | None:
    """The room whose invitation to play is ``token`` (never its watch token)."""
    from games.tokens import well_formed_token

    return Room.objects.filter(token=token).first() if well_formed_token(token) else None


def round_by_replay_id(replay_id: str):
    """The round this replay link names, with its match and room."""
    from games.models import Round
    from games.tokens import well_formed_token

    if not well_formed_token(replay_id):
        return None
    return Round.objects.select_related("match__room").filter(replay_id=replay_id).first()


def may_view(room: Room, actor, token: str = "") -> bool:
    """Seated players, the host, anyone for a listed room, and anyone holding the room's
    invitation token or its watch token. A malformed token is just a wrong one."""
    from games.tokens import token_matches

    if room.listed or actor.owns(room) or actor.seats_in(room.seats.all(), including_left=True):
        return True
    return token_matches(token, room.token) or token_matches(token, room.watch_token)


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


# -- bots (docs/bots.md) ------------------------------------------------------------------


def bot_for_token(token: str | None):
    """The bot whose API token this is (None for a wrong, revoked or malformed one)."""
    from games.models import Bot
    from games.tokens import token_hash

    if not token:
        return None
    return Bot.objects.select_related("user").filter(token_hash=token_hash(token)).first()


def bot_named(name: object):
    from games.models import Bot

    if not isinstance(name, str) or not 0 < len(name) <= 150:
        return None
    return Bot.objects.select_related("user").filter(user__username__iexact=name).first()


def bots_of(owner_id: int) -> list:
    from games.models import Bot

    return list(Bot.objects.select_related("user").filter(owner_id=owner_id))


def _online():
    """The bots with a token whose event stream holds them now (``games.realtime.streams``)."""
    from games.models import Bot

    return Bot.objects.filter(online_until__gt=timezone.now()).exclude(token_hash="")


def online_bots(limit: int = 50) -> list:
    """Bots whose event stream is open now, by name: at most ``limit``, read through the
    index on ``online_until`` (the bots online only), however many bots there are."""
    return list(_online().select_related("user").order_by("user__username")[:limit])


def bot_online(bot_id: int) -> bool:
    return _online().filter(pk=bot_id).exists()


def bots_online(bot_ids) -> set[int]:
    """Those of ``bot_ids`` whose event stream is open now."""
    return set(_online().filter(pk__in=list(bot_ids)).values_list("pk", flat=True))


def bot_token_is(bot_id: int, token: str) -> bool:
    """Whether ``token`` (a token's hash) is still the bot's: a socket or stream that
    checked its token before joining the bot's token group checks again after."""
    from games.models import Bot

    return bool(token) and Bot.objects.filter(pk=bot_id, token_hash=token).exists()


def bot_games(bot_id: int) -> list[tuple[Room, int]]:
    """The rooms waiting or playing where the bot holds a seat (not one it left), with
    the seat."""
    from games.models import Seat

    seats = Seat.objects.select_related("room").filter(
        user_id=bot_id,
        left=False,
        room__status__in=[Room.Status.WAITING, Room.Status.PLAYING],
    )
    return [(s.room, s.index) for s in seats.order_by("room_id")]


def pending_challenges(bot_id: int) -> list:
    """The bot's challenges still waiting for an answer, in rooms still waiting."""
    from games.models import Challenge

    return list(
        Challenge.objects.select_related("room", "room__host").filter(
            bot_id=bot_id, status=Challenge.Status.PENDING, room__status=Room.Status.WAITING
        )
    )


def room_challenges(room_id: int) -> list:
    """A waiting room's challenges still pending, for its page."""
    from games.models import Challenge

    return list(
        Challenge.objects.select_related("bot__user").filter(
            room_id=room_id, status=Challenge.Status.PENDING
        )
    )
