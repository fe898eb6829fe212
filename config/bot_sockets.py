"""A bot's socket: authenticated by its API token, never by cookies (docs/bots.md).

A socket whose handshake carries ``Authorization: Bearer <token>`` is the token's bot:
it gets the bot's user and no session, and needs no ``Origin`` (a browser page cannot
set that header on a WebSocket, so no page can ride on a token; config/origin.py keeps
checking every cookie socket). A wrong, revoked or malformed token is accepted and
closed at once with 4401, so the bot can tell it from a network failure.
"""

from __future__ import annotations

from games import selectors
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
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": BAD_TOKEN})
            return None
        scope = {**scope, "user": bot.user, "session": None, "bot": bot.pk}
        return await self.bots(scope, receive, send)
