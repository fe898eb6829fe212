"""Real Daphne processes sharing the test database and Redis, and clients that talk to
them over real sockets."""

import asyncio
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request

import pytest
import redis
from websockets.asyncio.client import connect

from tests.support import needs_services, ply  # noqa: F401 - re-exported
from tests.system.private import PrivateRedis
from tests.system.prod_site import prod  # noqa: F401 - the fixture


@pytest.fixture
def private_redis():
    """A Redis server of the test's own, closed at its end."""
    server = PrivateRedis().start()
    yield server
    server.close()


def subscriptions(url: str) -> int:
    """The publish/subscribe channels and patterns the Redis server at ``url`` holds."""
    client = redis.Redis.from_url(url)
    try:
        return len(client.pubsub_channels()) + client.pubsub_numpat()
    finally:
        client.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def http(port: int, session: str, path: str, form: dict | None = None) -> tuple[int, str, str]:
    """A browser's request: (status, Location, body). Forms carry a CSRF token."""
    csrf = secrets.token_hex(16)  # the cookie and the form's field agree, as a page's do
    data = None
    if form is not None:
        data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Cookie": f"sessionid={session}; csrftoken={csrf}"},
    )
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=60) as response:
            return response.status, response.headers.get("Location", ""), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", ""), error.read().decode()


class Client:
    """A browser's socket to one server, keeping the latest state it was sent."""

    def __init__(self, session_key: str):
        self.session_key = session_key
        self.ws = None
        self.state = None
        self.draw_events: set[tuple[int, int, int]] = set()
        #: The draws in the order this socket learnt them, from states newer than the one it
        #: held (as the page takes them: a state at an older or the same version is ignored).
        self.draws_in_order: list[tuple[int, int, int]] = []
        self.acted_on = -1  # act at most once per version, as a person would
        #: The error frames the server answered with, in order.
        self.errors: list[dict] = []

    async def connect(self, port: int, code: str) -> "Client":
        self.ws = await connect(
            f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
            origin=f"http://127.0.0.1:{port}",  # the page's own origin, port included
            additional_headers={"Cookie": f"sessionid={self.session_key}"},
            open_timeout=30,
        )
        await self.receive(30)
        assert self.state is not None, "no state within 30 s of connecting"
        return self

    async def receive(self, timeout: float) -> dict | None:
        try:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        except TimeoutError:
            return None
        if message["type"] == "error":
            self.errors.append(message)
        if message["type"] == "state":
            newer = self.state is None or message["version"] > self.state["version"]
            if self.state is None or message["version"] >= self.state["version"]:
                self.state = message
            event = message["event"]
            if event and event.get("kind") == "draw":
                key = (message["match"]["number"], message["round"]["number"], event["number"])
                self.draw_events.add(key)
                if newer:
                    self.draws_in_order.append(key)
        return message

    async def send(self, **message) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def caught_up(clients, version: int, timeout: float = 60) -> None:
    """Until every client holds the state at ``version``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for client in clients:
        while client.state["version"] < version:
            if loop.time() > deadline:
                raise AssertionError(f"a client stayed at {client.state['version']} < {version}")
            await client.receive(0.1)


async def play(clients, *, stop_after_draws=None, timeout=120):
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
        if lead["round"]["over"] and clients[0].acted_on != lead["version"]:
            clients[0].acted_on = lead["version"]
            await clients[0].send(type="next_round", **ply(lead, "next_round"))
        for client in clients:
            s = client.state
            if (
                s["acting"] is not None
                and not s["round"]["over"]
                and client.acted_on != s["version"]
            ):
                client.acted_on = s["version"]
                await client.send(type="draw", **ply(s, "draw"), position=0)
    raise AssertionError(f"no progress; last state {clients[0].state}")
