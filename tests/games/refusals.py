"""Refusals at the table: the error a player's socket is answered with, what the refusal
left unchanged in the database, and refusals the socket's kept state decides with no
database query."""

import threading

from channels.db import database_sync_to_async
from django.db.backends import utils

from games.models import Draw, Room
from tests.games.conftest import Player


async def expect_error(player: Player, code: str) -> dict:
    error = await player.receive()
    while error["type"] != "error":
        error = await player.receive()
    assert error["code"] == code, error
    assert error["message"]
    snapshot = await player.receive()
    assert snapshot["type"] == "state"
    return error


async def room_version(room):
    return (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version


async def draw_count(room):
    return await database_sync_to_async(Draw.objects.filter(round__match__room=room).count)()


class Queries:
    """Every SQL statement the process runs, from any thread (the consumer's database
    calls run on pooled threads, where a per-connection capture sees nothing)."""

    def __init__(self, monkeypatch):
        self.count = 0
        self.lock = threading.Lock()
        original = utils.CursorWrapper._execute_with_wrappers

        def counting(cursor, *args, **kwargs):
            with self.lock:
                self.count += 1
            return original(cursor, *args, **kwargs)

        monkeypatch.setattr(utils.CursorWrapper, "_execute_with_wrappers", counting)


async def refused_without_queries(monkeypatch, player, frame: dict, code: str) -> dict:
    queries = Queries(monkeypatch)
    await player.send(**frame)
    error = await expect_error(player, code)
    assert queries.count == 0, f"{queries.count} queries for a refusal the state decides"
    monkeypatch.undo()
    return error
