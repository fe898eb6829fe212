"""The table's WebSocket: parse a frame, call one service, send each socket its own view.

A socket keeps the latest full state it was sent (server side: hands included). Which
seats it may see and act for is worked out from that state for every message
(``games.engine.view``), never remembered from the connect. Refusals answer from the
kept state: a socket sending garbage, or a well-formed action the kept state already
refuses (``games.refusals``), costs no database call; one that keeps sending garbage is
closed with 4429 and its frames are dropped unread from then on (``games.realtime.limits``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import parse_qs

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from games import selectors, services
from games.engine.shapes import RoomState
from games.engine.view import view_for
from games.errors import ActionError
from games.identity import actor_from_scope, language_from_scope
from games.realtime import broadcast, driver, heartbeat, limits, together
from games.realtime.broadcast import group_name
from games.realtime.frames import FRAMES, TOGETHER, parse_action, ply
from games.realtime.outages import OUTAGES
from games.realtime.workers import in_worker
from games.refusals import refusal

log = logging.getLogger(__name__)

#: Close codes (docs/protocol.md): sockets refused at the door, and a client asking too
#: much (too many refused frames, or too many sockets from one address).
NO_SUCH_ROOM, NOT_ALLOWED, TOO_MANY = 4404, 4403, limits.TOO_MANY
#: Refusals of frames no honest client sends; too many of them close the socket.
INVALID = frozenset({"malformed", "too_large", "unknown_action", "rate_limited"})


class NoSuchSocket(AsyncWebsocketConsumer):
    """A socket for a path the site does not serve: accepted and closed with 4404, as a
    socket for a room that does not exist is (a missing route would raise)."""

    async def connect(self):
        await self.accept()
        await self.close(code=NO_SUCH_ROOM)


class TableConsumer(limits.LimitedSocket):
    room_id: int | None = None
    #: The latest full state this socket was sent (server side: it holds every hand).
    state: RoomState | None = None
    #: Whether the socket knows the room moved on past ``state`` (the heartbeat saw it):
    #: the next snapshot then comes from the database.
    missed = False
    gone = False
    #: The heartbeat's catch-up (``beat``).
    catching_up: asyncio.Task | None = None
    #: Set when the ``room.checked`` message the catch-up sent this socket arrives.
    checked: asyncio.Future | None = None
    #: The move and the computer face this socket's latest point brought (``together``).
    face_sent: tuple | None = None
    #: Changes that came ahead of the one this socket expects next, by version, and the
    #: task that waits for the missing ones (``room_changed``).
    ahead: dict[int, RoomState] | None = None
    filling: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The channel layer failed under this socket (games/realtime/outages.py closes it):
            # record the disconnect as for any closed socket.
            await self.disconnect(None)
            raise

    async def ended(self) -> None:
        # Never leave a heartbeat behind to keep a gone socket's seat present; nor the
        # socket's own waits (its catch-up, its wait for a missing change).
        heartbeat.leave(self)
        for task in (self.catching_up, self.filling):
            if task is not None:
                task.cancel()

    async def connect(self):
        self.actor = actor_from_scope(self.scope)
        self.language = language_from_scope(self.scope)
        counted = limits.open_socket("table", self.scope)
        if counted == limits.COOLING:  # just closed for flooding: no socket at all
            await self.close()
            return
        if counted is False:
            # Too many sockets from this address in this process: refused before any
            # database work, with a code the page reads (docs/protocol.md).
            log.info("a table socket refused: too many from one address, or a flooder's")
            await self.accept()
            await self.close(code=TOO_MANY)
            return
        self.counted = counted
        code = self.scope["url_route"]["kwargs"]["code"]
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        token = query.get("t", [""])[0]
        access = await in_worker(selectors.socket_access)(code, self.actor, token)
        if not isinstance(access, selectors.Access):
            # Accept, then close with a code the page can read (a refused handshake only
            # reaches it as an HTTP 403): no such room, or not allowed to see it.
            await self.accept()
            await self.close(code=NO_SUCH_ROOM if access is None else NOT_ALLOWED)
            return
        self.room_id = access.room_id
        await self.channel_layer.group_add(group_name(self.room_id), self.channel_name)
        await self.accept()
        state = await in_worker(services.connect)(
            room_id=self.room_id, actor=self.actor, channel_name=self.channel_name
        )
        await self.send_state(state)
        heartbeat.join(self)
        driver.ensure(self.room_id, state)
        driver.start_sweeper()

    async def disconnect(self, code):
        if self.room_id is None or self.gone:
            return
        self.gone = True
        await self.ended()
        with contextlib.suppress(*OUTAGES):  # Redis is down: the membership expires
            await self.channel_layer.group_discard(group_name(self.room_id), self.channel_name)
        try:
            await in_worker(services.disconnect)(
                room_id=self.room_id, channel_name=self.channel_name
            )
        except (DatabaseError, ActionError):
            log.warning("room %s: could not record a disconnect", self.room_id)

    async def receive(self, text_data=None, bytes_data=None):
        if self.room_id is None or self.limits.closed:  # refused, or closed: dropped unread
            return
        with translation.override(self.language):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data, bytes_data):
        ref = None
        try:
            action = parse_action(text_data, bytes_data)
            ref = action.get("ref")
            if self.limits.over_rate():
                raise ActionError("rate_limited", _("Too many messages: slow down."))
            await self.perform(action)
        except ActionError as exc:
            ref = exc.ref or ref
            if exc.code in INVALID and self.limits.refuse():
                log.info("room %s: socket closed after repeated invalid frames", self.room_id)
                limits.flooded(self.scope)
                await self.close(code=TOO_MANY)
                return
            await self.send_error(exc.code, exc.message, ref)
            await self.resync()
        except DatabaseError:
            log.warning("room %s: database unavailable for a message", self.room_id)
            await self.send_error(
                "unavailable",
                _("The server could not reach its database; nothing changed. Try again."),
                ref,
            )
            await self.resync()  # the state the socket holds: no database needed
        except Exception:
            # A bug: the operator gets the traceback, the player a plain message.
            log.exception("room %s: unexpected error handling a message", self.room_id)
            await self.send_error("internal", _("Something went wrong on our side."), ref)
            self.missed = True
            await self.resync()

    async def send_error(self, code: str, message: str, ref: str | None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "ref": ref})

    async def perform(self, action: dict) -> None:
        kind = action["type"]
        frame = FRAMES[kind]
        answer = frame.answer
        if kind == "ping":
            await self.send_json({"type": "pong", "ref": action.get("ref")})
            return
        if kind == "sync":
            await self.resync()
            return
        if answer == TOGETHER:
            await self.together(action)
            return
        if self.state is not None and not self.missed and not self._catching_up():
            # What the kept state already refuses costs no database call (games.refusals);
            # not while the socket knows the room moved on past it.
            refused = refusal(self.state, self.actor, action)
            if refused is not None:
                raise refused
        # receive drops every frame before the room is known; the socket's own frames
        # (SOCKET: ping, sync) and TOGETHER's were answered above: a service call is left.
        assert self.room_id is not None and not isinstance(answer, str)
        room, actor, at = self.room_id, self.actor, ply(action)
        # A bot's socket acts only while its token is the bot's (config/bot_sockets.py):
        # checked again as the change commits, for a frame that races the token's revoke.
        bot = self.scope.get("bot")
        token = (bot, self.scope["bot_token"]) if bot is not None else None

        if frame.on_loop is not None:
            with services.bot_token(token):
                if await frame.on_loop(room, actor, at, action):
                    return

        def act():
            return services.with_token(token, lambda: answer(room, actor, at, action))

        await in_worker(act)()

    async def dispatch(self, message):
        # Channels closes stale database connections before every message, a thread hop
        # per socket per change; in_worker already does it around each call.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def room_changed(self, message):
        """A change of the room, in the order the room made them: one that comes ahead of
        the change this socket expects next waits for it (``hold``), so that no draw's
        event is skipped. Each process sends its own broadcasts in order
        (``broadcast.in_order``), but Redis sets none between two processes': in a room
        whose sockets are split over two (a restart, a changed upstream list), one
        process's later change can overtake the other's earlier one."""
        state = message["state"]
        if self.state is not None and state["version"] > self.version_sent + 1:
            self.hold(state)
            return
        await self.send_change(state)
        await self.send_held()

    async def send_change(self, state: RoomState) -> None:
        assert self.room_id is not None  # set before the socket joined the room's group
        if await self.send_state(state):
            driver.ensure(self.room_id, state)

    def hold(self, state: RoomState) -> None:
        """Keep ``state`` until the changes before it come (``fill_gap``)."""
        if self.ahead is None:
            self.ahead = {}
        self.ahead[state["version"]] = state
        if self.filling is None or self.filling.done():
            self.filling = asyncio.get_running_loop().create_task(self.fill_gap())

    async def send_held(self) -> None:
        """The held changes that now follow on from the socket's state, in order; those
        it is past already are let go."""
        while self.ahead and (state := self.ahead.pop(self.version_sent + 1, None)):
            await self.send_change(state)
        if self.ahead:
            for version in [v for v in self.ahead if v <= self.version_sent]:
                del self.ahead[version]

    async def fill_gap(self) -> None:
        """Wait for the changes missing before the held ones while they keep coming, a
        grace at a time; once a whole grace brings none, the missing change's broadcast
        was lost (Redis went away, say): the held changes go out in order all the same,
        the first of them standing for what was missed."""
        while self.ahead and not (self.gone or self.limits.closed):
            before = self.version_sent
            await asyncio.sleep(settings.BROADCAST_GRACE_SECONDS)
            await self.send_held()
            if self.ahead and self.version_sent == before:
                await self.send_change(self.ahead.pop(min(self.ahead)))
                await self.send_held()

    async def send_state(self, state: RoomState | None) -> bool:
        """Keep ``state`` as this socket's latest and send the view it may see; never a
        state older than the one the socket has (a snapshot read before a broadcast that
        overtook it, or a late broadcast). Whether it was sent."""
        if state is None:
            return False
        if self.state is not None and state["version"] < self.state["version"]:
            return False
        self.state, self.missed = state, False
        await self.send_json(view_for(state, self.actor))
        return True

    async def resync(self):
        """The socket's latest state again (after an error, or asked for); from the
        database only when the socket knows it missed a change."""
        if self.state is not None and not self.missed:
            await self.send_json(view_for(self.state, self.actor))
            return
        try:
            await self.send_state(await in_worker(selectors.snapshot)(self.room_id))
        except DatabaseError:
            log.warning("room %s: database unavailable for a snapshot", self.room_id)

    async def send_json(self, data: dict) -> None:
        if self.limits.closed:  # closed for its refusals: nothing more is sent
            return
        await self.send(text_data=orjson.dumps(data).decode())

    async def together(self, action: dict) -> None:
        """A point or a reaction (``games.realtime.together``): checked against the kept state only
        (no database call, nothing stored), then sent to the room's group, which reaches
        its sockets on every server process."""
        assert self.room_id is not None  # receive drops every frame before it is known
        current = self.state is not None and not self.missed and not self._catching_up()
        if action["type"] == "point":
            if not self.limits.point_allowed():  # this socket's: no I/O
                raise together.slow_down()
            messages = together.point(self.state if current else None, self.actor, action)
            # The seat's, whatever socket or process it points from: counted in Redis,
            # so off the event loop, and only for a point its checks allowed.
            seat = messages[0]["seat"]
            if not await in_worker(together.seat_may_point)(self.room_id, seat):
                raise together.slow_down()
            # A computer's face goes out when it changes, not again for every point.
            faces = [m for m in messages if m["type"] == "room.reaction"]
            face = (ply(action), faces[0]["reaction"]) if faces else None
            if faces and face == self.face_sent:
                messages = [m for m in messages if m["type"] != "room.reaction"]
            self.face_sent = face
        else:
            # Counted in Redis across processes: off the event loop.
            messages = await in_worker(together.react)(self.state, self.actor, action, self.room_id)
        for message in messages:
            await self.channel_layer.group_send(group_name(self.room_id), message)

    async def room_pointing(self, message):
        await self.send_json(
            {"type": "pointing", "seat": message["seat"], "position": message["position"]}
        )

    async def room_reaction(self, message):
        await self.send_json(
            {"type": "reaction", "seat": message["seat"], "reaction": message["reaction"]}
        )

    async def room_spectators(self, message):
        await self.send_json({"type": "spectators", "count": message["count"]})

    @property
    def version_sent(self) -> int:
        return self.state["version"] if self.state is not None else -1

    async def beat(self, version: int | None) -> None:
        """The process's heartbeat found the room at ``version`` (``games.realtime.heartbeat``).

        A restarted Redis forgets the room's group: join it again (a no-op otherwise), and
        catch up on a change whose broadcast was lost. When the room is ahead of what this
        socket was sent, a change committed just now is usually still on its way, and a
        snapshot sent ahead of it would make the client drop its event, and the draw's
        animation, as out of date. So the socket first waits for a check sent to itself
        behind every broadcast this process handed over (``broadcast.check``), however
        long the process's backlog; then, for another process's broadcasts, a grace at a
        time while they keep arriving; and if it is still behind, it reads a snapshot.
        All of it within ``HEARTBEAT_SECONDS``. The wait is a task of its own: the beat
        goes on to the next socket.
        """
        if self.gone or self.limits.closed:
            return
        assert self.room_id is not None  # set before the socket joined the heartbeat
        await self.channel_layer.group_add(group_name(self.room_id), self.channel_name)
        if version is None or version <= self.version_sent:
            return
        if self.catching_up is None or self.catching_up.done():
            self.catching_up = asyncio.get_running_loop().create_task(self._catch_up(version))

    def _catching_up(self) -> bool:
        return self.catching_up is not None and not self.catching_up.done()

    async def _catch_up(self, version: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(settings.HEARTBEAT_SECONDS, settings.BROADCAST_GRACE_SECONDS)
        # First the changes this process made: a message sent behind their broadcasts
        # comes after them, however long the process's backlog (``broadcast.check``).
        self.checked = loop.create_future()
        sent = broadcast.check(self.channel_layer, self.channel_name)
        with contextlib.suppress(TimeoutError):
            if await asyncio.wait_for(asyncio.shield(sent), deadline - loop.time()):
                await asyncio.wait_for(self.checked, deadline - loop.time())
        # Then another process's (a socket of the room elsewhere): they are late while
        # they keep arriving, lost once a whole grace brings nothing.
        while not (self.gone or self.limits.closed or self.version_sent >= version):
            before = self.version_sent
            await asyncio.sleep(settings.BROADCAST_GRACE_SECONDS)
            if self.version_sent == before or loop.time() >= deadline:
                break
        if self.gone or self.limits.closed or self.version_sent >= version:
            return
        self.missed = True
        try:
            with translation.override(self.language):
                await self.resync()
        except OUTAGES as exc:
            log.warning("room %s: could not catch a socket up: %s", self.room_id, exc)

    async def room_checked(self, message):
        if self.checked is not None and not self.checked.done():
            self.checked.set_result(None)
