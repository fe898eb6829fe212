"""A limit on the frames one socket may send, where Daphne reads them.

Daphne reads every frame a client writes and queues it for the application, without
limit and without back-pressure. A client writing junk frames as fast as TCP allows
fills that queue faster than the table's consumer can drop them: it was closed after its
31st refused frame (``games.realtime.limits``), but that frame reached the consumer seconds after
the connect, behind tens of thousands queued, and the process's other sockets waited
behind all of them (the players' p99 went from tens of milliseconds to seconds).

``GuardedWebSocketProtocol`` counts frames as Daphne reads them (Twisted's thread, before
any queue): past ``WS_FRAMES_PER_SECOND_HARD`` in one second, far above anything an honest
page sends (the table answers 20 a second), the socket is closed with 4429 and nothing
more of it is read or queued (the connection is dropped when the close handshake times
out, ``LINGER_SECONDS`` later). A socket the application itself closes with 4429 is read
no further either, instead of being read while Daphne waits for the client's half of the
close handshake.

It also drops what the application sends to a socket that is closing or closed (the
client went away a moment before the application heard of it), which Daphne turned into
an exception and a traceback in the log, the flooder's sockets every time.

``install()`` makes Daphne build its sockets with it; ``config/asgi.py`` calls it, so it
holds under ``daphne`` (``make prod``, the system tests) and Daphne's ``runserver``.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)

#: The close code for a client that asked too much (``games.realtime.limits.TOO_MANY``).
TOO_MANY = 4429
#: How long a socket cut off is kept, unread, before its connection is dropped: long
#: enough for a busy client to read the close frame (autobahn's default is a second).
LINGER_SECONDS = 2


def install() -> None:
    try:
        from daphne import ws_protocol
    except ImportError:  # not served by Daphne: nothing to guard here
        return
    ws_protocol.WebSocketFactory.protocol = _guarded(ws_protocol.WebSocketProtocol)


def _guarded(base):
    from django.conf import settings

    limit = settings.WS_FRAMES_PER_SECOND_HARD

    class GuardedWebSocketProtocol(base):
        _window = 0.0
        _frames = 0
        _cut = False

        def onMessage(self, payload, isBinary):
            if self._cut:
                return  # closed for flooding: dropped unread, never queued
            now = time.monotonic()
            if now - self._window >= 1.0:
                self._window, self._frames = now, 0
            self._frames += 1
            if self._frames > limit:
                log.info("socket cut off after %d frames in a second", limit)
                self._cut_off()
                return
            super().onMessage(payload, isBinary)

        def serverSend(self, content, binary=False):
            # A socket closing or closed (cut off here, or the client went away a moment
            # ago and the application has not yet been told): what the application still
            # sends is dropped, where Daphne would raise and log a traceback for it.
            if self.state != self.STATE_OPEN:
                return
            super().serverSend(content, binary)

        def serverClose(self, code=None):
            if code == TOO_MANY:
                self.closeHandshakeTimeout = LINGER_SECONDS
            super().serverClose(code)
            if code == TOO_MANY:
                self._cut_off(closed=True)

        def _cut_off(self, closed: bool = False) -> None:
            """Send 4429 (unless the application just did) and read nothing more: the
            client's frames wait in the kernel, its writes soon block, and the close
            handshake's timeout (``LINGER_SECONDS``) drops the connection. Not closed at
            once: closing a socket with unread data resets it, and a client that has not
            read the close frame by then loses it (and its code) with the reset."""
            if self._cut:
                return
            self._cut = True
            if not closed:
                self.closeHandshakeTimeout = LINGER_SECONDS
                self.sendClose(code=TOO_MANY)
            if self.transport is not None:
                self.transport.pauseProducing()

    return GuardedWebSocketProtocol
