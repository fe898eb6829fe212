"""Broadcasts leave in order (games/realtime/broadcast.py): a service on a worker thread hands each
committed change to the server's event loop and goes on at once; the loop sends them one
after another, in the order they were handed over, so a room's states never overtake each
other, even when the channel layer is slow to take one."""

import asyncio

from games.realtime import broadcast
from games.realtime.workers import in_worker


class SlowFirstLayer:
    """A channel layer that takes the first state it is sent only once released."""

    def __init__(self, count: int):
        self.count = count
        self.sent: list[int] = []
        self.release = asyncio.Event()
        self.all_sent = asyncio.Event()

    async def group_send(self, group: str, message: dict) -> None:
        version = message["state"]["version"]
        if version == 1:
            await self.release.wait()
        self.sent.append(version)
        if len(self.sent) == self.count:
            self.all_sent.set()


async def test_broadcasts_leave_in_the_order_they_were_handed_over(monkeypatch, settings):
    settings.BROADCAST_TIMEOUT_SECONDS = 30  # a bound for a failure only
    layer = SlowFirstLayer(count=5)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)

    def five_changes():  # as a service committing five changes, one after another
        for version in range(1, 6):
            broadcast.room_changed(7, {"version": version})

    await in_worker(five_changes)()
    # Every hand-over has reached the loop. Let it run all it can while the first send
    # is held up: the four behind it must wait for it.
    for _ in range(200):
        await asyncio.sleep(0)
    assert layer.sent == []
    layer.release.set()
    await asyncio.wait_for(layer.all_sent.wait(), 30)
    assert layer.sent == [1, 2, 3, 4, 5]


def test_a_broadcast_from_a_worker_thread_of_a_stopped_server_is_dropped_at_once(
    monkeypatch, caplog
):
    """The server's loop has stopped (config/daphne_shutdown.py): the thread neither hands
    the broadcast to that loop nor waits on it, nor sends it some other way."""
    import os
    import threading

    from asgiref.sync import SyncToAsync

    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append(group)

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: Layer())
    stopped = asyncio.new_event_loop()
    returned = threading.Event()

    def worker():  # as asgiref's worker thread of that loop
        SyncToAsync.threadlocal.main_event_loop = stopped
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
        broadcast.room_changed(7, {"version": 1})
        broadcast.spectators_changed(7)
        returned.set()

    thread = threading.Thread(target=worker, daemon=True)
    with caplog.at_level("INFO", logger="games.realtime.broadcast"):
        thread.start()
        assert returned.wait(timeout=30), "the worker thread waited on a stopped loop"
    stopped.close()
    assert sent == []
    assert "dropped a broadcast to room.7: the server is stopping" in caplog.text
