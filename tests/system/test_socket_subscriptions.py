"""Sockets leave nothing behind in Redis however they end: a real Daphne on the
publish/subscribe layer, against a Redis of the test's own, and real clients closing
their sockets, refused at the door, closed for flooding, or refused while cooling down."""

import asyncio
import itertools
import json
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.rooms import signed_in_friends_room
from tests.support import needs_services
from tests.system.conftest import subscriptions
from tests.system.sockets import open_socket, table

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


async def until_closed(ws) -> None:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 30)
    except ConnectionClosed:
        return


def settled(url: str, expected: int, timeout: float = 30) -> int:
    """The subscription count once it stops moving towards ``expected`` (unsubscribing
    follows a socket's close by a moment), or the count at the deadline."""
    deadline = time.monotonic() + timeout
    count = subscriptions(url)
    while count != expected and time.monotonic() < deadline:
        time.sleep(0.05)
        count = subscriptions(url)
    return count


def pubsub_server(servers, redis_url: str, cooldown: str):
    """A room with a player, and a Daphne on the publish/subscribe layer."""
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    env = {"REDIS_URL": redis_url, "CHANNEL_LAYER": "pubsub", "WS_FLOOD_COOLDOWN_SECONDS": cooldown}
    return room, session, servers("pubsub", env=env)


def test_sockets_leave_no_subscription_behind_however_they_end(servers, private_redis):
    room, session, server = pubsub_server(servers, private_redis.url, cooldown="30")
    port = server.port

    async def one_of_each():
        ws = await table(port, room.code, session)  # the player, who stays
        for _ in range(5):  # plain visits
            other = await table(port, room.code, session)
            await other.close()
        for path in ("/ws/rooms/ZZZZZZ/", f"/ws/rooms/{room.code}/"):  # 4404, 4403
            for _ in range(5):
                await until_closed(await open_socket(port, path))
        flooder = await table(port, room.code, session)  # closed with 4429 ...
        for _ in range(40):
            await flooder.send("{")
        await until_closed(flooder)
        for _ in range(5):  # ... then its address cools down: refused at the handshake
            with pytest.raises(InvalidStatus):
                await open_socket(port, f"/ws/rooms/{room.code}/", session)
        return ws

    async def baseline_then_churn():
        ws = await table(port, room.code, session)
        await ws.send(json.dumps({"type": "ping"}))
        await asyncio.wait_for(ws.recv(), 30)
        before = subscriptions(private_redis.url)
        await ws.close()
        stays = await one_of_each()
        await stays.send(json.dumps({"type": "ping"}))
        return before, stays

    async def scenario():
        before, stays = await baseline_then_churn()
        after = await asyncio.to_thread(settled, private_redis.url, before)
        await stays.close()
        return before, after

    before, after = asyncio.run(scenario())
    assert after == before


async def drain(ws) -> None:
    try:
        async for _ in ws:
            pass
    except ConnectionClosed:
        pass


def test_a_flooder_reconnecting_leaves_no_subscription_and_no_traceback(servers, private_redis):
    # No cooldown: the flooder may reconnect at once.
    room, session, server = pubsub_server(servers, private_redis.url, cooldown="0")
    watch = f"/ws/rooms/{room.code}/?t={room.watch_token}"

    async def scenario():
        stays = await table(server.port, room.code, session)
        before = subscriptions(private_redis.url)
        for _ in range(5):  # connections, each flooded as fast as it goes until cut off
            flooder = await open_socket(server.port, watch)
            reader = asyncio.ensure_future(drain(flooder))
            try:
                for sent in itertools.count(1):
                    await flooder.send("{")
                    if sent % 100 == 0:  # it reads while it writes, as a browser does
                        await asyncio.sleep(0)
            except ConnectionClosed:
                pass
            await reader
        after = await asyncio.to_thread(settled, private_redis.url, before)
        await stays.close()
        return before, after

    before, after = asyncio.run(scenario())
    assert after == before
    assert "Traceback" not in server.log_path.read_text()
