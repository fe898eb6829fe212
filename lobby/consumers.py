"""The lobby's WebSocket: the listed rooms waiting for players, pushed as they change."""

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.broadcast import LOBBY_GROUP
from games.selectors import lobby_rooms


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        rooms = await database_sync_to_async(lobby_rooms)()
        await self.send(text_data=json.dumps({"type": "lobby", "rooms": rooms}))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(
            text_data=json.dumps(
                {"type": "error", "code": "unknown_action", "message": "The lobby only listens."}
            )
        )

    async def lobby_changed(self, message):
        await self.send(text_data=json.dumps({"type": "lobby", "rooms": message["rooms"]}))
