"""Whether anyone is at a room: a human seat with a fresh connection; and, as a match
starts, the players' seats nobody is connected to, away from then."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Presence, Room, Seat


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


def away_from_now(room: Room) -> None:
    """As a match starts: every player's seat (a person's or a bot's) with no fresh
    connection, and not already away, covered or left, is away from now, so that the
    computer covers it after ``SEAT_GRACE_SECONDS`` unless its player comes (a seat
    nobody connects to, a bot that never opens its socket, would otherwise hold the table
    up for ever). A person's seat only while someone is at the room, as when a page
    starts the match from the table where the others wait: a match started while nobody
    is there waits for its people (``schedule.next_due``), each seat theirs as they come."""
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    unconnected = (
        Seat.objects.filter(
            room=room, is_computer=False, covered=False, left=False, away_since=None
        )
        .exclude(user=None, guest="")
        .exclude(presences__last_seen__gte=fresh)
    )
    if room.unattended_since is not None and not room.public:
        # (A public table's strangers do not wait for each other: each is away from now.)
        unconnected = unconnected.filter(bot=True)
    unconnected.update(away_since=timezone.now())
