"""GET /healthz: can this process reach the database (and its every table) and the
channel layer (Redis)?

For load balancers, monitoring and ``scripts/prod.sh``. The answer names each part and
whether it works, nothing more: failures are logged here, never described to the caller.
"""

import asyncio
import logging
import secrets

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

# Each check must answer within this many seconds; both run at the same time.
TIMEOUT_SECONDS = 2.0


def _tables() -> list[str]:
    """Every table the site's models keep their rows in."""
    from django.apps import apps

    return sorted({m._meta.db_table for m in apps.get_models() if m._meta.managed})


def _database() -> None:
    # Runs in a worker thread of its own (thread_sensitive=False), so a database that
    # hangs cannot block requests; the connection is closed again so that each check
    # proves a new connection can be made. One statement names every table the site
    # uses (a table dropped, a restore gone wrong: an error) and reads none of their rows.
    connection = connections["default"]
    quote = connection.ops.quote_name
    probes = " UNION ALL ".join(f"SELECT 1 AS one FROM {quote(t)} WHERE 1 = 0" for t in _tables())
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM ({probes}) AS tables")
            cursor.fetchone()
    finally:
        connection.close()


async def check_database() -> None:
    await sync_to_async(_database, thread_sensitive=False)()


#: Per event loop: the channel this process's checks receive on, and the lock that makes
#: them take turns on it. One channel for the life of the process: a publish/subscribe
#: layer subscribes a Redis channel (and keeps a queue) for every new channel and never
#: lets go of it, so a fresh channel per check leaked one subscription per call.
_probes: dict[asyncio.AbstractEventLoop, tuple[asyncio.Lock, list[str | None]]] = {}


async def check_channel_layer() -> None:
    """A message sent to the process's own probe channel comes back: Redis (or the
    in-memory layer) works for sending and receiving, the two things the table needs."""
    layer = get_channel_layer()
    lock, probe = _probes.setdefault(asyncio.get_running_loop(), (asyncio.Lock(), [None]))
    async with lock:
        known = getattr(layer, "channels", None)  # the pubsub layer's subscribed channels
        if probe[0] is None or (isinstance(known, dict) and probe[0] not in known):
            # First check, or a timed-out receive made the layer drop the channel: a
            # publish/subscribe layer only delivers to channels that exist when the
            # message is sent, so subscribe (again) before sending.
            probe[0] = await layer.new_channel("healthz.")
        token = secrets.token_hex(8)
        await layer.send(probe[0], {"type": "healthz", "token": token})
        while True:  # a reply to an earlier, timed-out check may still be queued
            message = await layer.receive(probe[0])
            if message.get("token") == token:
                return


CHECKS = {"database": check_database, "channel_layer": check_channel_layer}


async def _run(name: str) -> bool:
    try:
        await asyncio.wait_for(CHECKS[name](), TIMEOUT_SECONDS)
        return True
    except Exception:  # any failure counts; the details go to the log only
        logger.warning("health check %s failed", name, exc_info=True)
        return False


@never_cache
@require_GET
async def healthz(request):
    names = list(CHECKS)
    results = await asyncio.gather(*(_run(name) for name in names))
    checks = {name: "ok" if ok else "error" for name, ok in zip(names, results, strict=True)}
    healthy = all(results)
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks},
        status=200 if healthy else 503,
    )
