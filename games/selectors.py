"""Read-only questions about rooms (the services are the only writers)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.models import Presence, Room
from games.state import room_state


@dataclass(frozen=True)
class Access:
    room_id: int
    same_device: bool


def socket_access(code: str, actor, token: str) -> Access | None:
    """May this socket see the room? Seated players, the host, anyone in a listed room,
    and anyone holding the invitation token. ``None`` looks exactly like no room."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        return None
    seated = any(actor.controls(s) for s in room.seats.all())
    invited = bool(token) and secrets.compare_digest(token, room.token)
    if not (seated or actor.owns(room) or room.listed or invited):
        return None
    return Access(room_id=room.pk, same_device=room.mode == Room.Mode.SAME_DEVICE)


def snapshot(room_id: int) -> dict | None:
    room = Room.objects.filter(pk=room_id).first()
    return room_state(room) if room else None


@dataclass(frozen=True)
class Due:
    """The next thing the server must do by itself in a room, and when."""

    kind: str  # "computer_turn" or "cover_seat"
    version: int
    delay: float
    seat: int


def next_due(room_id: int) -> Due | None:
    room = Room.objects.filter(pk=room_id, status=Room.Status.PLAYING).first()
    if room is None:
        return None
    now = timezone.now()
    seats = list(room.seats.all())
    due: list[Due] = []
    grace = timedelta(seconds=settings.SEAT_GRACE_SECONDS)
    for seat in seats:
        if seat.away_since and not (seat.is_computer or seat.covered or seat.left):
            wait = (seat.away_since + grace - now).total_seconds()
            due.append(Due("cover_seat", room.version, max(0.0, wait), seat.index))
    match = room.matches.order_by("-number").first()
    rnd = match.rounds.order_by("-number").first() if match else None
    if rnd is not None and rnd.finished_at is None and match.finished_at is None:
        drawer = rnd.state["drawer"]
        seat = seats[drawer]
        if seat.played_by_computer:
            since = (now - room.updated_at).total_seconds()
            wait = max(0.0, settings.COMPUTER_DELAY_SECONDS - since)
            due.append(Due("computer_turn", room.version, wait, drawer))
    return min(due, key=lambda d: d.delay) if due else None


def rooms_needing_attention(limit: int = 500) -> tuple[list[int], list[int]]:
    """For the periodic sweep: rooms holding connections left behind by a process that
    died, and rooms in play where the server may owe a move (a computer, covered or
    departed seat, or a seat whose human is away) that have been quiet for a while."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    stale_rooms = sorted(
        set(
            Presence.objects.filter(last_seen__lt=stale).values_list("seat__room_id", flat=True)[
                :limit
            ]
        )
    )
    quiet = now - timedelta(seconds=settings.COMPUTER_DELAY_SECONDS)
    owed = (
        Room.objects.filter(status=Room.Status.PLAYING, updated_at__lte=quiet)
        .filter(
            Q(seats__is_computer=True)
            | Q(seats__covered=True)
            | Q(seats__left=True)
            | Q(seats__away_since__isnull=False)
        )
        .distinct()
        .order_by("updated_at")
        .values_list("pk", flat=True)[:limit]
    )
    return stale_rooms, list(owed)
