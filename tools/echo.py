"""A bare echo table for the load benchmark (``python -m tools.bench_load``), mounted at
``/ws/echo/<room>/`` by config/asgi.py only when ``BENCH_ECHO=1``.

Each text frame is sent to the room's channel-layer group and every socket in the group
passes it on to its client unchanged: the same Daphne, proxy, TLS and Redis hop per
message as a real draw, with no database, no game rules and no per-seat views. The
benchmark's saturation throughput on the real table is reported as a ratio of this one.
"""

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

MAX_BYTES = 2048


class EchoConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        # As the table's consumer does: no database, so no connection clean-up per message.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.group = f"echo.{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None and len(text_data) <= MAX_BYTES:
            await self.channel_layer.group_send(
                self.group, {"type": "echo.message", "text": text_data}
            )

    async def echo_message(self, message):
        await self.send(text_data=message["text"])


websocket_urlpatterns = [
    re_path(r"^ws/echo/(?P<room>[A-Za-z0-9]{1,20})/$", EchoConsumer.as_asgi()),
]
