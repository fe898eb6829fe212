"""The lobby's WebSocket: the listed rooms waiting for players, how many wait at Play now
for each game and size, and the public tables in play, pushed as they change.

It only listens: every frame a client sends is refused. At most
``WS_LOBBY_FRAMES_PER_SECOND`` are answered (``unknown_action``; past the rate,
``rate_limited``), and a socket past ``WS_INVALID_FRAME_LIMIT`` of them in
``WS_INVALID_WINDOW_SECONDS`` is closed with 4429, its later frames dropped unread
(``games.realtime.limits``, as for the table's socket). The Origin is checked for every socket
(``config.origin``, in ``config/asgi.py``), and one address may open at most
``WS_SOCKETS_PER_CLIENT`` lobby sockets in one process.
"""

import json
import logging

from django.utils import translation
from django.utils.translation import gettext as _

from games.identity import language_from_scope
from games.realtime import limits
from games.realtime.broadcast import LOBBY_GROUP
from games.realtime.workers import in_worker
from games.selectors import lobby

log = logging.getLogger(__name__)

#: What a ``lobby`` frame carries (``selectors.lobby``; docs/protocol.md).
LOBBY_FIELDS = ("rooms", "waiting", "tables")


class LobbyConsumer(limits.LimitedSocket):
    frame_rate = "WS_LOBBY_FRAMES_PER_SECOND"
    joined = False

    async def connect(self):
        counted = limits.open_socket("lobby", self.scope)
        if counted == limits.COOLING:  # just closed for flooding: no socket at all
            self.limits.closed = True
            await self.close()
            return
        if counted is False:
            log.info("a lobby socket refused: too many from one address")
            self.limits.closed = True
            await self.accept()
            await self.close(code=limits.TOO_MANY)
            return
        self.counted = counted
        self.language = language_from_scope(self.scope)
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        await self.send_json({"type": "lobby", **await in_worker(lobby)()})

    async def disconnect(self, code):
        if self.joined:
            self.joined = False
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if self.limits.closed:  # refused or closed: dropped unread
            return
        with translation.override(self.language):
            if self.limits.over_rate():
                error = ("rate_limited", _("Too many messages: slow down."))
            else:
                error = ("unknown_action", _("The lobby only listens."))
            if self.limits.refuse():
                log.info("a lobby socket closed after repeated frames")
                limits.flooded(self.scope)
                await self.close(code=limits.TOO_MANY)
                return
            await self.send_json({"type": "error", "code": error[0], "message": error[1]})

    async def lobby_changed(self, message):
        await self.send_json({"type": "lobby", **{k: message[k] for k in LOBBY_FIELDS}})

    async def send_json(self, data: dict) -> None:
        if self.limits.closed:
            return
        await self.send(text_data=json.dumps(data))
