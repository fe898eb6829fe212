"""The publish/subscribe channel layer's message format: msgpack, decoded once a process.

On ``channels_redis.pubsub`` a room's change reaches each process once, and the layer
queues the same bytes for every socket of the process in that room; each socket's
receive then decoded them again, the largest single cost of a draw inside Daphne after
the draw itself (docs/performance.md). ``SharedMsgPack`` remembers the messages it
decoded last, so a process's sockets share one decoded copy: consumers treat the
messages they receive as read-only (they store and redact states, never change them).
A message the process sent itself comes back as the object it was encoded from.
"""

from __future__ import annotations

import asyncio
import contextlib

from channels_redis.serializers import MsgPackSerializer, registry

FORMAT = "msgpack-shared"


class SharedMsgPack(MsgPackSerializer):
    #: Enough for every room changing at once between two turns of the event loop.
    REMEMBERED = 256

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._decoded: dict[bytes, object] = {}

    def serialize(self, message) -> bytes:
        # The process's own messages come back from Redis to its own sockets: as the
        # object they were made from, never decoded.
        data = super().serialize(message)
        self._remember(data, message)
        return data

    def deserialize(self, message: bytes):
        found = self._decoded.get(message)
        if found is None:
            found = super().deserialize(message)
            self._remember(message, found)
        return found

    def _remember(self, data: bytes, message) -> None:
        if len(self._decoded) >= self.REMEMBERED:
            del self._decoded[next(iter(self._decoded))]
        self._decoded[data] = message


def register() -> None:
    registry.register_serializer(FORMAT, SharedMsgPack)


async def forget_channel(layer, channel: str) -> None:
    """Let go of a socket's own channel once its consumer has ended.

    ``channels_redis.pubsub`` unsubscribes a consumer's channel (and drops its queue) only
    when a ``receive`` on it is cancelled, which Channels does when the consumer ends while
    waiting on it. A consumer that ends just after a message of its channel came in (its
    socket closing as a room's change arrives, or a send failing while it handles one) has
    no receive pending, and the subscription stayed in Redis and the queue in memory for
    the life of the process. Here a receive is started and cancelled, which makes the
    layer clean up; a no-op on other layers and for a channel already gone. A message that
    comes in between emptying the queue and the receive's wait (a room's change on its
    way) is returned by that receive instead, and nothing is cleaned up: so again, a few
    times at most.
    """
    channels = getattr(layer, "channels", None)  # only the pubsub layer keeps this dict
    if not isinstance(channels, dict):
        return
    for _ in range(FORGET_TRIES):
        if channel not in channels:
            return
        queue = channels[channel]
        while not queue.empty():  # messages nobody will read: a receive would return one
            queue.get_nowait()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0)  # let it start waiting on the channel's queue
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await waiting


#: How many times ``forget_channel`` tries before leaving a channel to the process's end.
FORGET_TRIES = 5
