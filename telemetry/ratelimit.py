"""Rate-limiting event ingestion without storing addresses.

The cache key is an HMAC of the client address under a key that changes every day and
exists only in this process's memory, truncated to 64 bits; the count lives for a minute.
No address, and nothing that could be turned back into one tomorrow, is ever written."""

import hashlib
import hmac
import secrets

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

_daily_keys: dict[str, bytes] = {}


def _key_for_today() -> bytes:
    today = timezone.localdate().isoformat()
    if today not in _daily_keys:
        _daily_keys.clear()
        _daily_keys[today] = secrets.token_bytes(32)
    return _daily_keys[today]


def allow(address: str) -> bool:
    digest = hmac.new(_key_for_today(), address.encode(), hashlib.sha256).hexdigest()[:16]
    key = f"telemetry-rate:{digest}"
    cache.add(key, 0, 60)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, 60)
        count = 1
    return count <= settings.TELEMETRY_EVENTS_PER_MINUTE
