"""One room's slow database work holds up no other room: a computer move stuck in one
room's statement, and a socket of another room still connects and plays."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.conftest import Player
from tests.rooms import computer_room, friends_room

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_stuck_computer_move_in_one_room_holds_up_no_other_rooms_socket(monkeypatch):
    stuck, released = threading.Event(), threading.Event()
    computer_turn = services.computer_turn

    def slow_in_room_a(*, room_id, version):
        if room_id == room_a.pk:
            stuck.set()
            released.wait(60)  # a statement that takes its time (a lock, a slow disk)
        return computer_turn(room_id=room_id, version=version)

    monkeypatch.setattr(services, "computer_turn", slow_in_room_a)
    a, b = await Player.guest("g-a"), await Player.guest("g-b")
    # Seat 0 deals, seat 1 (a computer) draws first.
    room_a = await database_sync_to_async(computer_room)(a, seats=3, first_dealer=0)
    room_b = await database_sync_to_async(friends_room)(b)
    try:
        # Seat 1 draws first in room A: its move is now stuck in a thread.
        await a.connect(room_a.code)
        assert await asyncio.to_thread(stuck.wait, 30)
        # Room B's socket opens, reads its snapshot and is answered all the same.
        assert await asyncio.wait_for(b.connect(room_b.code), 30)
        await b.send(type="start", fill=True)
        await b.until(lambda s: s["room"]["status"] == "playing", timeout=30)
    finally:
        released.set()
    await a.close()
    await b.close()
