"""What one client may cost a process: its open sockets, and each socket's frames.

Shared by the table and the lobby socket (``games.realtime.consumers``, ``lobby.consumers``); the
numbers are settings (``config/settings.py``, "Limits"), each listed with nginx's in
docs/operations.md ("Limits").

- **Sockets per client address**: at most ``WS_SOCKETS_PER_CLIENT`` open sockets of each
  kind per address in one process. Behind nginx the address is the first one of
  ``X-Forwarded-For``, which Daphne's ``--proxy-headers`` gives as ``scope["client"]``.
- **Frames per second**: past ``rate`` frames in one second a frame is refused unread
  (``rate_limited``).
- **Refused frames**: past ``WS_INVALID_FRAME_LIMIT`` refused frames in
  ``WS_INVALID_WINDOW_SECONDS`` the socket is closed with ``TOO_MANY`` (4429), and from
  then on every frame it sends is dropped unread and nothing more is sent to it. For
  ``WS_FLOOD_COOLDOWN_SECONDS`` after, the address's handshakes are refused (HTTP 403)
  before any database work: a flooder reconnecting in a loop would otherwise cost a room
  lock and a broadcast to the whole room per connect, and every frame it sends on an
  open socket costs Daphne its parsing, even dropped unread.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Final, Literal

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games.realtime.layers import forget_channel

#: The close code for a client that asked too much: too many refused frames on one socket,
#: or too many sockets open from one address. WebSocket servers may only send 1000 or
#: 3000-4999 (Daphne turns any other code into 1011, "server error").
TOO_MANY = 4429

#: Open sockets per (kind, client address) in this process.
_open: Counter = Counter()
#: Client addresses closed for flooding, and until when their new sockets are refused.
_cooling: dict[str, float] = {}


def client_address(scope) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


#: ``open_socket``'s answer for an address cooling down after a flood: refuse the
#: handshake itself (an HTTP 403, and the connection closed: no frame of it is read).
COOLING: Final = "cooling"


def open_socket(kind: str, scope) -> tuple[str, str] | None | Literal[False, "cooling"]:
    """Count a socket of ``kind`` opening for its client address: the key to give back to
    ``close_socket``, ``None`` when the scope names no client (nothing is counted),
    ``False`` when the address already has ``WS_SOCKETS_PER_CLIENT`` open, or ``COOLING``
    when one of its sockets was closed for flooding in the last
    ``WS_FLOOD_COOLDOWN_SECONDS``."""
    address = client_address(scope)
    if address is None:
        return None
    if cooling(address):
        return COOLING
    key = (kind, address)
    if _open[key] >= settings.WS_SOCKETS_PER_CLIENT:
        return False
    _open[key] += 1
    return key


def cooling(address: str) -> bool:
    until = _cooling.get(address)
    if until is None:
        return False
    if until > time.monotonic():
        return True
    del _cooling[address]
    return False


def flooded(scope) -> None:
    """The socket of ``scope`` was closed for its refused frames: refuse its address's new
    sockets for ``WS_FLOOD_COOLDOWN_SECONDS``."""
    address = client_address(scope)
    if address is None:
        return
    now = time.monotonic()
    if len(_cooling) > 10_000:  # addresses long cooled down are forgotten
        for old in [a for a, until in _cooling.items() if until <= now]:
            del _cooling[old]
    _cooling[address] = now + settings.WS_FLOOD_COOLDOWN_SECONDS


def close_socket(key: tuple[str, str] | None) -> None:
    if key is None:
        return
    _open[key] -= 1
    if _open[key] <= 0:
        del _open[key]


def dropping(receive, frame_limits: FrameLimits):
    """The ASGI ``receive`` of a socket, dropping its frames once ``frame_limits`` closed
    it: Daphne goes on queuing whatever the client sends until the connection ends, and
    each message would otherwise cost a task and a dispatch of its own (channels'
    ``await_many_dispatch``); here a queued frame costs a ``get``."""

    async def receive_unless_closed():
        dropped = 0
        while True:
            message = await receive()
            if message["type"] != "websocket.receive" or not frame_limits.closed:
                return message
            dropped += 1
            if dropped % 1000 == 0:
                await asyncio.sleep(0)  # let the rest of the process run

    return receive_unless_closed


def _one_more_this_second(window: tuple[float, int]) -> tuple[float, int]:
    """A per-second counter (the start of its second, the count in it) after one more."""
    started, count = window
    now = time.monotonic()
    if now - started >= 1.0:
        started, count = now, 0
    return (started, count + 1)


class FrameLimits:
    """One socket's frame counters: the rate (per second, the setting named ``rate``) and
    the refused frames."""

    def __init__(self, rate: str):
        self.rate = rate
        #: The start of this second and the frames in it.
        self.window: tuple[float, int] = (0.0, 0)
        #: When the recent refused frames came.
        self.refused: tuple[float, ...] = ()
        #: Set just before the socket is closed for refusals: its frames are dropped unread.
        self.closed = False
        #: The start of this second and the points (``point_allowed``) in it.
        self.points: tuple[float, int] = (0.0, 0)

    def point_allowed(self) -> bool:
        """Count a ``point``; whether it is within ``WS_POINTS_PER_SECOND`` (a point past
        it is refused as ``slow_down``, which never counts towards the close)."""
        self.points = _one_more_this_second(self.points)
        return self.points[1] <= settings.WS_POINTS_PER_SECOND

    def over_rate(self) -> bool:
        """Count a frame; whether it is past the rate."""
        self.window = _one_more_this_second(self.window)
        return self.window[1] > getattr(settings, self.rate)

    def refuse(self) -> bool:
        """Count a refused frame; whether the socket must now be closed (``closed`` is
        then set)."""
        now = time.monotonic()
        window = settings.WS_INVALID_WINDOW_SECONDS
        self.refused = (*(t for t in self.refused if now - t < window), now)
        if len(self.refused) > settings.WS_INVALID_FRAME_LIMIT:
            self.closed = True
        return self.closed


class LimitedSocket(AsyncWebsocketConsumer):
    """A socket held to these limits, its frames counted against the setting named
    ``frame_rate``, its place in its address's count given back when it ends, and its own
    channel let go of in the channel layer however it ends (``layers.forget_channel``)."""

    frame_rate = "WS_TABLE_FRAMES_PER_SECOND"
    #: This socket's place in its client address's count (``open_socket``).
    counted: tuple[str, str] | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.limits = FrameLimits(self.frame_rate)

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, dropping(receive, self.limits), send)
        finally:
            close_socket(self.counted)
            self.counted = None
            await self.ended()
            if getattr(self, "channel_layer", None) is not None and self.channel_name:
                await forget_channel(self.channel_layer, self.channel_name)

    async def ended(self) -> None:
        """The consumer has ended, cleanly or not: what a subclass must still let go of."""
