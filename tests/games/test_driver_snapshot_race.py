"""The computer's driver plans from the newest state it knows: a state that arrives while
it reads a snapshot from the database (another socket's broadcast) is not lost."""

import asyncio

from games import schedule
from games.realtime import driver

OLD = {"version": 8}  # a human's turn: nothing due
NEW = {"version": 9}  # the computer's turn
AFTER = {"version": 10}  # a human's turn again


def due_of(state):
    if state["version"] == NEW["version"]:
        return schedule.Due(kind="computer_turn", at=0.0, version=state["version"])
    return None


async def test_a_state_that_comes_during_the_drivers_snapshot_is_played(monkeypatch):
    room_id = 424242
    made = []

    def snapshot(room):
        return OLD

    def run_due(room, due):
        made.append(due.version)
        return AFTER

    def in_worker(fn):
        async def call(*args):
            if fn is snapshot:
                # Another socket's broadcast reaches the process while the row is read.
                driver.ensure(room_id, NEW)
            return fn(*args)

        return call

    monkeypatch.setattr(driver.schedule, "next_due", due_of)
    monkeypatch.setattr(driver.selectors, "snapshot", snapshot)
    monkeypatch.setattr(driver, "run_due", run_due)
    monkeypatch.setattr(driver, "in_worker", in_worker)
    driver.ensure(room_id)  # no state known: the driver reads a snapshot first
    task = driver._drivers[room_id][0]
    await asyncio.wait_for(task, 10)
    assert made == [NEW["version"]]
