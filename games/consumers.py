"""The table's WebSocket: parse, call a service, send each socket its own view."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from games import driver, selectors, services
from games.broadcast import group_name
from games.errors import ActionError
from games.identity import actor_from_scope, language_from_scope
from games.outages import OUTAGES
from games.state import view_for

log = logging.getLogger(__name__)

#: Each action and the fields it takes (besides "type" and an optional "ref").
ACTIONS: dict[str, dict[str, type]] = {
    "draw": {"version": int, "position": int},
    "next_round": {"version": int},
    "rematch": {"version": int},
    "leave": {"version": int},
    "resign": {"version": int},
    "start": {"fill": bool},
    "sync": {},
    "ping": {},
}
RATE_PER_SECOND = 20


def parse_action(text: str | None, data: bytes | None) -> dict:
    """The client's message as a checked dict, or ActionError saying what is wrong."""
    if data is not None:
        raise ActionError("malformed", "Send text frames holding JSON.")
    if text is None:
        raise ActionError("malformed", "Empty message.")
    try:
        size = len(text.encode())
    except UnicodeEncodeError:  # lone surrogates: not UTF-8 (Daphne itself never sends these)
        raise ActionError("malformed", "The message is not valid JSON.") from None
    if size > settings.WS_MAX_MESSAGE_BYTES:
        raise ActionError(
            "too_large", f"Messages are at most {settings.WS_MAX_MESSAGE_BYTES} bytes."
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ActionError("malformed", "The message is not valid JSON.") from None
    if not isinstance(message, dict):
        raise ActionError("malformed", "The message must be a JSON object.")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ActionError("malformed", 'The message needs a "type".')
    if kind not in ACTIONS:
        raise ActionError("unknown_action", f"Unknown action {kind[:40]!r}.")
    ref = message.get("ref")
    if ref is not None and not (isinstance(ref, str) and len(ref) <= 40):
        raise ActionError("malformed", '"ref" must be a string of at most 40 characters.')
    fields = ACTIONS[kind]
    extra = set(message) - set(fields) - {"type", "ref"}
    if extra:
        raise ActionError("malformed", f"Unexpected field(s): {', '.join(sorted(extra))[:80]}.")
    for name, expected in fields.items():
        value = message.get(name)
        if value is None:
            if name == "fill":
                continue
            raise ActionError("malformed", f'"{kind}" needs "{name}".')
        if type(value) is not expected:  # bool is not an int here
            raise ActionError("malformed", f'"{name}" must be {expected.__name__}.')
    return message


class TableConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    seats: frozenset[int] = frozenset()
    heartbeat: asyncio.Task | None = None
    #: The highest room version this socket was sent (the heartbeat catches up past it).
    version_sent = -1
    gone = False

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The channel layer failed under this socket (games/outages.py closes it):
            # record the disconnect as for any closed socket ...
            await self.disconnect(None)
            raise
        finally:
            # ... and never leave a heartbeat behind to keep a gone socket's seat present.
            if self.heartbeat is not None:
                self.heartbeat.cancel()

    async def connect(self):
        self.actor = actor_from_scope(self.scope)
        self.language = language_from_scope(self.scope)
        code = self.scope["url_route"]["kwargs"]["code"]
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        token = query.get("t", [""])[0]
        access = await database_sync_to_async(selectors.socket_access)(code, self.actor, token)
        if access is None:
            await self.close(code=4404)
            return
        self.room_id, self.same_device = access.room_id, access.same_device
        self.window = (time.monotonic(), 0)
        await self.channel_layer.group_add(group_name(self.room_id), self.channel_name)
        await self.accept()
        seats = await database_sync_to_async(services.connect)(
            room_id=self.room_id, actor=self.actor, channel_name=self.channel_name
        )
        self.seats = frozenset(seats)
        if not self.seats:
            await database_sync_to_async(services.start_watching)(
                room_id=self.room_id, channel_name=self.channel_name
            )
        await self.send_snapshot()
        self.heartbeat = asyncio.get_running_loop().create_task(self._heartbeat())
        driver.ensure(self.room_id)
        driver.start_sweeper()

    async def disconnect(self, code):
        if self.room_id is None or self.gone:
            return
        self.gone = True
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        with contextlib.suppress(*OUTAGES):  # Redis is down: the membership expires
            await self.channel_layer.group_discard(group_name(self.room_id), self.channel_name)
        try:
            if self.seats:
                await database_sync_to_async(services.disconnect)(
                    room_id=self.room_id, channel_name=self.channel_name
                )
            else:
                await database_sync_to_async(services.stop_watching)(
                    room_id=self.room_id, channel_name=self.channel_name
                )
        except (DatabaseError, ActionError):
            log.warning("room %s: could not record a disconnect", self.room_id)

    async def receive(self, text_data=None, bytes_data=None):
        with translation.override(self.language):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data, bytes_data):
        ref = None
        try:
            self._count_message()
            action = parse_action(text_data, bytes_data)
            ref = action.get("ref")
            await self.perform(action)
        except ActionError as exc:
            await self.send_json(
                {"type": "error", "code": exc.code, "message": exc.message, "ref": ref}
            )
            await self.resync()
        except DatabaseError:
            log.warning("room %s: database unavailable for a message", self.room_id)
            await self.send_error(
                "unavailable",
                _("The server could not reach its database; nothing changed. Try again."),
                ref,
            )
        except Exception:
            # A bug: the operator gets the traceback, the player a plain message.
            log.exception("room %s: unexpected error handling a message", self.room_id)
            await self.send_error("internal", _("Something went wrong on our side."), ref)
            await self.resync()

    async def send_error(self, code: str, message: str, ref: str | None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "ref": ref})

    async def perform(self, action: dict) -> None:
        kind = action["type"]
        if kind == "ping":
            await self.send_json({"type": "pong", "ref": action.get("ref")})
            return
        if kind == "sync":
            await self.send_snapshot()
            return
        call = {
            "draw": lambda: services.draw(
                room_id=self.room_id,
                actor=self.actor,
                version=action["version"],
                position=action["position"],
            ),
            "next_round": lambda: services.next_round(
                room_id=self.room_id, actor=self.actor, version=action["version"]
            ),
            "rematch": lambda: services.rematch(
                room_id=self.room_id, actor=self.actor, version=action["version"]
            ),
            "leave": lambda: services.leave_match(
                room_id=self.room_id, actor=self.actor, version=action["version"]
            ),
            "resign": lambda: services.resign(
                room_id=self.room_id, actor=self.actor, version=action["version"]
            ),
            "start": lambda: services.start_match(
                room_id=self.room_id, actor=self.actor, fill_with_computers=bool(action.get("fill"))
            ),
        }[kind]
        # Not thread-sensitive: actions in different rooms run at once, each on a pooled
        # connection of its own (rooms are locked row by row, as between processes).
        await database_sync_to_async(call, thread_sensitive=False)()

    async def dispatch(self, message):
        # Channels closes stale database connections before every message, a thread hop
        # per socket per change; database_sync_to_async already does it around each query.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def room_changed(self, message):
        view = view_for(message["state"], self.seats, self.same_device)
        self.version_sent = max(self.version_sent, view["version"])
        await self.send_json(view)
        driver.ensure(self.room_id, message["state"])

    async def send_snapshot(self):
        state = await database_sync_to_async(selectors.snapshot)(self.room_id)
        if state is not None:
            view = view_for(state, self.seats, self.same_device)
            self.version_sent = max(self.version_sent, view["version"])
            await self.send_json(view)

    async def resync(self):
        """A snapshot after an error; an outage now only costs the client this one."""
        try:
            await self.send_snapshot()
        except DatabaseError:
            log.warning("room %s: database unavailable for a snapshot", self.room_id)

    async def send_json(self, data: dict) -> None:
        await self.send(text_data=json.dumps(data, separators=(",", ":")))

    def _count_message(self) -> None:
        started, count = self.window
        now = time.monotonic()
        if now - started >= 1.0:
            started, count = now, 0
        self.window = (started, count + 1)
        if count + 1 > RATE_PER_SECOND:
            raise ActionError("rate_limited", _("Too many messages: slow down."))

    async def room_spectators(self, message):
        await self.send_json({"type": "spectators", "count": message["count"]})

    async def _heartbeat(self):
        behind = None  # the room's version at the last beat, when this socket lagged it
        while True:
            await asyncio.sleep(settings.HEARTBEAT_SECONDS)
            try:
                version = await database_sync_to_async(self._beat)()
            except DatabaseError:
                log.warning("room %s: heartbeat could not be recorded", self.room_id)
                continue
            try:
                # A restarted Redis forgets the room's group: join it again (a no-op
                # otherwise), and catch up on any change whose broadcast was lost: one
                # the room already had at the previous beat. A change committed just now
                # is usually still on its way, and a snapshot sent ahead of it would make
                # the client drop its event (and the draw's animation) as out of date.
                await self.channel_layer.group_add(group_name(self.room_id), self.channel_name)
                if behind is not None and behind > self.version_sent:
                    await self.send_snapshot()
                lagging = version is not None and version > self.version_sent
                behind = version if lagging else None
            except OUTAGES:
                log.warning("room %s: heartbeat could not resync", self.room_id)

    def _beat(self) -> int | None:
        services.heartbeat(channel_name=self.channel_name)
        return selectors.room_version(self.room_id)
