"""Whether anyone is at a room: a human seat with a fresh connection."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Presence, Room


def note_attendance(room: Room) -> None:
    """Set ``room.unattended_since`` (saved by the change's commit): cleared while a
    human seat that has not left has a fresh connection, else kept or started now."""
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    attended = Presence.objects.filter(
        seat__room=room, seat__left=False, last_seen__gte=fresh
    ).exists()
    if attended:
        room.unattended_since = None
    elif room.unattended_since is None:
        room.unattended_since = timezone.now()
