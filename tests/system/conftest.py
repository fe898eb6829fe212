"""Real Daphne processes sharing the test database and Redis, and clients that talk to
them over real sockets."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[2]

needs_services = pytest.mark.skipif(
    not (os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postgres")),
    reason="needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): .ci/run sets them",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url_for_tests() -> str:
    from django.db import connection

    d = connection.settings_dict
    password = f":{d['PASSWORD']}" if d.get("PASSWORD") else ""
    host, port = d["HOST"] or "127.0.0.1", d["PORT"] or 5432
    return f"postgres://{d['USER']}{password}@{host}:{port}/{d['NAME']}"


class Server:
    """One Daphne process serving config.asgi on a port of its own."""

    def __init__(self, tmp_path: Path, name: str, port: int | None = None):
        self.port = port or free_port()
        self.log_path = tmp_path / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Server":
        env = {
            **os.environ,
            "DATABASE_URL": database_url_for_tests(),
            "DEBUG": "1",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "COMPUTER_DELAY_SECONDS": "0",
            "SWEEP_SECONDS": "1",
        }
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log_path.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not listen on {self.port}")

    def kill(self) -> None:
        """kill -9: no clean shutdown, no disconnect handlers."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def servers(tmp_path):
    started: list[Server] = []

    def start(name: str, port: int | None = None) -> Server:
        server = Server(tmp_path, name, port).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


class Client:
    """A browser's socket to one server, keeping the latest state it was sent."""

    def __init__(self, session_key: str):
        self.session_key = session_key
        self.ws = None
        self.state = None
        self.draw_events: set[tuple[int, int, int]] = set()

    async def connect(self, port: int, code: str) -> "Client":
        self.ws = await connect(
            f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
            origin="http://127.0.0.1",
            additional_headers={"Cookie": f"sessionid={self.session_key}"},
            open_timeout=10,
        )
        await self.receive(10)
        return self

    async def receive(self, timeout: float) -> dict | None:
        try:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        except TimeoutError:
            return None
        if message["type"] == "state":
            if self.state is None or message["version"] >= self.state["version"]:
                self.state = message
            event = message["event"]
            if event and event.get("kind") == "draw":
                key = (message["match"]["number"], message["round"]["number"], event["number"])
                self.draw_events.add(key)
        return message

    async def send(self, **message) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def play(clients, *, stop_after_draws=None, timeout=60):
    """Draw position 0 whenever it is a client's turn (the first client deals each next
    round) until the match ends, or the round has ``stop_after_draws`` draws."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for client in clients:
            while await client.receive(0.02):
                pass
        lead = clients[0].state
        if lead["match"] and lead["match"]["over"]:
            return lead
        if stop_after_draws is not None and lead["round"]["draws"] >= stop_after_draws:
            return lead
        if lead["round"]["over"]:
            await clients[0].send(type="next_round", version=lead["version"])
        for client in clients:
            s = client.state
            if s["acting"] is not None and not s["round"]["over"]:
                await client.send(type="draw", version=s["version"], position=0)
    raise AssertionError(f"no progress; last state {clients[0].state}")
