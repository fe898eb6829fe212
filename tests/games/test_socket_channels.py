"""A table socket lets go of its own channel however it ends: on the publish/subscribe
layer, a consumer that ended just as a message of its channel came in left the channel
subscribed in Redis (and its queue in memory) for the life of the process."""

import asyncio
import os

import pytest
import redis
from channels.layers import get_channel_layer

from games.realtime import broadcast, consumers
from tests.games.conftest import Player
from tests.rooms import waiting_table

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not REDIS_URL, reason="needs Redis (REDIS_URL)"),
]


@pytest.fixture
def pubsub_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "serializer_format": "msgpack-shared"},
        }
    }


def subscribed(channel: str) -> bool:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return bool(client.pubsub_channels(channel))
    finally:
        client.close()


async def test_a_socket_ending_while_it_handles_a_room_change_leaves_no_subscription(
    pubsub_layer, monkeypatch
):
    host = await Player.guest("g-host")
    await waiting_table(host, seats=3)
    layer = get_channel_layer()
    (channel,) = [name for name in layer.channels if name.startswith(layer.prefix)]
    assert subscribed(channel)

    def broken(state, actor):
        raise RuntimeError("the socket failed while sending this change")

    # The change the socket expects next, so that it is sent at once (a later one would
    # be held for the missing ones, and fail in the task that sends it, not the socket):
    # the socket has sent all it has (the drain), and nothing else changes the room.
    await host.drain()
    monkeypatch.setattr(consumers, "view_for", broken)
    following = {**host.state, "version": host.state["version"] + 1}
    await layer.send(channel, {"type": "room.changed", "state": following})
    with pytest.raises(RuntimeError):
        await host.socket.wait(timeout=30)
    assert channel not in layer.channels
    assert not subscribed(channel)


async def test_a_channel_is_let_go_of_even_when_a_message_comes_in_as_it_is(pubsub_layer):
    from games.realtime.layers import forget_channel

    layer = get_channel_layer()
    channel = await layer.new_channel()
    listening = asyncio.ensure_future(layer.receive(channel))  # subscribes the channel
    await layer.send(channel, {"type": "first"})
    await listening
    assert subscribed(channel)
    # A message lands after the queue is emptied and before the first receive waits: that
    # receive returns it, and only the next try lets the channel go.
    asyncio.get_running_loop().call_soon(layer.channels[channel].put_nowait, b"late")

    await forget_channel(layer, channel)

    assert channel not in layer.channels
    assert not subscribed(channel)


async def test_a_check_reaches_the_socket_after_every_broadcast_handed_over_before_it(
    pubsub_layer,
):
    """What the heartbeat's catch-up relies on (``broadcast.check``): through Redis, the
    check sent to a socket's channel comes after the process's broadcasts to its room."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("room.order", channel)
    for n in range(100):
        message = {"type": "room.changed", "n": n}
        broadcast.in_order("room.order", lambda m=message: layer.group_send("room.order", m))
    assert await broadcast.check(layer, channel)
    received = [await asyncio.wait_for(layer.receive(channel), 30) for _ in range(101)]
    assert [m.get("n") for m in received] == [*range(100), None]
    assert received[-1]["type"] == "room.checked"
    await layer.group_discard("room.order", channel)
    await layer.flush()
