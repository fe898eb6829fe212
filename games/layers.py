"""The publish/subscribe channel layer's message format: msgpack, decoded once a process.

On ``channels_redis.pubsub`` a room's change reaches each process once, and the layer
queues the same bytes for every socket of the process in that room; each socket's
receive then decoded them again, the largest single cost of a draw inside Daphne after
the draw itself (docs/performance.md). ``SharedMsgPack`` remembers the messages it
decoded last, so a process's sockets share one decoded copy: consumers treat the
messages they receive as read-only (they store and redact states, never change them).
"""

from __future__ import annotations

from channels_redis.serializers import MsgPackSerializer, registry

FORMAT = "msgpack-shared"


class SharedMsgPack(MsgPackSerializer):
    #: Enough for every room changing at once between two turns of the event loop.
    REMEMBERED = 256

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._decoded: dict[bytes, object] = {}

    def deserialize(self, message: bytes):
        found = self._decoded.get(message)
        if found is None:
            found = super().deserialize(message)
            if len(self._decoded) >= self.REMEMBERED:
                del self._decoded[next(iter(self._decoded))]
            self._decoded[message] = found
        return found


def register() -> None:
    registry.register_serializer(FORMAT, SharedMsgPack)
