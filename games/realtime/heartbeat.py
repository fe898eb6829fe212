"""One heartbeat per process for all of its table sockets.

Every ``HEARTBEAT_SECONDS`` the process writes one statement for all of its open sockets
(their seat connections and watcher rows stay fresh, and the rooms' versions come back,
``services.heartbeat``), then each socket checks what it learnt: a room ahead of what the
socket was sent means a lost broadcast, caught up from a snapshot; and the socket joins
its room's group again, in case a restarted Redis forgot it. Per socket, that used to be
a database call each; with 800 sockets it was a sixth of a process's CPU.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings
from django.db import DatabaseError

from games import services
from games.errors import ActionError
from games.realtime.outages import OUTAGES
from games.realtime.workers import in_worker

log = logging.getLogger(__name__)

#: The open sockets of this process (``TableConsumer``), and the task beating for them.
_sockets: weakref.WeakSet = weakref.WeakSet()
_task: asyncio.Task | None = None
#: Sockets beating at once.
BATCH = 25


def join(socket) -> None:
    """``socket`` (with ``channel_name``, ``room_id``, ``actor``, ``gone`` and ``async
    beat(version)``) is open."""
    global _task
    _sockets.add(socket)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


def leave(socket) -> None:
    _sockets.discard(socket)


async def _run() -> None:
    while _sockets:
        await asyncio.sleep(settings.HEARTBEAT_SECONDS)
        await beat_once()


async def beat_once() -> None:
    """One beat for every open socket of this process."""
    sockets = list(_sockets)
    if not sockets:
        return
    try:
        versions, swept = await in_worker(services.heartbeat)(
            channel_names=[s.channel_name for s in sockets],
            room_ids=sorted({s.room_id for s in sockets}),
        )
    except DatabaseError:
        log.warning("heartbeat could not be recorded for %d sockets", len(sockets))
        return
    if swept:
        await _heal([s for s in sockets if s.channel_name in swept and not s.gone])
    results = []
    for start in range(0, len(sockets), BATCH):
        # A few sockets at a time, letting the table's own messages through in between:
        # on the core channel layer each socket's rejoin is a Redis round trip, and 400
        # of them at once held every draw of the process up (a p99 spike at each beat).
        batch = sockets[start : start + BATCH]
        results += await asyncio.gather(
            *(s.beat(versions.get(s.room_id)) for s in batch), return_exceptions=True
        )
        await asyncio.sleep(0)
    failed = [r for r in results if isinstance(r, BaseException)]
    outages = [r for r in failed if isinstance(r, OUTAGES)]
    if outages:
        log.warning("heartbeat could not resync %d sockets: %s", len(outages), outages[0])
    for error in failed:
        if not isinstance(error, (*OUTAGES, asyncio.CancelledError)):
            log.error("heartbeat failed for a socket", exc_info=error)


async def _heal(sockets: list) -> None:
    """Open sockets whose connection rows the sweep removed (this process missed its
    beats for longer than the presence timeout): record them again, as at their connect,
    so that their seats are theirs and their rooms attended again."""
    log.warning("heartbeat: %d open sockets had lost their connection rows", len(sockets))
    for socket in sockets:
        try:
            await in_worker(services.connect)(
                room_id=socket.room_id, actor=socket.actor, channel_name=socket.channel_name
            )
        except (DatabaseError, ActionError):
            log.warning("room %s: could not record a connection again", socket.room_id)


async def stop() -> None:
    """Cancel the beating task (tests and shutdown)."""
    global _task
    task, _task = _task, None
    if task is not None and task.get_loop() is asyncio.get_running_loop():
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
