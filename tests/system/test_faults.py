"""Faults in the middle of a round, with real processes: a Daphne process killed with
SIGKILL, Redis restarted, PostgreSQL restarted. Clients behave like the table page
(static/js/table/socket.js): on a dropped socket they reconnect with a growing back-off, and they
redraw from whatever ``state`` they are sent. Every wait is for a condition, bounded
generously for a busy machine (the bounds only decide how long a failure takes)."""

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request

import psycopg
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.support import Server, ply
from tests.system.conftest import needs_services
from tests.system.private import (
    PrivatePostgres,
    django_env,
    room_record,
    run_django,
    setup_room,
)
from tests.system.sockets import close_code, door, open_socket, table

pytestmark = needs_services

#: Quick timings for the servers under test: a socket re-checks its room every second.
FAST = {"HEARTBEAT_SECONDS": "1", "COMPUTER_DELAY_SECONDS": "0", "SWEEP_SECONDS": "1"}
#: How long a socket may take to open and send its first state on a busy machine.
OPEN_SECONDS = 30


class Browser:
    """One table page: a socket to whichever server ``route()`` names, reconnecting like
    table/socket.js (after 0.5 s, doubling up to 10 s, reset once a socket opens)."""

    def __init__(self, name: str, session_key: str, code: str, route):
        self.name, self.session_key, self.code, self.route = name, session_key, code, route
        self.ws = None
        self.state: dict | None = None
        self.delay = 0.5
        self.retry_at = 0.0
        self.connects = 0
        self.drops = 0
        self.errors: list[dict] = []
        #: (match, round, draw number) -> (drawer, giver, position) for every draw seen.
        self.draws: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.acted_on = -1  # act at most once per version, as a person would
        self.hold_until = 0.0  # after an error, a person waits a moment before retrying

    @property
    def up(self) -> bool:
        return self.ws is not None

    async def open(self) -> bool:
        """One connection attempt; on failure the next waits for the back-off."""
        loop = asyncio.get_running_loop()
        port = self.route()
        try:
            self.ws = await connect(
                f"ws://127.0.0.1:{port}/ws/rooms/{self.code}/",
                origin=f"http://127.0.0.1:{port}",  # the page's own origin, port included
                additional_headers={"Cookie": f"sessionid={self.session_key}"},
                open_timeout=OPEN_SECONDS,
                close_timeout=1,
            )
        except (OSError, InvalidHandshake, TimeoutError):
            self._dropped(loop.time(), was_open=False)
            return False
        self.connects += 1
        self.delay = 0.5
        self.acted_on = -1
        message = await self.receive(OPEN_SECONDS)
        if message is None or message["type"] != "state":
            await self.close()
            self._dropped(loop.time(), was_open=False)
            return False
        return True

    def _dropped(self, now: float, was_open: bool = True) -> None:
        self.ws = None
        self.drops += was_open
        self.retry_at = now + self.delay
        self.delay = min(self.delay * 2, 10)

    async def close(self) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            with contextlib.suppress(Exception):  # the socket is going anyway
                await ws.close()

    async def receive(self, timeout: float) -> dict | None:
        if self.ws is None:
            return None
        try:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        except TimeoutError:
            return None
        except ConnectionClosed:
            self._dropped(asyncio.get_running_loop().time())
            return None
        if message["type"] == "error":
            self.errors.append(message)
            self.acted_on = -1
            self.hold_until = asyncio.get_running_loop().time() + 0.3
        elif message["type"] == "state":
            if self.state is None or message["version"] >= self.state["version"]:
                self.state = message
            event = message["event"]
            if event and event.get("kind") == "draw":
                key = (message["match"]["number"], message["round"]["number"], event["number"])
                self.draws[key] = (event["drawer"], event["giver"], event["position"])
        return message

    async def send(self, **message) -> None:
        if self.ws is None:
            return
        try:
            await self.ws.send(json.dumps(message))
        except ConnectionClosed:
            self._dropped(asyncio.get_running_loop().time())

    def may_draw(self, now: float) -> bool:
        s = self.state
        return bool(
            self.up
            and s
            and s["acting"] is not None
            and not s["round"]["over"]
            and not s["match"]["over"]
            and self.acted_on != s["version"]
            and now >= self.hold_until
        )

    async def draw(self) -> None:
        self.acted_on = self.state["version"]
        await self.send(type="draw", **ply(self.state, "draw"), position=0)


def browsers_at(room: dict, homes: list[Server]) -> list[Browser]:
    """One browser per seated player, the i-th first opening its socket on ``homes[i]``."""
    return [
        Browser(f"p{i}", key, room["code"], lambda home=home: home.port)
        for i, (key, home) in enumerate(zip(room["sessions"], homes, strict=True))
    ]


def match_over_everywhere(browsers) -> bool:
    return all(b.up and b.state["match"]["over"] for b in browsers)


async def browsers_play_until(browsers, until, timeout: float) -> None:
    """Every browser draws position 0 on its turn, reconnecting when dropped, until
    ``until(browsers)`` holds (checked before anyone acts)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for b in browsers:
            if b.up:
                while await b.receive(0.01):
                    pass
            elif loop.time() >= b.retry_at:
                await b.open()
        if until(browsers):
            return
        for b in browsers:
            if b.may_draw(loop.time()):
                await b.draw()
        await asyncio.sleep(0.01)
    states = {b.name: (b.up, b.state and b.state["version"]) for b in browsers}
    raise AssertionError(f"no progress within {timeout} s: {states}")


async def settled(browsers, read, timeout: float = 60) -> dict:
    """The room's record (``await read()``) once every browser shows its version.

    A change whose broadcast was lost (Redis down) reaches a socket through its catch-up:
    every HEARTBEAT_SECONDS it compares the room's version with what it sent and sends a
    fresh ``state`` (docs/protocol.md, "Reconnecting"). The room may also move on
    meanwhile (a seat coming back), so read again until the browsers and the database
    agree."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    record = await read()
    while True:
        version = record["version"]
        try:
            await browsers_play_until(
                browsers,
                lambda bs, v=version: all(b.up and b.state["version"] >= v for b in bs),
                max(deadline - loop.time(), 0.1),
            )
        except AssertionError:
            views = {b.name: b.state and b.state["version"] for b in browsers}
            raise AssertionError(
                f"the views {views} did not catch up with the database's version {version}"
            ) from None
        again = await read()
        if again["version"] == version and all(b.state["version"] == version for b in browsers):
            return again
        record = again


def check_consistent(browsers, record: dict, after: dict) -> None:
    """The database is consistent (room_record checks it) and agreed with every view while
    they were connected (``record``, from ``settled``). ``after`` is read once the
    browsers have closed: their leaving marks their seats away, which moves the version
    on, but no draw changes."""
    assert after["rounds"] == record["rounds"]
    rows = {(1, r["round"], d[0]): (d[1], d[2], d[3]) for r in record["rounds"] for d in r["draws"]}
    assert record["status"] == "finished"
    for b in browsers:
        # Every draw a browser was shown is in the database, exactly as shown.
        assert b.draws.items() <= rows.items(), b.name
        # Every view converged on the final state.
        assert b.state["version"] == record["version"]
        assert b.state["match"]["over"]
    first = browsers[0].state
    for b in browsers[1:]:
        assert b.state["seats"] == first["seats"]
        assert b.state["match"] == first["match"]


def record_in_thread(room_id: int) -> dict:
    from django.db import connections

    try:
        return room_record(room_id)
    finally:
        connections.close_all()


def read_record(room_id: int):
    async def read() -> dict:
        return await asyncio.to_thread(record_in_thread, room_id)

    return read


def tracebacks(*servers: Server) -> list[str]:
    """Each traceback in the servers' logs, named by its log and with the lines that say
    what raised where (the log itself is gone once the test ends)."""
    found = []
    for s in servers:
        lines = s.log_path.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("Traceback") or "Exception inside application" in line:
                found.append("\n".join([s.log_path.name, *lines[max(0, i - 2) : i + 40]]))
    return found


def assert_no_tracebacks(*servers: Server) -> None:
    found = tracebacks(*servers)
    assert not found, "\n\n".join(found)


async def wait_for_log(servers: list[Server], text: str, timeout: float) -> None:
    """Until every server's log holds ``text``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not all(text in s.log_path.read_text(errors="replace") for s in servers):
        if loop.time() > deadline:
            raise AssertionError(f"not every server logged {text!r} within {timeout} s")
        await asyncio.sleep(0.1)


async def stop_when(browsers, predicate, timeout: float) -> "Browser":
    """Play until ``predicate`` holds for the round and some browser must draw; return it."""

    def ready(bs):
        s = bs[0].state
        if not (all(b.up for b in bs) and predicate(s)):
            return False
        return any(b.may_draw(asyncio.get_running_loop().time()) for b in bs)

    await browsers_play_until(browsers, ready, timeout)
    loop = asyncio.get_running_loop()
    return next(b for b in browsers if b.may_draw(loop.time()))


# -- a killed process ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_killing_one_of_two_processes_mid_round(servers):
    room = setup_room(4, 3, 1)
    a, b = servers("a", env=FAST), servers("b", env=FAST)
    live = {a.port: True, b.port: True}

    def route_to(home):  # a load balancer: the browser's server while it lives
        return lambda: home.port if live[home.port] else next(p for p, up in live.items() if up)

    homes = [a, a, b]
    browsers = [
        Browser(f"p{i}@{home.log_path.stem}", key, room["code"], route_to(home))
        for i, (key, home) in enumerate(zip(room["sessions"], homes, strict=True))
    ]

    async def scenario():
        for br in browsers:
            assert await br.open()
        # Mid-round, at a draw by a player on the doomed process: the draw is sent and the
        # process is killed at once, so it may or may not have been committed.
        doomed = [br for br, home in zip(browsers, homes, strict=True) if home is a]

        def ready(state):
            return state["round"]["draws"] >= 6 and any(
                br.may_draw(asyncio.get_running_loop().time()) for br in doomed
            )

        await browsers_play_until(
            browsers, lambda bs: all(x.up for x in bs) and ready(bs[0].state), 60
        )
        loop = asyncio.get_running_loop()
        drawer = next(br for br in doomed if br.may_draw(loop.time()))
        await drawer.draw()
        a.kill()
        live[a.port] = False
        await browsers_play_until(browsers, match_over_everywhere, 120)
        record = await settled(browsers, read_record(room["room_id"]))
        for br in browsers:
            await br.close()
        return record

    started = time.monotonic()
    record = asyncio.run(asyncio.wait_for(scenario(), 300))
    check_consistent(browsers, record, room_record(room["room_id"]))
    # The killed process's players reconnected (to the other one); the rest never dropped.
    assert [br.drops for br in browsers[:2]] == [1, 1]
    assert browsers[2].drops == 0 and browsers[2].connects == 1
    assert all(
        br.errors == [] or {e["code"] for e in br.errors} <= {"stale_version"} for br in browsers
    )
    assert_no_tracebacks(b)
    print(
        f"kill -9: {sum(len(r['draws']) for r in record['rounds'])} draws, "
        f"{time.monotonic() - started:.1f} s"
    )


# -- Redis restarted -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", ["pubsub", "core"])
def test_restarting_redis_mid_round(servers, private_redis, layer):
    """On the default publish/subscribe channel layer and on the core one."""
    room = setup_room(4, 3, 1)
    env = {**FAST, "REDIS_URL": private_redis.url, "CHANNEL_LAYER": layer}
    a, b = servers("a", env=env), servers("b", env=env)
    homes = [a, b, b]
    browsers = browsers_at(room, homes)

    async def scenario():
        for br in browsers:
            assert await br.open()
        # A quick restart (SIGKILL, then up again at once): Redis forgets every group
        # membership and queued message, and some sockets may not even notice.
        drawer = await stop_when(browsers, lambda s: s["round"]["draws"] >= 4, 60)
        private_redis.stop()
        private_redis.start()
        await drawer.draw()
        drawer = await stop_when(browsers, lambda s: s["round"]["draws"] >= 14, 60)
        # A longer outage, with a draw made while Redis is down.
        private_redis.stop()
        await drawer.draw()  # committed to the database; its broadcast cannot be sent
        loop = asyncio.get_running_loop()
        outage_ends = loop.time() + 2
        await browsers_play_until(browsers, lambda bs: loop.time() >= outage_ends, 10)
        private_redis.start()
        resumed = loop.time()
        await browsers_play_until(browsers, match_over_everywhere, 120)
        record = await settled(browsers, read_record(room["room_id"]))
        for br in browsers:
            await br.close()
        return record, loop.time() - resumed

    started = time.monotonic()
    record, after = asyncio.run(asyncio.wait_for(scenario(), 300))
    check_consistent(browsers, record, room_record(room["room_id"]))
    assert_no_tracebacks(a, b)
    print(
        f"redis restart: {sum(len(r['draws']) for r in record['rounds'])} draws, "
        f"{after:.1f} s after the restart, {time.monotonic() - started:.1f} s in all"
    )


@pytest.mark.django_db(transaction=True)
def test_an_open_socket_that_loses_redis_is_closed_with_4503(servers, private_redis):
    """On the core channel layer an open socket waits for its messages in Redis: once
    Redis is gone it cannot go on, and is closed with 4503 (docs/protocol.md)."""
    room = setup_room(2, 2, 1)
    env = {**FAST, "REDIS_URL": private_redis.url, "CHANNEL_LAYER": "core"}
    server = servers("core", env=env)

    async def scenario():
        ws = await table(server.port, room["code"], room["sessions"][0])
        private_redis.stop()
        try:
            return await asyncio.wait_for(close_code(ws), 2 * OPEN_SECONDS)
        except TimeoutError:
            raise AssertionError(f"still open {2 * OPEN_SECONDS} s after Redis went") from None

    assert asyncio.run(scenario()) == 4503
    assert_no_tracebacks(server)


# -- PostgreSQL restarted ------------------------------------------------------------------


@pytest.fixture(scope="module")
def private_postgres():
    pg = PrivatePostgres()
    try:
        pg.init()
        run_django(django_env(pg.url), "manage", "migrate", "--noinput")
        yield pg
    finally:
        pg.close()


def restore(pg: PrivatePostgres) -> None:
    """The cluster running, answering, and its tables emptied: what a test that stops it
    leaves behind, however it ended."""
    if not pg.running():
        pg.start()
    pg.answers()
    run_django(django_env(pg.url), "manage", "flush", "--noinput")


@pytest.fixture
def outage_postgres(private_postgres):
    """The private cluster, for a test that stops it: a test failing in the middle of an
    outage would otherwise leave the cluster down, or its rooms behind, for the next."""
    yield private_postgres
    restore(private_postgres)


def test_after_an_outage_the_cluster_is_restored_running_and_empty(private_postgres):
    pg = private_postgres
    run_django(django_env(pg.url), "setup", "2", "2", "1")
    pg.stop("immediate")  # a test failing here, in the outage
    restore(pg)
    with psycopg.connect(pg.url) as connection:
        counts = connection.execute(
            "SELECT (SELECT count(*) FROM games_room), (SELECT count(*) FROM auth_user),"
            " (SELECT count(*) FROM django_session)"
        ).fetchone()
    assert counts == (0, 0, 0)


@pytest.fixture
def processes(tmp_path):
    started: list[Server] = []

    def start(name: str, env: dict) -> Server:
        server = Server(tmp_path, name, env=env)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def test_restarting_postgresql_mid_round(outage_postgres, private_redis, processes):
    pg = outage_postgres
    env = django_env(pg.url, private_redis.url)
    room = run_django(env, "setup", "3", "2", "1")
    server_env = {**FAST, "DATABASE_URL": pg.url, "REDIS_URL": private_redis.url}
    a, b = processes("a", server_env), processes("b", server_env)
    homes = [a, b]
    browsers = browsers_at(room, homes)

    doors = {}

    async def scenario():
        for br in browsers:
            assert await br.open()
        drawer = await stop_when(browsers, lambda s: s["round"]["draws"] >= 4, 60)
        other = next(br for br in browsers if br is not drawer)
        version = drawer.state["version"]
        # The other socket's process hears the last change a moment later under load: the
        # outage starts once both have it (else its sync answers the change before).
        while other.state["version"] < version:
            assert await other.receive(30) is not None, "the other socket never caught up"
        await asyncio.to_thread(pg.stop, "immediate")  # a crash: recovery on restart
        # An action during the outage: a clear, structured error, and the socket stays.
        await drawer.draw()
        replies = {}
        message = await drawer.receive(30)
        while message is not None and message["type"] != "error":
            message = await drawer.receive(30)
        replies[drawer.name] = message
        # A sync needs no database: the socket answers with the latest state it has.
        await other.send(type="sync", ref="s1")
        synced = await other.receive(30)
        while synced is not None and synced["type"] != "state":
            synced = await other.receive(30)
        assert synced is not None and synced["version"] == version
        # New sockets during the outage are turned away at once, not left hanging: a
        # table's handshake needs the session, so it is refused before it opens; the
        # lobby's opens, and its first read closes it with 4503 (docs/protocol.md).
        doors["table"] = await door(a.port, f"/ws/rooms/{room['code']}/", room["sessions"][0])
        doors["lobby"] = await door(a.port, "/ws/lobby/")
        # Heartbeats meet the outage too (each process logs it), before PostgreSQL is back.
        await wait_for_log([a, b], "heartbeat could not be recorded", 60)
        await asyncio.to_thread(pg.start)
        loop = asyncio.get_running_loop()
        resumed = loop.time()
        # The refused draw was not applied: the room is where the outage found it.
        await drawer.send(type="sync")
        message = await drawer.receive(30)
        while message is not None and message["type"] != "state":
            message = await drawer.receive(30)
        assert message is not None and message["version"] == version
        await browsers_play_until(browsers, match_over_everywhere, 120)
        elapsed = loop.time() - resumed

        async def read():
            return await asyncio.to_thread(run_django, env, "draws", str(room["room_id"]))

        record = await settled(browsers, read)
        for br in browsers:
            await br.close()
        return version, replies, record, elapsed

    started = time.monotonic()
    version, replies, record, elapsed = asyncio.run(asyncio.wait_for(scenario(), 300))
    assert doors == {"table": 403, "lobby": 4503}
    for message in replies.values():
        assert message is not None and message["code"] == "unavailable", replies
        assert "database" in message["message"]
    # The sockets survived the outage.
    assert [br.drops for br in browsers] == [0, 0]
    check_consistent(browsers, record, run_django(env, "draws", str(room["room_id"])))
    assert record["version"] > version
    assert_no_tracebacks(a, b)
    print(
        f"postgresql restart: {sum(len(r['draws']) for r in record['rounds'])} draws, "
        f"{elapsed:.1f} s after the restart, {time.monotonic() - started:.1f} s in all"
    )


def test_after_a_postgresql_restart_the_pool_hands_out_only_working_connections(
    outage_postgres, private_redis, processes
):
    """With a pool of connections (``DB_POOL=1``) each one is checked as it leaves the pool
    (``CONN_HEALTH_CHECKS``): a restart closed every connection the pool held, and the
    first action, socket and health check after it each succeed at their first try.
    Nothing else touches the database in between (no heartbeat, sweep or computer), so
    the action is the first to meet the pool's old connections."""
    pg = outage_postgres
    room = run_django(django_env(pg.url, private_redis.url), "setup", "2", "2", "1")
    quiet = {"HEARTBEAT_SECONDS": "3600", "SWEEP_SECONDS": "3600", "COMPUTER_DELAY_SECONDS": "0"}
    env = {**quiet, "DATABASE_URL": pg.url, "REDIS_URL": private_redis.url, "DB_POOL": "1"}
    server = processes("pooled", env)
    path = f"/ws/rooms/{room['code']}/"

    async def first_state(ws) -> dict:
        message = {"type": None}
        while message["type"] != "state":
            message = json.loads(await asyncio.wait_for(ws.recv(), OPEN_SECONDS))
        return message

    def healthz() -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=30):
                return 200
        except urllib.error.HTTPError as error:
            return error.code

    async def scenario():
        sockets = [await open_socket(server.port, path, key) for key in room["sessions"]]
        states = [await first_state(ws) for ws in sockets]
        assert await asyncio.to_thread(healthz) == 200
        drawer, state = next(
            (ws, s) for ws, s in zip(sockets, states, strict=True) if s["acting"] is not None
        )
        await asyncio.to_thread(pg.stop, "fast")  # every connection of the pool is closed
        await asyncio.to_thread(pg.start)
        results = {}
        await drawer.send(json.dumps({"type": "draw", **ply(state, "draw"), "position": 0}))
        answer = {"type": None}  # the draw's broadcast, or its error (states of presence pass)
        while answer["type"] != "error" and (answer.get("event") or {}).get("kind") != "draw":
            answer = json.loads(await asyncio.wait_for(drawer.recv(), OPEN_SECONDS))
        results["draw"] = answer.get("code") or answer["type"]
        results["new socket"] = await door(server.port, path, room["sessions"][0])
        results["healthz"] = await asyncio.to_thread(healthz)
        for ws in sockets:
            await ws.close()
        return results

    assert asyncio.run(asyncio.wait_for(scenario(), 300)) == {
        "draw": "state",
        "new socket": "state",
        "healthz": 200,
    }
    assert_no_tracebacks(server)


def test_during_a_postgresql_outage_pages_answer_503_and_a_draw_unavailable_then_the_state(
    outage_postgres, private_redis, processes
):
    """With the pool (``DB_POOL=1``, as in production): what waits for a connection waits
    ``DB_POOL_TIMEOUT`` (5 s), not psycopg_pool's 30; a page then answers 503 with a page
    needing no database and ``Retry-After``, and a draw answers ``unavailable`` followed by
    the state the socket holds (docs/protocol.md, "Errors")."""
    pg = outage_postgres
    room = run_django(django_env(pg.url, private_redis.url), "setup", "2", "2", "1")
    quiet = {"HEARTBEAT_SECONDS": "3600", "SWEEP_SECONDS": "3600", "COMPUTER_DELAY_SECONDS": "0"}
    env = {**quiet, "DATABASE_URL": pg.url, "REDIS_URL": private_redis.url, "DB_POOL": "1"}
    server = processes("pooled", env)
    path = f"/ws/rooms/{room['code']}/"

    def page(url: str) -> tuple[int, str, str, float]:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=60) as answer:
                return answer.status, "", answer.read().decode(), time.monotonic() - started
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            return error.code, error.headers.get("Retry-After"), body, time.monotonic() - started

    async def scenario():
        sockets = [await open_socket(server.port, path, key) for key in room["sessions"]]
        states = []
        for ws in sockets:
            message = {"type": None}
            while message["type"] != "state":
                message = json.loads(await asyncio.wait_for(ws.recv(), OPEN_SECONDS))
            states.append(message)
        drawer, state = next(
            (ws, s) for ws, s in zip(sockets, states, strict=True) if s["acting"] is not None
        )
        await asyncio.to_thread(pg.stop, "immediate")
        lobby = await asyncio.to_thread(page, f"{server.url}/")
        await drawer.send(json.dumps({"type": "draw", **ply(state, "draw"), "position": 0}))
        replies = []
        while len(replies) < 2:
            message = json.loads(await asyncio.wait_for(drawer.recv(), 60))
            if message["type"] == "error" or replies:
                replies.append(message)
        for ws in sockets:
            await ws.close()
        return state, lobby, replies

    state, (status, retry, body, took), (error, after) = asyncio.run(
        asyncio.wait_for(scenario(), 300)
    )
    assert (status, retry) == (503, "10")
    assert "cannot reach its database" in body
    assert error["code"] == "unavailable"
    assert after["type"] == "state" and after["version"] == state["version"]
    log = server.log_path.read_text()
    assert "GET /: database unavailable" in log
    assert_no_tracebacks(server)
    print(f"a page during the outage: 503 after {took:.1f} s")
