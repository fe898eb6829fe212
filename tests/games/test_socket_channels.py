"""A table socket lets go of its own channel however it ends: on the publish/subscribe
layer, a consumer that ended just as a message of its channel came in left the channel
subscribed in Redis (and its queue in memory) for the life of the process."""

import os

import pytest
import redis
from channels.layers import get_channel_layer

from games.realtime import consumers
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

    monkeypatch.setattr(consumers, "view_for", broken)
    await layer.send(channel, {"type": "room.changed", "state": {**host.state, "version": 10**6}})
    with pytest.raises(RuntimeError):
        await host.socket.wait(timeout=30)
    assert channel not in layer.channels
    assert not subscribed(channel)
