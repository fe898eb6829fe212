"""Helpers for table tests: real sessions, real WebSocket frames through the ASGI stack."""

import asyncio
import collections
import itertools
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application
from games.identity import GUEST_KEY
from games.models import Bot
from games.realtime import driver
from games.services import Actor, bots
from tests.rooms import computer_room, friends_room
from tests.support import ply
from tools.sessions import signed_in_session

#: Frames a table socket may send in a second (settings.WS_TABLE_FRAMES_PER_SECOND): a
#: player's own actions and barriers keep below it, as a person's clicks would.
FRAMES_PER_SECOND = 20
_barriers = itertools.count()

ORIGIN = (b"origin", b"http://127.0.0.1")
#: A browser names the host it connects to; the Origin must match it (config/origin.py).
HOST = (b"host", b"127.0.0.1")


@pytest.fixture(autouse=True)
def fast_table(settings):
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.SEAT_GRACE_SECONDS = 20
    settings.HEARTBEAT_SECONDS = 30
    settings.SWEEP_SECONDS = 3600


@pytest.fixture(autouse=True)
async def stop_drivers(transactional_db):
    # Depends on the database fixture so that it stops the drivers before the tables
    # are flushed (a computer turn still running would deadlock the flush).
    yield
    await driver.stop_all()


def make_session(*, user=None, guest=None) -> str:
    session = SessionStore()
    if user is not None:
        session.update(signed_in_session(user))
    if guest is not None:
        session[GUEST_KEY] = guest
    session.create()
    return session.session_key


def make_user(name: str):
    return get_user_model().objects.create_user(username=name, password="a-long-password-1")


class Player:
    """One browser: a session and, once connected, a socket to a room."""

    def __init__(self, session_key: str, actor: Actor):
        self.session_key = session_key
        self.actor = actor
        self.socket = None
        self.close_code = None
        self.state = None
        self.messages: list[dict] = []
        #: The version this player last acted on: act at most once per version, as a
        #: person would, instead of re-sending while the answer is on its way.
        self.acted_on = -1
        #: When the player's last paced frames left (``paced``): at most
        #: FRAMES_PER_SECOND in any second.
        self.sent_at: collections.deque[float] = collections.deque(maxlen=FRAMES_PER_SECOND)

    @classmethod
    async def guest(cls, guest_id: str) -> "Player":
        key = await database_sync_to_async(make_session)(guest=guest_id)
        return cls(key, Actor(guest=guest_id))

    #: A bot's API token (docs/bots.md): its socket sends it instead of a cookie, and no
    #: Origin, as a bot does.
    bot_token = ""

    @classmethod
    async def bot(cls, name: str) -> "Player":
        """A bot account (owned by a new user), online: its stream counted as open."""
        from games.realtime import streams
        from games.services import bots

        def make():
            owner = make_user(f"{name}-owner")
            bot, token = bots.create_bot(owner_id=owner.pk, name=name)
            streams.claim(bot.pk)
            return bot.pk, token

        bot_id, token = await database_sync_to_async(make)()
        player = cls("", Actor(user_id=bot_id))
        player.bot_token = token
        return player

    @classmethod
    async def user(cls, name: str) -> "Player":
        user = await database_sync_to_async(make_user)(name)
        key = await database_sync_to_async(make_session)(user=user)
        return cls(key, Actor(user_id=user.pk))

    async def connect(self, code: str, token: str = "", origin=ORIGIN) -> bool:
        path = f"/ws/rooms/{code}/" + (f"?t={token}" if token else "")
        if self.bot_token:
            headers = [HOST, (b"authorization", f"Bearer {self.bot_token}".encode())]
        else:
            headers = [HOST, (b"cookie", f"sessionid={self.session_key}".encode())]
            if origin:
                headers.append(origin)
        self.socket = WebsocketCommunicator(application, path, headers=headers)
        self.refused, self.close_code = False, None
        connected, _ = await self.socket.connect(timeout=30)
        if not connected:  # the handshake refused: a real client sees an HTTP 403, no code
            self.refused = True
            return False
        first = await self.socket.receive_output(timeout=30)
        if first["type"] == "websocket.close":  # accepted, then closed (docs/protocol.md)
            self.close_code = first.get("code")
            return False
        await self._take(json.loads(first["text"]))  # the snapshot
        return True

    # Bounds for failures only, generous for a busy machine.
    async def receive(self, timeout: float = 30) -> dict:
        return await self._take(json.loads(await self.socket.receive_from(timeout=timeout)))

    async def _take(self, message: dict) -> dict:
        self.messages.append(message)
        if message["type"] == "error" and message["code"] == "rate_limited":
            # The action was refused unread (a test's own frames filled the second): the
            # next act() retries, once the second is over (``paced``).
            self.acted_on = -1
            self.sent_at.extend([time.monotonic()] * FRAMES_PER_SECOND)
        if message["type"] == "state" and (
            self.state is None or message["version"] >= self.state["version"]
        ):
            self.state = message
        return message

    async def send(self, **message) -> None:
        await self.socket.send_to(text_data=json.dumps(message))

    async def paced(self, **message) -> None:
        """Send a frame, keeping to FRAMES_PER_SECOND (one device playing every seat is
        faster than any person): if the last second already had them all, wait until
        the earliest of them is a second old."""
        if len(self.sent_at) == FRAMES_PER_SECOND:
            await asyncio.sleep(max(0.0, self.sent_at[0] + 1.0 - time.monotonic()))
        self.sent_at.append(time.monotonic())
        await self.send(**message)

    async def act(self, **message) -> bool:
        """Send an action against the current state, once per version."""
        if self.state["version"] == self.acted_on:
            return False
        self.acted_on = self.state["version"]
        await self.paced(**ply(self.state, message["type"]), **message)
        return True

    async def until(self, predicate, timeout: float = 30) -> dict:
        """Read messages until the latest state satisfies ``predicate``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (self.state and predicate(self.state)):
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                await self.receive(timeout=remaining)
            except TimeoutError:
                raise AssertionError(self.report("timed out")) from None
        return self.state

    def report(self, what: str) -> str:
        """``what`` happened, with what this socket was sent last (errors whole)."""
        last = [
            m if m["type"] != "state" else f"state v{m['version']} {m['room']['status']}"
            for m in self.messages[-8:]
        ]
        return f"{what}; the last messages: {last}; last state: {self.state}"

    async def drain(self, timeout: float = 30) -> None:
        """Read everything the server sent this socket before it answered a ping sent
        now (a barrier: its answer comes after whatever was already on its way)."""
        ref = f"~drain-{next(_barriers)}"
        await self.paced(type="ping", ref=ref)
        while True:
            message = await self.receive(timeout=timeout)
            if message.get("ref") == ref:  # the pong, or a rate_limited naming it
                return

    def draws_seen(self) -> set[tuple[int, int]]:
        """The draws this player was sent, by round and draw number."""
        return {
            (m["round"]["number"], m["event"]["number"])
            for m in self.messages
            if m["type"] == "state" and m["event"] and m["event"]["kind"] == "draw"
        }

    def read_queued(self) -> list[dict]:
        """Take in the messages already here, without waiting."""
        taken = []
        while not self.socket.output_queue.empty():
            output = self.socket.output_queue.get_nowait()
            if output["type"] == "websocket.close":
                raise AssertionError(f"the socket was closed: {output}")
            taken.append(json.loads(output["text"]))
        return taken

    async def close(self) -> None:
        await self.socket.disconnect()


def my_turn(state) -> bool:
    return state["acting"] is not None


def match_ended(state) -> bool:
    return bool(state["match"] and state["match"]["over"])


async def play_to_match_end(*players: Player, rng=None, timeout: float = 120) -> dict:
    """Every player draws a random position on their turn; the first player deals each
    next round. Returns the first player's final state.

    Between moves it waits for the next message any player is sent (every move is
    broadcast to the whole room), not for a quiet moment."""
    import random

    rng = rng or random.Random(1)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    waiting: dict[asyncio.Task, Player] = {}
    try:
        while loop.time() < deadline:
            if all(match_ended(p.state) for p in players):
                return players[0].state
            for player in players:
                state = player.state
                rnd = state["round"]
                if rnd and rnd["over"] and not match_ended(state) and player is players[0]:
                    await player.act(type="next_round")
                elif my_turn(state) and not match_ended(state):
                    count = state["seats"][rnd["giver"]]["count"]
                    await player.act(type="draw", position=rng.randrange(count))
            for player in players:
                if player not in waiting.values():
                    waiting[asyncio.ensure_future(player.socket.receive_output(timeout))] = player
            done, _ = await asyncio.wait(
                waiting, timeout=deadline - loop.time(), return_when=asyncio.FIRST_COMPLETED
            )
            for task in done:
                player = waiting.pop(task)
                output = task.result()
                if output["type"] == "websocket.close":
                    raise AssertionError(f"a socket was closed: {output}")
                await player._take(json.loads(output["text"]))
            for player in players:  # and whatever else came meanwhile
                if player not in waiting.values():
                    for message in player.read_queued():
                        await player._take(message)
    finally:
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        for task, player in waiting.items():  # a message taken just before the cancel
            taken = not task.cancelled() and task.exception() is None
            if taken and task.result()["type"] == "websocket.send":
                await player._take(json.loads(task.result()["text"]))
    raise AssertionError(f"the match did not end; last state: {players[0].state}")


def event_is(kind: str):
    return lambda state: (state.get("event") or {}).get("kind") == kind


async def error_for(player: Player, ref: str) -> dict:
    while True:
        message = await player.receive()
        if message["type"] == "error" and message["ref"] == ref:
            return message


async def round_one_over(player: Player, rounds: int = 3) -> dict:
    """A computer room of two seats, its first round played to its end (the match goes
    on): ``player`` draws the leftmost card on each of its turns."""
    room = await database_sync_to_async(computer_room)(player, name="Me", rounds=rounds)
    assert await player.connect(room.code)
    while True:
        state = await player.until(lambda s: s["round"]["over"] or my_turn(s))
        if state["round"]["over"]:
            return room
        await player.act(type="draw", position=0)
        await player.until(lambda s: s["version"] > player.acted_on)  # the draw's answer


def seated_bot_room(host: Player, name: str):
    """A waiting friends room of two, the bot ``name`` seated in it (challenged, accepted)."""
    room = friends_room(host, seats=2)
    made = bots.challenge(room_id=room.pk, actor=host.actor, bot_name=name)
    bots.accept(bot=Bot.objects.get(user__username=name), challenge_id=made.pk)
    return room


async def bot_at_table():
    host, bot = await Player.user("hana"), await Player.bot("Botty")
    room = await database_sync_to_async(seated_bot_room)(host, "Botty")
    assert await host.connect(room.code) and await bot.connect(room.code)
    await host.send(type="start", fill=False)
    for player in (host, bot):
        await player.until(lambda s: s["room"]["status"] == "playing")
    return room, host, bot
