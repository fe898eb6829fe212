"""What a process keeps about rooms lasts only while it is driving them: a waiting or a
finished room leaves nothing behind in the driver."""

import asyncio

import pytest

from games.realtime import driver
from tests.games.conftest import Player, match_ended, play_to_match_end
from tests.rooms import computer_table, waiting_table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_waiting_room_keeps_no_state_in_the_driver():
    host = await Player.guest("g-host")
    room = await waiting_table(host, seats=3)
    assert host.state["room"]["status"] == "waiting"
    assert room.pk not in driver._latest
    await host.close()


async def test_a_finished_room_keeps_no_state_in_the_driver():
    me = await Player.guest("g-solo")
    room = await computer_table(me, single_round=True)
    await play_to_match_end(me)
    assert match_ended(me.state)
    entry = driver._drivers.get(room.pk)
    if entry is not None:  # the driver that made the last computer move: let it end
        await asyncio.wait_for(entry[0], timeout=30)
    assert room.pk not in driver._latest
    await me.close()
