"""Database work off the event loop, on a pool of worker threads that every room shares.

Channels' ``database_sync_to_async`` runs everything on one thread per process by
default, so a slow statement in one room (a snapshot, a sweep, a computer move) queued
every other room's behind it. ``in_worker(fn)`` runs ``fn`` on the loop's pool instead
(each thread with a database connection of its own, from the pool under ``DB_POOL``);
rooms stay safe from each other through their row locks, as between processes.
``idle()`` waits until no call started here is still running (shutdown, tests).

asgiref runs ``fn`` in a copy of the caller's context, and Django keeps the connection it
opens there, so the connection is closed (or handed back to the pool) inside that copy,
before and after ``fn``: Channels' ``database_sync_to_async`` closes outside it, where it
never sees the connection, which then stayed open as long as the socket that called.
"""

from __future__ import annotations

import asyncio
import functools
import threading

from asgiref.sync import sync_to_async
from django.db import close_old_connections

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
            close_old_connections()
            try:
                return fn(*args, **kwargs)
            finally:
                close_old_connections()
        finally:
            with _changed:
                _running -= 1
                _changed.notify_all()

    return sync_to_async(tracked, thread_sensitive=False)


async def idle(timeout: float = 30) -> bool:
    """Wait until no call made through ``in_worker`` is running (a cancelled caller's
    statement may still be at work in its thread). False if that took over ``timeout``."""

    def wait() -> bool:
        with _changed:
            return _changed.wait_for(lambda: _running == 0, timeout)

    return await asyncio.to_thread(wait)
