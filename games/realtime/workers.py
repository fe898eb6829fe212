"""Database work off the event loop, on a pool of worker threads that every room shares.

Channels' ``database_sync_to_async`` runs everything on one thread per process by
default, so a slow statement in one room (a snapshot, a sweep, a computer move) queued
every other room's behind it. ``in_worker(fn)`` runs ``fn`` on the loop's pool instead
(each thread with a database connection of its own, from the pool under ``DB_POOL``);
rooms stay safe from each other through their row locks, as between processes.
``idle()`` waits until no call started here is still running (shutdown, tests).
"""

from __future__ import annotations

import asyncio
import functools
import threading

from channels.db import database_sync_to_async

_running = 0
_changed = threading.Condition()


def in_worker(fn):
    """``fn`` as a coroutine function that runs on a worker thread of the pool."""

    @functools.wraps(fn)
    def tracked(*args, **kwargs):
        global _running
        with _changed:
            _running += 1
        try:
            return fn(*args, **kwargs)
        finally:
            with _changed:
                _running -= 1
                _changed.notify_all()

    return database_sync_to_async(tracked, thread_sensitive=False)


async def idle(timeout: float = 30) -> bool:
    """Wait until no call made through ``in_worker`` is running (a cancelled caller's
    statement may still be at work in its thread). False if that took over ``timeout``."""

    def wait() -> bool:
        with _changed:
            return _changed.wait_for(lambda: _running == 0, timeout)

    return await asyncio.to_thread(wait)
