"""The development setup (`make run`: SQLite in a file, the in-memory channel layer, one
Daphne process) is as correct under concurrency as PostgreSQL: many friends rooms opened,
joined and started at once lose no socket, answer no action with `unavailable` ("database
is locked"), and a race between two tabs has one winner and one clear refusal.

Needs neither PostgreSQL nor Redis, so it runs everywhere."""

import asyncio
import json
import os
import re
import secrets
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support import ROOT, Server
from tests.system.conftest import http

ROOMS = 12

# Users and their sessions, made in the server's database by a process of its own (the
# test process's Django is bound to the test database).
MAKE_PLAYERS = """
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tools.sessions import signed_in_session

keys = []
for i in range(int(sys.argv[1])):
    user = get_user_model().objects.create_user(f"player{i}", password=None)
    session = SessionStore()
    session.update(signed_in_session(user))
    session.create()
    keys.append(session.session_key)
print(json.dumps(keys))
"""


@pytest.fixture
def sqlite_server(tmp_path):
    """One Daphne process on a fresh SQLite file, with the in-memory channel layer."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",  # the in-memory channel layer, as `make run`
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
    }

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    manage("manage.py", "migrate", "--noinput", "-v", "0")
    sessions = json.loads(manage("-c", MAKE_PLAYERS, str(2 * ROOMS)))
    server = Server(
        tmp_path,
        "sqlite",
        env={"DATABASE_URL": env["DATABASE_URL"], "REDIS_URL": "", "HEARTBEAT_SECONDS": "1"},
    ).start()
    try:
        yield server, sessions
    finally:
        server.stop()


def open_friends_room(port: int, host: str, guest: str) -> str:
    """The host creates a four-seat friends room and the guest follows the invitation."""
    status, location, body = http(
        port,
        host,
        "/new/",
        {
            "variant": "babanuki",
            "seat_count": "4",
            "mode": "friends",
            "computer_level": "easy",
            "rounds": "1",
            "strike_limit": "3",
        },
    )
    assert status == 302, (status, body[-2000:])
    code = re.fullmatch(r"/r/([^/]+)/", location)[1]
    status, _, page = http(port, host, location)
    assert status == 200, page[-2000:]
    invitation = re.search(r'id="invite-link"[^>]*value="[^"]*(/join/[^/"]+/)"', page)[1]
    status, location, body = http(port, guest, invitation, {})  # "Take a seat"
    assert (status, location) == (302, f"/r/{code}/"), (status, body[-2000:])
    return code


class Tab:
    """One browser tab's socket to a room."""

    def __init__(self, session: str):
        self.session = session
        self.states: list[dict] = []
        self.errors: list[dict] = []

    async def open(self, port: int, code: str) -> "Tab":
        self.ws = await connect(
            f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=60,
        )
        await self.until(lambda m: m["type"] == "state")
        return self

    async def until(self, condition, timeout: float = 60) -> dict:
        """Read messages until one meets ``condition``."""
        async with asyncio.timeout(timeout):
            while True:
                try:
                    message = json.loads(await self.ws.recv())
                except ConnectionClosed as closed:
                    raise AssertionError(f"the server closed the socket: {closed}") from None
                if message["type"] == "state":
                    self.states.append(message)
                elif message["type"] == "error":
                    self.errors.append(message)
                if condition(message):
                    return message

    async def answered(self, **action) -> None:
        """Send ``action`` then a ping: the table answers a socket's messages in order, so
        by the pong any refusal of the action has arrived."""
        ref = secrets.token_hex(4)
        await self.ws.send(json.dumps(action))
        await self.ws.send(json.dumps({"type": "ping", "ref": ref}))
        await self.until(lambda m: m["type"] == "pong" and m["ref"] == ref)

    @property
    def playing(self) -> bool:
        return bool(self.states) and self.states[-1]["room"]["status"] == "playing"


def test_many_friends_rooms_open_and_start_at_once_on_sqlite(sqlite_server):
    server, sessions = sqlite_server
    pairs = [(sessions[2 * i], sessions[2 * i + 1]) for i in range(ROOMS)]
    # Every room created and joined at once, over HTTP.
    with ThreadPoolExecutor(ROOMS) as pool:
        codes = list(pool.map(lambda pair: open_friends_room(server.port, *pair), pairs))

    async def scenario():
        # Each host has the room open in two tabs; each guest in one.
        tabs = [
            (Tab(host), Tab(host), Tab(guest))
            for (host, guest), _code in zip(pairs, codes, strict=True)
        ]
        await asyncio.gather(
            *(
                tab.open(server.port, code)
                for room_tabs, code in zip(tabs, codes, strict=True)
                for tab in room_tabs
            )
        )
        assert all(t.states[-1]["room"]["status"] == "waiting" for r in tabs for t in r)
        # Every host presses Start in both tabs at the same moment, in every room.
        await asyncio.gather(
            *(
                tab.answered(type="start", fill=True)
                for first, second, _ in tabs
                for tab in (first, second)
            )
        )
        # Every socket learns that its room started ...
        await asyncio.gather(
            *(
                tab.until(lambda m, tab=tab: tab.playing) if not tab.playing else asyncio.sleep(0)
                for room_tabs in tabs
                for tab in room_tabs
            )
        )
        # ... and is still open and answering.
        await asyncio.gather(*(tab.answered(type="sync") for r in tabs for tab in r))
        for room_tabs in tabs:
            for tab in room_tabs:
                await tab.ws.close()
        return tabs

    tabs = asyncio.run(scenario())
    log = server.log_path.read_text()
    assert "database is locked" not in log and "Traceback" not in log, log[-3000:]
    for code, (first, second, guest) in zip(codes, tabs, strict=True):
        # One tab's Start applied; the other was refused as too late, never "unavailable".
        refusals = [e["code"] for e in first.errors + second.errors]
        assert refusals == ["already_started"], (code, refusals)
        assert guest.errors == [], (code, guest.errors)
        for tab in (first, second, guest):
            assert tab.playing
            # Four seats: the host, the guest and two computers that filled the room.
            kinds = [s["kind"] for s in tab.states[-1]["seats"]]
            assert sorted(kinds) == ["computer", "computer", "human", "human"], kinds
            assert tab.ws.close_code == 1000, (code, tab.ws.close_code)
