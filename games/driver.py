"""Paces the server's own moves: computer draws and takeovers of seats left unattended.

Each process drives the rooms its sockets are in (and, through a periodic sweep, any room
whose turn is overdue, so a room resumes after the process driving it died). Several
processes may drive one room at once: every move names the version it was planned
against, so only one of them is applied.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError

from games import selectors, services
from games.errors import ActionError

log = logging.getLogger(__name__)

_drivers: dict[int, tuple[asyncio.Task, asyncio.Event]] = {}
_sweeper: asyncio.Task | None = None


def ensure(room_id: int, state: dict | None = None) -> None:
    """Make sure this process is driving ``room_id``, and make it look again now.

    Given the room's new ``state``, a room where the server owes nothing starts no driver:
    planning costs queries, and a room of connected humans would pay them on every draw.
    """
    entry = _drivers.get(room_id)
    if entry is not None and not entry[0].done():
        entry[1].set()
        return
    if state is not None and not may_owe(state):
        return
    wake = asyncio.Event()
    task = asyncio.get_running_loop().create_task(_drive(room_id, wake))
    _drivers[room_id] = (task, wake)


def may_owe(state: dict) -> bool:
    """Whether the server may have a move to make in a room in ``state`` (what
    ``selectors.next_due`` looks for): a match in play with a computer, covered, departed
    or away seat."""
    if state["room"]["status"] != "playing":
        return False
    return any(
        s["kind"] == "computer" or s["covered"] or s["left"] or s["away"] for s in state["seats"]
    )


def start_sweeper() -> None:
    global _sweeper
    if _sweeper is None or _sweeper.done():
        _sweeper = asyncio.get_running_loop().create_task(_sweep_forever())


async def _drive(room_id: int, wake: asyncio.Event) -> None:
    failures = 0
    try:
        while True:
            wake.clear()
            try:
                due = await database_sync_to_async(selectors.next_due)(room_id)
                if due is None:
                    return
                if due.delay > 0:
                    try:
                        await asyncio.wait_for(wake.wait(), timeout=due.delay)
                        continue  # something changed: plan again
                    except TimeoutError:
                        pass
                await database_sync_to_async(run_due)(room_id, due)
                failures = 0
            except DatabaseError:
                failures += 1
                log.warning("room %s: database unavailable, retrying", room_id)
                await asyncio.sleep(min(5.0, 0.5 * failures))
    finally:
        if _drivers.get(room_id, (None,))[0] is asyncio.current_task():
            _drivers.pop(room_id, None)


def run_due(room_id: int, due: selectors.Due) -> None:
    try:
        if due.kind == "computer_turn":
            services.computer_turn(room_id=room_id, version=due.version)
        elif due.kind == "cover_seat":
            services.cover_seat(room_id=room_id, seat_index=due.seat, version=due.version)
    except ActionError:
        pass  # the room moved on (another process acted first): plan again


async def _sweep_forever() -> None:
    while True:
        await asyncio.sleep(settings.SWEEP_SECONDS)
        try:
            await sweep_once()
        except DatabaseError:
            log.warning("sweep: database unavailable")


async def sweep_once() -> None:
    stale, owed = await database_sync_to_async(selectors.rooms_needing_attention)()
    for room_id in stale:
        await database_sync_to_async(services.sweep_stale_presences)(room_id=room_id)
    for room_id in sorted(set(stale) | set(owed)):
        ensure(room_id)


async def stop_all() -> None:
    """Cancel this process's drivers and sweeper (tests and shutdown)."""
    global _sweeper
    tasks = [task for task, _wake in _drivers.values()]
    if _sweeper is not None:
        tasks.append(_sweeper)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    _drivers.clear()
    _sweeper = None
    # A cancelled task may have left a query running in the database thread; queue a
    # no-op behind it so that nothing is still writing when this returns.
    await database_sync_to_async(lambda: None)()
