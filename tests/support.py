"""Real server processes for system and browser tests: they share the test database
(PostgreSQL) and Redis with the test process (the worker's own, under pytest-xdist:
tests/workers.py)."""

import contextlib
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests import workers

ROOT = Path(__file__).resolve().parents[1]

needs_services = pytest.mark.skipif(
    not (os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postgres")),
    reason="needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): .ci/run sets them",
)


def free_ports(count: int) -> list[int]:
    """``count`` consecutive free ports, below the range the kernel hands out to outgoing
    connections (32768 and up), so that no client socket takes one before the server we
    start binds it; from this test worker's slice of the range, so that two workers never
    pick the same."""
    rng = random.Random()
    ports = workers.port_range()
    while True:
        first = rng.randrange(ports.start, ports.stop - count)
        try:
            with contextlib.ExitStack() as stack:
                for port in range(first, first + count):
                    stack.enter_context(socket.socket()).bind(("127.0.0.1", port))
            return list(range(first, first + count))
        except OSError:
            continue


def free_port() -> int:
    return free_ports(1)[0]


def run_python(*args: str, **env: str) -> subprocess.CompletedProcess:
    """``python *args`` at the checkout's root, with the site's settings (``env`` added,
    ``BENCH_ECHO`` taken away): what it printed, and how it exited."""
    environ = {k: v for k, v in os.environ.items() if k != "BENCH_ECHO"}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def database_url_for_tests() -> str:
    from django.db import connection

    d = connection.settings_dict
    password = f":{d['PASSWORD']}" if d.get("PASSWORD") else ""
    host, port = d["HOST"] or "127.0.0.1", d["PORT"] or 5432
    return f"postgres://{d['USER']}{password}@{host}:{port}/{d['NAME']}"


class Server:
    """One Daphne process serving config.asgi on a port of its own (``static``: through
    runserver, which also serves static files). Its settings are tests/live_settings.py:
    the site's, on the test worker's channel-layer prefix."""

    def __init__(
        self,
        tmp_path: Path,
        name: str,
        port: int | None = None,
        static=False,
        env=None,
        args=(),
        application="config.asgi:application",
    ):
        self.port = port or free_port()
        self.static = static
        self.env = env or {}
        self.args = list(args)  # more Daphne options, e.g. --proxy-headers
        self.application = application
        self.log_path = tmp_path / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Server":
        env = {
            **os.environ,
            # The test database, unless the test gives a database of its own.
            "DATABASE_URL": self.env.get("DATABASE_URL") or database_url_for_tests(),
            "DEBUG": "1",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "COMPUTER_DELAY_SECONDS": "0",
            "SWEEP_SECONDS": "1",
            "DJANGO_SETTINGS_MODULE": "tests.live_settings",
            **self.env,
        }
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        if self.static:  # Daphne's runserver also serves static files in DEBUG
            command = [str(ROOT / "manage.py"), "runserver", "--noreload", f"127.0.0.1:{self.port}"]
        else:
            command = ["-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), *self.args]
            command.append(self.application)
        self.proc = subprocess.Popen(
            [sys.executable, *command],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120  # a bound for failures: a busy machine is slow
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log_path.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.kill()  # not left running: no fixture knows of it yet
        raise RuntimeError(f"daphne did not listen on {self.port}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def quiet(self) -> bool:
        """Until nothing the server was doing is still running (tests/live_asgi.py); False
        if that did not come within the endpoint's bound."""
        try:
            with urllib.request.urlopen(self.url + "/__tests__/quiet/", timeout=120) as answer:
                return answer.status == 200
        except OSError:
            return False

    def kill(self) -> None:
        """kill -9: no clean shutdown, no disconnect handlers."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """At a test's end: a second for a clean exit, then kill -9 (a server whose worker
        thread is still busy would otherwise hold every test up for seconds)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def servers(transactional_db, tmp_path):
    """Start servers on the test database; they stop before its tables are flushed."""
    started: list[Server] = []

    def start(
        name: str,
        port: int | None = None,
        static: bool = False,
        env=None,
        args=(),
        application="config.asgi:application",
    ) -> Server:
        server = Server(tmp_path, name, port, static, env, args, application).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def live_servers(django_db_setup, tmp_path_factory):
    """Servers that stay up for all the tests of a worker, one per environment, on its
    test database: ``live_servers(env)`` starts one the first time it is asked for. A
    test using one must end with ``after_test`` (``tests.browser.conftest.site`` does)."""
    running: dict[tuple, Server] = {}
    logs = tmp_path_factory.mktemp("live")

    def get(env: dict | None = None) -> Server:
        key = tuple(sorted((env or {}).items()))
        server = running.get(key)
        if server is None or not server.running():
            name = f"site-{len(running)}"
            server = Server(logs, name, static=True, env=env).start()
            running[key] = server
        return server

    yield get
    for server in running.values():
        server.stop()


def after_test(server: Server) -> None:
    """Before the test's tables are flushed: the server at rest (nothing of it holds a
    lock the flush would wait for), or else stopped, to start afresh for the next test."""
    if not server.quiet():
        server.stop()


def ply(state: dict, kind: str) -> dict:
    """The fields naming the move an action answers, as the table page sends them
    (docs/protocol.md): a draw names the match, round and draw number it was made on."""
    match = state["match"]["number"] if state.get("match") else None
    rnd = state["round"]["number"] if state.get("round") else None
    if kind in ("draw", "point"):
        return {"match": match, "round": rnd, "draw": state["round"]["draws"]}
    if kind == "next_round":
        return {"match": match, "round": rnd}
    if kind in ("rematch", "leave", "resign"):
        return {"match": match}
    return {}


def move_for(state: dict) -> dict | None:
    """What a player's page sends for ``state``: the next round once a round is over (the
    first seat deals it), a draw at position 0 on its turn, else nothing."""
    if state["match"]["over"]:
        return None
    if state["round"]["over"]:
        return {"type": "next_round", **ply(state, "next_round")} if 0 in state["you"] else None
    if state["acting"] is not None:
        return {"type": "draw", **ply(state, "draw"), "position": 0}
    return None
