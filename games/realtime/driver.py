"""Paces the server's own moves: computer draws, takeovers of seats left unattended, the
next round where no person plays a seat, and ending rooms nobody is at (what
``games.schedule.next_due`` says, when it says).

Each process drives the rooms its sockets are in, planning from the latest state it was
sent, so a room of connected humans costs no planning query at all. One process at a
time also sweeps for rooms whose ``due_at`` has passed (a room resumes after the process
driving it died, even before anyone reconnects). Several processes may drive one room at
once: every move names the version it was planned against, so only one of them applies.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from importlib import import_module

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

from games import schedule, selectors, services
from games.engine.shapes import RoomState
from games.errors import ActionError
from games.realtime import heartbeat
from games.realtime.outages import OUTAGES
from games.realtime.workers import idle, in_worker

log = logging.getLogger(__name__)

#: room id -> (its driver task, the event that wakes it); and the latest state known here,
#: for the rooms being driven only (a driver that ends forgets its room's).
_drivers: dict[int, tuple[asyncio.Task, asyncio.Event]] = {}
_latest: dict[int, RoomState] = {}
_sweeper: asyncio.Task | None = None

SWEEP_LEASE = "games:sweep-lease"
SESSIONS_LEASE = "games:sessions-cleared"


def ensure(room_id: int, state: RoomState | None = None) -> None:
    """Make sure this process is driving ``room_id``, and make it look again now.

    Given the room's new ``state``, the driver plans from it; a room where the server
    owes nothing starts no driver.
    """
    entry = _drivers.get(room_id)
    if entry is not None and not entry[0].done():
        if state is not None:
            _remember(room_id, state)
        entry[1].set()
        return
    if state is not None:
        if schedule.next_due(state) is None:
            return  # nothing kept: only a running driver keeps its room's latest state
        _remember(room_id, state)
    wake = asyncio.Event()
    task = asyncio.get_running_loop().create_task(_drive(room_id, wake))
    _drivers[room_id] = (task, wake)


def _remember(room_id: int, state: RoomState) -> None:
    known = _latest.get(room_id)
    if known is None or state["version"] >= known["version"]:
        _latest[room_id] = state


def start_sweeper() -> None:
    global _sweeper
    if _sweeper is None or _sweeper.done():
        _sweeper = asyncio.get_running_loop().create_task(_sweep_forever())


async def _drive(room_id: int, wake: asyncio.Event) -> None:
    failures = 0
    #: After a defect met on the event loop's path: the next move on a worker thread's.
    locked_only = False
    try:
        while True:
            wake.clear()
            try:
                state = _latest.get(room_id)
                if state is None:
                    snapshot = await in_worker(selectors.snapshot)(room_id)
                    if snapshot is None:
                        return
                    _remember(room_id, snapshot)
                    # A newer state may have come (``ensure``) while the snapshot was read:
                    # plan from the newest, or its move would be forgotten with the driver.
                    state = _latest[room_id]
                due = schedule.next_due(state)
                if due is None:
                    return
                delay = due.at - time.time()
                if delay > 0:
                    try:
                        await asyncio.wait_for(wake.wait(), timeout=delay)
                        continue  # something changed: plan again
                    except TimeoutError:
                        pass
                made, new = False, None
                if due.kind == "computer_turn" and not locked_only:  # from the room kept
                    made, new = await services.computer_turn_on_loop(
                        room_id=room_id, version=due.version
                    )
                if not made:
                    new = await in_worker(run_due)(room_id, due)
                if new is None:
                    # Refused (another process acted first, or a state went missing):
                    # plan again from the database.
                    _latest.pop(room_id, None)
                else:
                    _remember(room_id, new)
                failures, locked_only = 0, False
            except DatabaseError:
                failures += 1
                log.warning("room %s: database unavailable, retrying", room_id)
                _latest.pop(room_id, None)
                await asyncio.sleep(min(5.0, 0.5 * failures))
            except Exception:
                # A defect: the operator gets the traceback, and the room does not stand
                # still. Planned again from the database, made on a worker thread.
                failures += 1
                log.exception("room %s: the server's move failed, trying again", room_id)
                _latest.pop(room_id, None)
                locked_only = True
                await asyncio.sleep(min(5.0, 0.5 * failures))
    finally:
        if _drivers.get(room_id, (None,))[0] is asyncio.current_task():
            _drivers.pop(room_id, None)
            _latest.pop(room_id, None)


def run_due(room_id: int, due: schedule.Due) -> RoomState | None:
    """Make the move ``due``; the room's new state, or None if it was not made."""
    try:
        if due.kind == "computer_turn":
            return services.computer_turn(room_id=room_id, version=due.version)
        if due.kind == "cover_seat":
            assert due.seat is not None  # next_due plans cover_seat with its seat
            return services.cover_seat(room_id=room_id, seat_index=due.seat, version=due.version)
        if due.kind == "next_round":
            return services.deal_next_round(room_id=room_id, version=due.version)
        if due.kind == "start_table":
            return services.start_table(room_id=room_id, version=due.version)
        if due.kind == "free_seat":
            assert due.seat is not None  # next_due plans free_seat with its seat
            return services.free_waiting_seat(
                room_id=room_id, seat_index=due.seat, version=due.version
            )
        if due.kind == "abandon":
            return services.abandon_room(room_id=room_id, version=due.version)
    except ActionError:
        pass  # the room moved on (another process acted first): plan again
    return None


async def _sweep_forever() -> None:
    while True:
        await asyncio.sleep(settings.SWEEP_SECONDS)
        try:
            await sweep_once()
        except DatabaseError:
            log.warning("sweep: database unavailable")


def _take_sweep_lease() -> bool:
    """One process sweeps at a time: the lease is the cache's atomic add (Redis in
    production, shared by every process), held for one interval. If the cache cannot be
    reached, sweep anyway: two sweeps are wasteful, never wrong."""
    try:
        return cache.add(SWEEP_LEASE, os.getpid(), timeout=max(1, settings.SWEEP_SECONDS * 0.9))
    except OUTAGES:
        return True


def _clear_expired_sessions() -> None:
    """Expired sessions (log-ins and guests gone for good) leave the session table once
    every ``SESSION_CLEAR_SECONDS``, by whichever process sweeps first in that time."""
    try:
        if not cache.add(SESSIONS_LEASE, os.getpid(), timeout=settings.SESSION_CLEAR_SECONDS):
            return
    except OUTAGES:
        return  # without the shared cache every sweep would clear: wait for it
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()


async def sweep_once(*, lease: bool = True) -> list[int]:
    """Drop connections left by dead processes (and, hourly, expired sessions) and drive
    every room whose ``due_at`` has passed. Returns the rooms found due."""
    if lease and not await in_worker(_take_sweep_lease)():
        return []
    await in_worker(_clear_expired_sessions)()
    await in_worker(services.sweep_stale_watchers)()
    for room_id in await in_worker(selectors.rooms_with_stale_connections)():
        await in_worker(services.sweep_stale_presences)(room_id=room_id)
    due = await in_worker(selectors.rooms_due)()
    for room_id in due:
        ensure(room_id)
    return due


async def stop_all() -> None:
    """Cancel this process's drivers, sweeper and heartbeat (tests and shutdown)."""
    global _sweeper
    tasks = [task for task, _wake in _drivers.values()]
    if _sweeper is not None:
        tasks.append(_sweeper)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    _drivers.clear()
    _latest.clear()
    _sweeper = None
    await heartbeat.stop()
    # A cancelled task may have left a query running in its worker thread, or a draw's
    # statement on its way from the loop (sent whether or not its caller waits): wait for
    # them, so that nothing is still writing when this returns.
    await services.all_sent()
    await idle()
