"""Recording and deleting telemetry events (the only writers of telemetry rows)."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from telemetry.models import Event

RETENTION_DAYS = 30


def record(event: dict) -> Event:
    """Store a cleaned event (telemetry.schema.clean) with today's date and nothing else."""
    return Event.objects.create(date=timezone.localdate(), **event)


def purge(*, today=None) -> int:
    """Delete events older than the retention window; returns how many went."""
    today = today or timezone.localdate()
    cutoff = today - timedelta(days=getattr(settings, "TELEMETRY_RETENTION_DAYS", RETENTION_DAYS))
    deleted, _ = Event.objects.filter(date__lt=cutoff).delete()
    return deleted


def purge_once_a_day() -> None:
    """Purge on the first event of each day, once across all processes (the cache's add is
    atomic); a daily timer in production covers days without events (docs/operations.md)."""
    from django.core.cache import cache

    if cache.add(f"telemetry-purged:{timezone.localdate().isoformat()}", 1, 2 * 86400):
        purge()
