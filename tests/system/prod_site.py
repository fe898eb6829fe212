"""`scripts/prod.sh` run as an operator would, on ports and a PROD_DIR of its own and the
test database: the ``prod`` fixture (registered in conftest.py) and ways to talk to it."""

import asyncio
import getpass
import json
import os
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from config.daphne_shutdown import RESTARTING
from tests.support import ROOT, database_url_for_tests, free_ports, move_for

can_have_nginx = pytest.mark.skipif(
    not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx") or os.geteuid() == 0),
    reason="needs nginx, or root to install it (CI runs as root)",
)

SCRIPT = str(ROOT / "scripts" / "prod.sh")
UNVERIFIED = ssl._create_unverified_context()  # the self-signed certificate of the run


def fetch(url: str, data: bytes | None = None, headers=None) -> tuple[int, dict, bytes]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(
        NoRedirect, urllib.request.HTTPSHandler(context=UNVERIFIED)
    )
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=60) as response:
            return response.status, _headers(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, _headers(error.headers), error.read()


def _headers(message) -> dict:
    """The response's headers; every Set-Cookie kept, one per line."""
    headers = dict(message)
    if "Set-Cookie" in headers:
        headers["Set-Cookie"] = "\n".join(message.get_all("Set-Cookie"))
    return headers


@dataclass
class Site:
    dir: Path
    https: int
    http: int
    first_port: int
    env: dict

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def script(self, command: str, *args: str, timeout: float = 120, env=None):
        return subprocess.run(
            ["bash", SCRIPT, command, *args],
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def pid(self, slot: int) -> int:
        """The Daphne process of a slot (1, 2, ...), as the supervisor records it."""
        return int((self.dir / "run" / f"daphne-{slot}.pid").read_text())

    # The old fixture's tuple: (dir, https, http, script).
    def __iter__(self):
        yield self.dir
        yield self.https
        yield self.http
        yield lambda command, timeout: self.script(command, timeout=timeout)


@pytest.fixture
def prod(request, tmp_path):
    """The production server, two Daphne processes, started (`start`) and stopped at the
    end; a ``prod_env`` marker adds variables (``@pytest.mark.prod_env(NAME="value")``), or
    takes one away (``NAME=None``: ``REDIS_URL=None`` has the site run its own Redis)."""
    https, http, first, _second, redis = free_ports(5)
    marker = request.node.get_closest_marker("prod_env")
    site = Site(
        tmp_path / "prod",
        https,
        http,
        first,
        {
            **os.environ,
            "PROD_DIR": str(tmp_path / "prod"),
            "HTTPS_PORT": str(https),
            "HTTP_PORT": str(http),
            "LISTEN_ADDRESS": "127.0.0.1",
            "DAPHNE_FIRST_PORT": str(first),  # and first + 1
            "WEB_PROCESSES": "2",
            "DATABASE_URL": database_url_for_tests(),
            # Root's nginx workers drop to www-data by default, which cannot enter
            # pytest's private tmp_path; run them as ourselves.
            "NGINX_USER": getpass.getuser(),
            # And the Daphne processes: root's drop to the user oldmaid by default, from a
            # copy of the code and a venv of their own, which a PROD_DIR of each test would
            # install anew each time (test_prod_lifecycle.py tests the drop itself).
            "DAPHNE_USER": getpass.getuser(),
            # Where the site's own Redis listens, when it runs one (no REDIS_URL given).
            "REDIS_PORT": str(redis),
            **(marker.kwargs if marker else {}),
        },
    )
    site.env = {name: value for name, value in site.env.items() if value is not None}
    # Long enough for apt-get to install nginx on a fresh CI machine.
    started = site.script("start", timeout=300)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield site
    finally:
        stopped = site.script("stop", timeout=60)
        assert stopped.returncode == 0, stopped.stderr


#: How long a page's player thinks before drawing.
THINKING_SECONDS = 0.2


class Page:
    """A table page through nginx that plays its seat and reconnects as table/socket.js does: at
    once after 4012, otherwise after 0.5 s, doubling."""

    def __init__(self, prod, code: str, session_key: str):
        self.url = f"wss://127.0.0.1:{prod.https}/ws/rooms/{code}/"
        self.origin = prod.base
        self.cookie = f"sessionid={session_key}"
        self.close_codes: list[int | None] = []
        self.refused: list[str] = []  # connection attempts that failed
        self.gaps: list[float] = []  # from a close to the next state, in seconds
        self.draws: dict[tuple, tuple] = {}  # (match, round, number) -> (drawer, position)
        self.state: dict | None = None

    async def run(self, done: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        closed_at, delay = None, 0.5
        while not done.is_set():
            try:
                ws = await connect(
                    self.url,
                    ssl=UNVERIFIED,
                    origin=self.origin,
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=30,
                    close_timeout=1,
                )
            except (OSError, InvalidHandshake, TimeoutError) as error:
                self.refused.append(repr(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)
                continue
            delay = 0.5
            try:
                await self._play(ws, done, closed_at)
                await ws.close()
                return
            except ConnectionClosed:
                closed_at = loop.time()
                self.close_codes.append(ws.close_code)
                if ws.close_code != RESTARTING:
                    await asyncio.sleep(delay)

    async def _play(self, ws, done: asyncio.Event, closed_at: float | None) -> None:
        loop = asyncio.get_running_loop()
        acted_on = -1
        while not done.is_set():
            try:
                frame = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            state = json.loads(frame)
            if state["type"] != "state":
                continue
            if closed_at is not None:
                self.gaps.append(loop.time() - closed_at)
                closed_at = None
            self.state = state
            event = state["event"]
            if event and event.get("kind") == "draw":
                key = (state["match"]["number"], state["round"]["number"], event["number"])
                self.draws[key] = (event["drawer"], event["position"])
            move = move_for(state)
            if move is not None and state["version"] != acted_on:
                acted_on = state["version"]
                if move["type"] == "draw":
                    await asyncio.sleep(THINKING_SECONDS)
                await ws.send(json.dumps(move))


async def until(predicate, timeout: float = 120) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout  # a bound for a failure
    while not predicate():
        assert loop.time() < deadline, "the condition never came"
        await asyncio.sleep(0.05)
