"""A bot's socket: authenticated by its API token, never by cookies (docs/bots.md).

A socket whose handshake carries ``Authorization: Bearer <token>`` is the token's bot:
it gets the bot's user and no session, and needs no ``Origin`` (a browser page cannot
set that header on a WebSocket, so no page can ride on a token; config/origin.py keeps
checking every cookie socket). A wrong, revoked or malformed token is accepted and
closed at once with 4401, so the bot can tell it from a network failure.

A token socket stays its token's only while the token is the bot's: it listens on the
bot's token group, and when the token is revoked or replaced
(``broadcast.token_revoked``, after the commit, in every process) it is closed with 4401
at once, whatever its consumer is busy with, and no frame reaches the consumer from then
on. The token is checked again once the socket has joined the group, for a revoke
whose message went out between the first check and the join, and at every heartbeat,
for a message lost (``TokenWatch``). A frame already on its way meanwhile commits
nothing either (``services.with_token``).
"""

from __future__ import annotations

import asyncio
import contextlib

from channels.layers import get_channel_layer
from django.conf import settings

from games import selectors
from games.realtime.broadcast import token_group
from games.realtime.layers import forget_channel
from games.realtime.outages import OUTAGES
from games.realtime.workers import in_worker
from games.tokens import bearer_token

BAD_TOKEN = 4401


def _authorization(scope) -> list[bytes]:
    return [v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"]


class BotSocketMiddleware:
    """ASGI middleware for the ``websocket`` scope: token sockets go to ``bots`` as the
    token's bot, every other socket to ``browsers``."""

    def __init__(self, bots, browsers):
        self.bots = bots
        self.browsers = browsers

    async def __call__(self, scope, receive, send):
        headers = _authorization(scope) if scope["type"] == "websocket" else []
        if not headers:
            return await self.browsers(scope, receive, send)
        token = bearer_token(headers[0]) if len(headers) == 1 else None
        bot = await in_worker(selectors.bot_for_token)(token) if token else None
        if bot is None:
            return await _refuse(receive, send)
        scope = {
            **scope,
            "user": bot.user,
            "session": None,
            "bot": bot.pk,
            "bot_token": bot.token_hash,
        }
        watch = TokenWatch(bot.pk, bot.token_hash, receive, send)
        try:
            if not await watch.start():
                return None
            return await self.bots(scope, watch.receive, watch.send)
        finally:
            await watch.stop()


async def _refuse(receive, send) -> None:
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": BAD_TOKEN})


class TokenWatch:
    """Between a token socket and its consumer: once the socket's token is revoked or
    replaced, the socket is closed with 4401 at once, the consumer's next receive is that
    close (so it ends as for any closed socket) and nothing it sends goes out any more.

    It listens on the bot's token group for the revoke (``broadcast.token_revoked``). A
    message on the publish/subscribe layer reaches only those subscribed when it is sent
    (a Redis restart or a dropped connection loses it, and the core layer's group is
    forgotten with a restarted Redis), so at every ``HEARTBEAT_SECONDS`` the socket joins
    the group again and reads its token again too."""

    def __init__(self, bot_id: int, token: str, receive, send):
        self.bot_id = bot_id
        self.token = token
        self._receive = receive
        self._send = send
        self.revoked = asyncio.Event()
        self.accepted = self.closed = False
        self.layer = self.channel = self.listening = None

    async def start(self) -> bool:
        """Listen on the token group; False (the socket closed with 4401) when the token
        was revoked meanwhile: its message may have gone out before the socket listened."""
        self.layer = get_channel_layer()
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(token_group(self.bot_id), self.channel)
        self.listening = asyncio.ensure_future(self._listen())
        if not await in_worker(selectors.bot_token_is)(self.bot_id, self.token):
            await self.close()
            return False
        return True

    async def stop(self) -> None:
        if self.listening is not None:
            self.listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listening
        if self.channel is None:
            return
        with contextlib.suppress(Exception):  # Redis is away: the membership expires
            await self.layer.group_discard(token_group(self.bot_id), self.channel)
        await forget_channel(self.layer, self.channel)

    async def _listen(self) -> None:
        """Until the token group says this socket's token was revoked or replaced, or the
        token read again at a heartbeat is not the bot's any more."""
        waiting = None
        try:
            while True:
                if waiting is None:
                    # One receive at a time, cancelled only at the end: cancelling it
                    # would drop the channel on the publish/subscribe layer.
                    waiting = asyncio.ensure_future(self.layer.receive(self.channel))
                await asyncio.wait({waiting}, timeout=settings.HEARTBEAT_SECONDS)
                if waiting.done():
                    message, waiting = waiting.result(), None
                    revoked = message.get("type") == "bot.revoked"
                    if revoked and message.get("token") == self.token:
                        break
                elif not await self._still_the_bots():
                    break
            await self.close()
        finally:
            if waiting is not None:
                waiting.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await waiting

    async def _still_the_bots(self) -> bool:
        try:
            await self.layer.group_add(token_group(self.bot_id), self.channel)
            return await in_worker(selectors.bot_token_is)(self.bot_id, self.token)
        except OUTAGES:  # the database or Redis is away: the next heartbeat reads again
            return True

    async def close(self) -> None:
        self.revoked.set()
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):  # the client may be gone already
            if not self.accepted:  # so that the client reads the code
                await self._send({"type": "websocket.accept"})
            await self._send({"type": "websocket.close", "code": BAD_TOKEN})

    async def receive(self) -> dict:
        if not self.revoked.is_set():
            incoming = asyncio.ensure_future(self._receive())
            revoked = asyncio.ensure_future(self.revoked.wait())
            try:
                await asyncio.wait({incoming, revoked}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                revoked.cancel()
                if not incoming.done():
                    incoming.cancel()
            if not self.revoked.is_set():
                return incoming.result()
        return {"type": "websocket.disconnect", "code": BAD_TOKEN}

    async def send(self, message: dict) -> None:
        if self.closed:  # closed for its token: nothing more goes out
            return
        if message["type"] == "websocket.accept":
            self.accepted = True
        elif message["type"] == "websocket.close":
            self.closed = True
        await self._send(message)
