"""Rate-limiting event ingestion without storing addresses.

The cache key is an HMAC of the client address under a random key of the day, truncated
to 64 bits; the count lives for a minute. The day's key lives in the shared cache too
(Redis in production), so every process counts a client under the same key and the
limit is one limit, whatever the number of processes; it expires a day and an hour after
it was made. No address, and nothing that could be turned back into one once the day's
key has expired, is ever written."""

import hashlib
import hmac
import secrets

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

#: How long a day's key outlives its day's first event (a day and an hour).
KEY_SECONDS = 25 * 3600


def _key_for_today() -> bytes:
    name = f"telemetry-rate-key:{timezone.localdate().isoformat()}"
    cache.add(name, secrets.token_hex(32), KEY_SECONDS)  # the first process makes it
    key = cache.get(name)
    if key is None:  # the cache lost it between the two calls: make it again
        key = secrets.token_hex(32)
        cache.set(name, key, KEY_SECONDS)
    return bytes.fromhex(key)


def count_key(address: str) -> str:
    """The cache key counting ``address``'s events: the same in every process."""
    digest = hmac.new(_key_for_today(), address.encode(), hashlib.sha256).hexdigest()[:16]
    return f"telemetry-rate:{digest}"


def allow(address: str) -> bool:
    key = count_key(address)
    cache.add(key, 0, 60)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, 60)
        count = 1
    return count <= settings.TELEMETRY_EVENTS_PER_MINUTE
