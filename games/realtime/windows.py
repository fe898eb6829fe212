"""A limit of a few events in a sliding window, counted across processes.

With the Redis cache (production, and any setup of several Daphne processes) each key's
events are a sorted set in Redis, checked and added to by one script, so every process
counts the same events and two processes can never both let the last allowed one pass.
Without it (``make run``: one process, the in-memory cache) they are counted here. If
Redis fails mid-run, this process counts on its own until it answers again: a limit of a
few reactions is not worth refusing a table over.

Times are the wall clock's (``time.time``), which every process of a machine shares.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import deque

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from games.realtime.outages import OUTAGES

log = logging.getLogger(__name__)

#: Drops what left the window, refuses past the limit, else adds the event. KEYS[1]: the
#: key; ARGV: now, the window (s), the limit, a member unique to this event.
_SLIDING = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000))
return 1
"""

#: Each key's recent events in this process, when Redis is not there to count them.
_recent: dict[str, deque[float]] = {}


def allowed(key: str, limit: int, window: float) -> bool:
    """Count one event of ``key`` if fewer than ``limit`` came in the last ``window``
    seconds; whether it was counted (the limit-th passes, the next is refused)."""
    now = time.time()
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        try:
            client = backend._cache.get_client(write=True)
            name = backend.make_and_validate_key(f"window:{key}")
            member = f"{now!r}:{uuid.uuid4().hex[:8]}"
            return bool(client.eval(_SLIDING, 1, name, repr(now), repr(window), limit, member))
        except OUTAGES as error:
            log.warning(
                "Redis unavailable for the limit %s, counted in this process: %s", key, error
            )
    return _allowed_here(key, limit, window, now)


def _allowed_here(key: str, limit: int, window: float, now: float) -> bool:
    if len(_recent) > 10_000:  # keys long quiet are forgotten
        for old in [k for k, times in _recent.items() if not times or now - times[-1] >= window]:
            del _recent[old]
    times = _recent.setdefault(key, deque())
    while times and now - times[0] >= window:
        times.popleft()
    if len(times) >= limit:
        return False
    times.append(now)
    return True
