"""Which bots have their event stream open: one stream per bot, counted in the shared
cache (Redis in production), so the same in every process.

A stream claims its bot's key when it opens and refreshes it with every keep-alive line;
a process that dies without closing its streams leaves keys that expire after three
keep-alives, so the bot is offline again (and may open a new stream) within seconds.
"""

from __future__ import annotations

import math
import secrets

from django.conf import settings
from django.core.cache import cache


def _key(bot_id: int) -> str:
    return f"bot-stream:{bot_id}"


def _ttl() -> int:
    # Whole seconds: the Redis cache drops a fraction (a timeout of 0.6 s would be 0).
    return max(2, math.ceil(3 * settings.BOT_KEEPALIVE_SECONDS))


def claim(bot_id: int) -> str | None:
    """This process's stream for ``bot_id``: its id, or None while another is open."""
    stream = secrets.token_hex(8)
    return stream if cache.add(_key(bot_id), stream, _ttl()) else None


def refresh(bot_id: int, stream: str) -> bool:
    """Keep ``stream`` the bot's; False when it is not (any more)."""
    if cache.get(_key(bot_id)) != stream:
        return False
    cache.set(_key(bot_id), stream, _ttl())
    return True


def release(bot_id: int, stream: str) -> None:
    if cache.get(_key(bot_id)) == stream:
        cache.delete(_key(bot_id))


def online(bot_ids) -> set[int]:
    """Those of ``bot_ids`` whose stream is open."""
    ids = list(bot_ids)
    found = cache.get_many([_key(i) for i in ids])
    return {i for i in ids if _key(i) in found}
