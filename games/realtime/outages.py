"""Sockets that meet an outage of PostgreSQL or Redis.

Opening a socket reads the session and the room from the database, and a socket's
messages arrive through the channel layer (Redis). When either is unreachable the socket
is closed with 4503 ("service unavailable", in the range WebSocket leaves to applications;
Daphne cannot send 1013), or refused before it opens, with one warning in the log rather
than a traceback. The page reconnects with back-off and is sent a fresh ``state`` once
the service is back (docs/protocol.md, "Reconnecting").
"""

from __future__ import annotations

import contextlib
import logging

from django.db import DatabaseError

RedisError: type[Exception]
try:
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - redis is a dependency; the fallback is for safety

    class _NoRedisError(Exception):
        pass

    RedisError = _NoRedisError


log = logging.getLogger(__name__)

#: What an unreachable database or channel layer raises.
OUTAGES = (DatabaseError, RedisError, ConnectionError, TimeoutError)

UNAVAILABLE = 4503


class OutageMiddleware:
    """Wraps the WebSocket application: an outage closes the socket cleanly."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        closed = False

        async def watching_send(message):
            nonlocal closed
            if message["type"] == "websocket.close":
                closed = True
            await send(message)

        try:
            return await self.inner(scope, receive, watching_send)
        except OUTAGES as exc:
            service = "database" if isinstance(exc, DatabaseError) else "channel layer"
            log.warning(
                "%s: %s unavailable (%s: %s); socket closed",
                scope.get("path", "?"),
                service,
                type(exc).__name__,
                str(exc).splitlines()[0][:200] if str(exc) else "",
            )
            if not closed:
                with contextlib.suppress(Exception):  # the client may be gone already
                    await send({"type": "websocket.close", "code": UNAVAILABLE})


class LayerOutageFilter(logging.Filter):
    """While Redis is down, channels_redis's publish/subscribe layer logs a traceback
    every second from its receiving task ("Unexpected exception in receive task") and
    keeps retrying, which is the right behaviour and the wrong log; the core layer's
    clean-up task for a socket's backup queue fails unseen, and asyncio then logs its
    traceback ("Task exception was never retrieved"). This turns such records into one
    warning a minute, without the traceback; anything else (a bug) passes unchanged."""

    def __init__(self, every_seconds: float = 60.0):
        super().__init__()
        self.every_seconds = every_seconds
        self.last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, OUTAGES):
            return True
        if record.created - self.last < self.every_seconds:
            return False
        self.last = record.created
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        what = record.getMessage().splitlines()[0][:100] if record.msg else ""
        record.msg = "channel layer unavailable (%s: %s): %s"
        record.args = (
            type(error).__name__,
            str(error).splitlines()[0][:200] if str(error) else "",
            what,
        )
        record.exc_info = record.exc_text = None
        return True
