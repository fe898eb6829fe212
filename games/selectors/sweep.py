"""The periodic sweep's queries (``games.realtime.driver``): rooms the server owes a move
and rooms holding connections a dead process left."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Presence, Room


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
