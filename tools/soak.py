"""Soak test: the production mode under a steady, modest load for a long time, watched for
anything that grows with time rather than with load (``make soak`` starts the production
mode and runs ``python -m tools.soak``; ``--help`` lists the options).

The load, all from this machine:

- rooms of four signed-in bots playing whole matches over real WebSockets, each bot
  drawing about a second after its turn arrives and the host rematching as each match
  ends (the bots, rooms and sessions of ``tools.bench_load``);
- spectators coming and going: anonymous visits of a room's watch link (the page, then
  its socket), each staying a few seconds;
- ``/healthz`` polled every second, and lobby sockets open throughout;
- one flooding client (a process of its own, so that its loop does not delay the bots'
  clocks): a watch link and a loop sending malformed frames as fast as it can,
  reconnecting after each close, on only in alternate phases (the second and fourth
  quarter by default), so the players' draw latency is measured with and without it in
  the same run. It only ever targets 127.0.0.1 and stops at the end of the run or after
  ``--flood-max-frames`` frames.

Each client connects from a loopback address of its own (``client_address``: every
player, spectator, lobby socket, the health poller and the flooder), so the limits per
client address in nginx and in the application see them as the different people they
stand for.

At the start, every ``--sample-seconds``, at each phase's end and at the end it takes a
*settled sample*: the spectators and the flood pause, and once the rows of spectators are
gone (or after ``--settle-seconds``) it reads each Daphne's resident size, Redis's
subscriptions and memory, and the rows of sessions, presence and watchers. Every settled
sample is taken at the same load (the players' sockets and the lobby sockets), so the
figures must not move: ``judge_growth`` compares the samples of the second half with
those of the first half after the warm-up, within ``LIMITS``, and ``judge_flood`` fails
the run if the players' p99 with the flood is more than ``FLOOD_FACTOR`` times the p99
without it. Both are pure functions (``tests/test_soak_tool.py``).
"""

from __future__ import annotations

import asyncio
import datetime
import http.client
import json
import logging
import math
import multiprocessing
import os
import random
import resource
import ssl
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import django
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from tools import bench_load
from tools.bench_engine import write_section
from tools.bench_load import (
    SEATS,
    CpuWindow,
    Generator,
    cleanup,
    client_address,
    cpu_line,
    daphne_memory,
    layer_name,
    machine,
    percentile,
    setup_rooms,
)

START = "<!-- soak:start (written by python -m tools.soak) -->"
END = "<!-- soak:end -->"

#: The players' p99 with the flood may be at most this many times the p99 without it.
FLOOD_FACTOR = 2.0
#: After a switch, the draws sent this many seconds are counted in neither phase: the
#: flood takes a moment to start, and the frames it queued a moment to drain.
#: (While a sample settles nothing is counted.)
SWITCH_SECONDS = {"flood": 2.0, "quiet": 5.0, "settle": 0.0}
MIB = 2**20
#: The only address the flooding client may target.
FLOOD_HOST = "127.0.0.1"


# -- the judgement (pure) ------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """How far a figure may rise over its level after the warm-up: the larger of
    ``ratio`` of that level and ``absolute`` (in the figure's unit)."""

    ratio: float
    absolute: float
    unit: str = ""

    def allowed(self, level: float) -> float:
        return level + max(self.absolute, self.ratio * level)


#: One entry per figure a settled sample holds (``Sample.figures``).
LIMITS = {
    # Resident sizes grow while caches and pools warm up; past the warm-up, at most 10%
    # or 8 MiB.
    "Daphne resident size, largest": Limit(0.10, 8.0, "MiB"),
    "Daphne resident size, all": Limit(0.10, 8.0, "MiB"),
    # Subscriptions come with sockets, not with time: healthz polls and closed sockets
    # must leave none behind. A few for what is in flight at the time of the sample.
    "Redis subscriptions": Limit(0.0, 3, ""),
    # The whole Redis server (shared with other work on this machine): generous.
    "Redis used memory": Limit(0.20, 8.0, "MiB"),
    # Anonymous visits must not store sessions; rows of sockets must go with them.
    "sessions": Limit(0.0, 2, "rows"),
    "presence": Limit(0.0, 2, "rows"),
    "watchers": Limit(0.0, 2, "rows"),
}


@dataclass
class Sample:
    """One settled sample: due ``at`` seconds into the run (taken once settled, a few
    seconds later); ``figures`` as in ``LIMITS`` (a figure that could not be read is
    missing); ``flood`` whether the phase it ends floods."""

    at: float
    figures: dict[str, float]
    flood: bool = False
    detail: dict = field(default_factory=dict)


def judged_samples(
    samples: list[Sample], duration: float, warmup: float
) -> tuple[list[Sample], list[Sample]]:
    """(the first half's samples after the warm-up, the second half's). The warm-up is at
    most a quarter of the run, so a short run still has a first half to compare with."""
    warm = min(warmup, duration / 4)
    half = duration / 2
    first = [s for s in samples if warm <= s.at <= half]
    second = [s for s in samples if s.at > half]
    return first, second


def judge_growth(samples: list[Sample], duration: float, warmup: float) -> list[str]:
    """A line for each figure that grew with time: the lower of the last two samples is
    above the highest of the first half's after the warm-up, beyond its limit. All
    samples are taken at the same load, so only time can make them differ."""
    first, second = judged_samples(samples, duration, warmup)
    if not first or not second:
        return [
            f"FAIL too few samples to judge growth ({len(first)} after the warm-up in the "
            f"first half, {len(second)} in the second): run longer or sample more often"
        ]
    failures = []
    for name, limit in LIMITS.items():
        before = [s.figures[name] for s in first if name in s.figures]
        after = [s.figures[name] for s in second[-2:] if name in s.figures]
        if not before or not after:
            failures.append(f"FAIL {name}: not measured")
            continue
        level, end = max(before), min(after)
        if end > limit.allowed(level):
            unit = f" {limit.unit}" if limit.unit else ""
            failures.append(
                f"FAIL {name} grew with time: {level:,.1f}{unit} after the warm-up, "
                f"{end:,.1f}{unit} at the end (at most {limit.allowed(level):,.1f}{unit} "
                "allowed at the same load)"
            )
    return failures


def judge_flood(quiet_p99: float, flood_p99: float, factor: float = FLOOD_FACTOR) -> list[str]:
    """A line if the players' p99 with the flood is more than ``factor`` times the p99
    without it, or if either was not measured (NaN: no draws in those phases)."""
    if math.isnan(quiet_p99) or math.isnan(flood_p99):
        return ["FAIL players' draw latency: not measured both with and without the flood"]
    if flood_p99 > factor * quiet_p99:
        return [
            f"FAIL players' draw latency p99 with the flood is {flood_p99:,.1f} ms, "
            f"{flood_p99 / quiet_p99:.1f}x the {quiet_p99:,.1f} ms without it "
            f"(at most {factor:g}x allowed)"
        ]
    return []


def phase_floods(index: int) -> bool:
    """Phases alternate, starting without the flood: the 2nd, 4th, ... flood."""
    return index % 2 == 1


def sample_times(duration: float, every: float, phases: int) -> list[float]:
    """When the settled samples are taken (seconds into the run): every ``every``
    seconds and at each phase's end, the last at ``duration``."""
    times = {round(duration * (k + 1) / phases, 3) for k in range(phases)}
    k = 1
    while k * every < duration:
        times.add(round(k * every, 3))
        k += 1
    return sorted(t for t in times if 0 < t <= duration)


def in_windows(t: float, windows: list[tuple[float, float]]) -> bool:
    return any(start <= t < end for start, end in windows)


# -- what is measured on the stack -----------------------------------------------------------


def redis_figures(url: str) -> dict:
    """Redis's subscriptions (those of clients on this run's database, counted from
    CLIENT LIST; and server-wide PUBSUB NUMPAT + PUBSUB CHANNELS) and used memory."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        db = int(client.connection_pool.connection_kwargs.get("db", 0))
        ours = [c for c in client.client_list() if int(c.get("db", -1)) == db]
        subscriptions = sum(
            int(c.get(kind, 0) or 0) for c in ours for kind in ("sub", "psub", "ssub")
        )
        return {
            "subscriptions": subscriptions,
            "patterns": int(client.pubsub_numpat()),
            "channels": len(client.pubsub_channels()),
            "used_memory": int(client.info("memory")["used_memory"]),
        }
    finally:
        client.close()


def table_names() -> dict[str, str]:
    from django.contrib.sessions.models import Session

    from games.models import Presence, Watcher

    return {
        "sessions": Session._meta.db_table,
        "presence": Presence._meta.db_table,
        "watchers": Watcher._meta.db_table,
    }


def row_counts() -> dict[str, int]:
    """The rows of sessions, presence and watchers (run in a worker thread)."""
    try:
        with connections["default"].cursor() as cursor:
            counts = {}
            for label, table in table_names().items():
                cursor.execute(
                    f"SELECT count(*) FROM {connections['default'].ops.quote_name(table)}"
                )
                counts[label] = cursor.fetchone()[0]
            return counts
    finally:
        connections.close_all()


def measure(redis_url: str) -> tuple[dict[str, float], dict]:
    """One sample's figures (``LIMITS``' names) and what else it printed."""
    figures: dict[str, float] = {}
    detail: dict = {}
    sizes = daphne_memory()
    detail["rss"] = sizes
    if sizes:
        figures["Daphne resident size, largest"] = max(sizes)
        figures["Daphne resident size, all"] = sum(sizes)
    try:
        found = redis_figures(redis_url)
    except Exception as exc:  # reported, and the figures count as not measured
        detail["redis_error"] = f"{type(exc).__name__}: {exc}"
    else:
        detail.update(found)
        figures["Redis subscriptions"] = found["subscriptions"]
        figures["Redis used memory"] = found["used_memory"] / MIB
    rows = row_counts()
    detail["rows"] = rows
    figures.update(rows)
    return figures, detail


# -- the flooding client (a process of its own) ------------------------------------------------


def flood_process(url, origin, flooding, stop, counters, limits: dict) -> None:
    """Send malformed frames on a watch link as fast as possible (or at ``limits["rate"]``
    a second) while ``flooding`` is set, reconnecting after each close; for at most
    ``limits["seconds"]`` and ``limits["frames"]`` frames, at ``limits["nice"]``."""
    if limits["nice"]:
        os.nice(limits["nice"])
    # Writes to a socket the server has just closed are expected here, not news.
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    asyncio.run(_flood(url, origin, flooding, stop, counters, limits))


async def _flood(url, origin, flooding, stop, counters, limits: dict) -> None:
    if urlsplit(url).hostname != FLOOD_HOST:  # also checked before starting it
        raise SystemExit(f"the flood only targets {FLOOD_HOST}")
    deadline = time.monotonic() + limits["seconds"]
    rate = limits["rate"]
    frames = 0

    def going() -> bool:
        return not stop.is_set() and time.monotonic() < deadline and frames < limits["frames"]

    while going():
        if not flooding.is_set():
            await asyncio.sleep(0.05)
            continue
        try:
            ws = await open_socket(url, origin, client_address("flood"), open_timeout=10)
        except Exception:  # refused (a 429 from the limits), timed out: again at once
            counters["refused"].value += 1
            continue
        counters["connects"].value += 1
        counters["connected"].value = 1
        reader = asyncio.get_running_loop().create_task(drain(ws))
        began, sent = time.monotonic(), 0
        try:
            async with ws:
                while flooding.is_set() and going():
                    await ws.send("{")  # not JSON: refused as malformed
                    frames += 1
                    sent += 1
                    if rate and sent % 16 == 0:
                        await asyncio.sleep(max(0.0, began + sent / rate - time.monotonic()))
                    if frames % 256 == 0:
                        counters["frames"].value = frames
                        await asyncio.sleep(0)
        except Exception:  # closed by the server: reconnect
            pass
        finally:
            reader.cancel()
            counters["connected"].value = 0
            counters["frames"].value = frames


def count_as(pid: int, group: str) -> None:
    """Count process ``pid``'s CPU as ``group`` in ``tools.bench_load``'s figures."""
    if bench_load.GROUPS is None:
        bench_load.GROUPS = bench_load.Groups()
    bench_load.GROUPS.known[pid] = group


class Flood:
    """The flooding process, switched on and off by the run."""

    def __init__(self, url: str, origin: str, limits: dict):
        if urlsplit(url).hostname != FLOOD_HOST:
            raise CommandError(f"the flood only targets {FLOOD_HOST}, not {url!r}")
        ctx = multiprocessing.get_context("spawn")
        self.flooding = ctx.Event()
        self.stop_event = ctx.Event()
        self.counters = {
            k: ctx.Value("q", 0, lock=False) for k in ("frames", "connects", "refused", "connected")
        }
        self.process = ctx.Process(
            target=flood_process,
            args=(url, origin, self.flooding, self.stop_event, self.counters, limits),
            daemon=True,
        )
        self.process.start()
        # Its CPU is the attacker's, not the stack's: a group of its own in the figures.
        count_as(self.process.pid, "flood")

    def on(self) -> None:
        self.flooding.set()

    def off(self) -> None:
        self.flooding.clear()

    @property
    def connected(self) -> bool:
        return bool(self.counters["connected"].value)

    def stop(self) -> None:
        self.stop_event.set()
        self.flooding.clear()
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


# -- the rest of the load ----------------------------------------------------------------------


def unverified_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # our own, self-signed certificate
    return context


async def drain(ws) -> int:
    """Read and drop a socket's messages until it closes; how many there were."""
    count = 0
    try:
        async for _ in ws:
            count += 1
    except Exception:  # closed uncleanly: the same end
        pass
    return count


#: Each client of the run comes from an address of its own in 127.0.0.0/8 (all of it is
#: the loopback on Linux), as different people would: the limits per client address
#: (docs/operations.md) then treat the flooder as one client and each player as another.
async def open_socket(url: str, origin: str, address: str, **options):
    """A WebSocket to ``url`` from ``address``, as the page's script would open it."""
    from websockets.asyncio.client import connect

    context = unverified_context() if url.startswith("wss:") else None
    settings = {"open_timeout": 30, "close_timeout": 2, "max_size": 2**20, **options}
    return await connect(
        url,
        ssl=context,
        origin=origin,
        ping_interval=None,
        compression=None,
        local_addr=(address, 0),
        **settings,
    )


def http_get(url: str, address: str) -> int:
    """GET ``url`` from ``address`` with no cookies (an anonymous visitor); the status."""
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    extra = {"context": unverified_context()} if parts.scheme == "https" else {}
    connection = kind(parts.netloc, timeout=10, source_address=(address, 0), **extra)
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


class Visitors:
    """Spectators coming and going, lobby sockets, and /healthz polled every second."""

    def __init__(self, base: str, ws_base: str, origin: str, watch: list[tuple[str, str]], opts):
        self.base, self.ws_base, self.origin = base, ws_base, origin
        self.watch = watch  # (room code, watch token)
        self.opts = opts
        self.open = 0
        self.visits = 0
        self.errors: Counter = Counter()
        self.healthz: Counter = Counter()
        self.lobby_messages = 0
        self.running = asyncio.Event()
        self.running.set()
        self.paused = asyncio.Event()
        self.stopping = False
        self.tasks: list[asyncio.Task] = []

    async def connect(self, path: str, address: str):
        return await open_socket(self.ws_base + path, self.origin, address)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        for n in range(self.opts["spectators"]):
            self.tasks.append(loop.create_task(self.spectator(n)))
        for n in range(self.opts["lobby"]):
            self.tasks.append(loop.create_task(self.lobby(n)))
        self.tasks.append(loop.create_task(self.poll_healthz()))

    def pause(self) -> None:
        self.running.clear()
        self.paused.set()

    def resume(self) -> None:
        self.paused.clear()
        self.running.set()

    async def spectator(self, n: int) -> None:
        """One spectator after another from the same address: a visit, a short pause."""
        await asyncio.sleep(random.uniform(0, 2))
        while not self.stopping:
            await self.running.wait()
            self.open += 1  # from the page's request on, until its socket is closed
            try:
                await self.visit(*random.choice(self.watch), client_address("spectator", n))
            except Exception as exc:
                self.errors[f"spectator: {type(exc).__name__}"] += 1
                await asyncio.sleep(1)
            finally:
                self.open -= 1
            await asyncio.sleep(random.uniform(0.2, 0.8))

    async def visit(self, code: str, token: str, address: str) -> None:
        """A watch link opened (the page, then its socket), watched a few seconds (or
        until the run pauses the spectators), closed."""
        status = await asyncio.to_thread(http_get, f"{self.base}/r/{code}/?t={token}", address)
        if status != 200:
            self.errors[f"watch page {status}"] += 1
        ws = await self.connect(f"/ws/rooms/{code}/?t={token}", address)
        self.visits += 1
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if first.get("type") != "state":
                self.errors["spectator: no state"] += 1
            stay = random.uniform(self.opts["stay_min"], self.opts["stay_max"])
            reader = asyncio.ensure_future(drain(ws))
            paused = asyncio.ensure_future(self.paused.wait())
            done, _ = await asyncio.wait(
                {reader, paused}, timeout=stay, return_when=asyncio.FIRST_COMPLETED
            )
            reader.cancel()
            paused.cancel()
            if reader in done:
                self.errors["spectator: closed by the server"] += 1
        finally:
            await ws.close()

    async def lobby(self, n: int) -> None:
        while not self.stopping:
            try:
                ws = await self.connect("/ws/lobby/", client_address("lobby", n))
            except Exception as exc:
                self.errors[f"lobby: {type(exc).__name__}"] += 1
                await asyncio.sleep(1)
                continue
            self.lobby_messages += await drain(ws)
            if not self.stopping:
                self.errors["lobby: closed"] += 1

    async def poll_healthz(self) -> None:
        while not self.stopping:
            started = time.monotonic()
            try:
                status = await asyncio.to_thread(
                    http_get, self.base + "/healthz", client_address("healthz")
                )
            except Exception as exc:
                status = type(exc).__name__
            self.healthz[status] += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started)))

    async def stop(self) -> None:
        self.stopping = True
        self.paused.set()
        self.running.set()
        await asyncio.sleep(0.5)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


# -- the run -------------------------------------------------------------------------------------


def clock(seconds: float) -> str:
    return f"{int(seconds) // 60:2d}:{int(seconds) % 60:02d}"


def number(value: float, digits: int = 0) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def stack_cpu(use: dict) -> str:
    """``tools.bench_load.cpu_line``, with the flooding client's share first."""
    flood = f"flood {use['flood']:.0f}%, " if use.get("flood", 0) >= 0.5 else ""
    return flood + cpu_line(use)


def latency_ms(receipts: list[tuple[float, float]], windows) -> list[float]:
    return [lat * 1000 for sent, lat in receipts if in_windows(sent, windows)]


#: The command's options with a value: (name, type, default, what it sets).
OPTIONS = [
    ("--minutes", float, 10, "how long the run lasts"),
    ("--rooms", int, 20, "rooms of 4 bots"),
    ("--pace", float, 1.0, "seconds from a bot's turn to its draw"),
    ("--spectators", int, 6, "spectators coming and going at once"),
    ("--stay-min", float, 2.0, "a spectator's shortest stay, in seconds"),
    ("--stay-max", float, 6.0, "a spectator's longest stay, in seconds"),
    ("--lobby", int, 2, "lobby sockets open"),
    ("--phases", int, 4, "phases, alternately without and with the flood"),
    ("--flood-max-frames", int, 20_000_000, "the flood stops after this many frames"),
    ("--flood-rate", float, 0, "the flood's frames a second; 0: as fast as it can"),
    ("--flood-nice", int, 0, "the flooding process's niceness"),
    ("--sample-seconds", float, 60, "a settled sample every this many seconds"),
    (
        "--warmup-seconds",
        float,
        120,
        "samples before this (at most a quarter of the run) set no level",
    ),
    ("--settle-seconds", float, 10, "the longest a sample waits for the spectators' rows to go"),
]


class Command(BaseCommand):
    help = "Soak test against a running production stack (see make soak)."

    def add_arguments(self, parser):
        parser.add_argument("--url", required=True, help="the stack's base URL (https://host:port)")
        for name, kind, default, meaning in OPTIONS:
            parser.add_argument(name, type=kind, default=default, help=f"{meaning} ({default:,})")
        parser.add_argument("--no-flood", action="store_true", help="no flooding client")
        parser.add_argument("--stack", default="", help="how the stack was run, for the report")
        parser.add_argument("--write", default=None, help="the Markdown file to update")
        parser.add_argument("--keep", action="store_true", help="keep the rooms and users")

    def log(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def handle(self, *args, **opts):
        parts = urlsplit(opts["url"])
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise CommandError(f"--url must be http(s)://host:port, not {opts['url']!r}")
        if opts["minutes"] <= 0 or opts["rooms"] < 1 or opts["phases"] < 2:
            raise CommandError(
                "--minutes must be positive, --rooms at least 1, --phases at least 2"
            )
        if not opts["no_flood"] and parts.hostname != FLOOD_HOST:
            raise CommandError(f"the flood only targets {FLOOD_HOST}, not {parts.hostname}")
        if not 0 < opts["stay_min"] <= opts["stay_max"]:
            raise CommandError("--stay-min must be positive and at most --stay-max")
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            raise CommandError("REDIS_URL is not set (scripts/soak.sh sets it)")
        base = opts["url"].rstrip("/")
        ws_base = ("wss" if parts.scheme == "https" else "ws") + "://" + parts.netloc
        duration = opts["minutes"] * 60
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < 4096:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        started_at = datetime.datetime.now()

        from games.models import Room

        self.log(f"setting up {opts['rooms']} rooms of {SEATS} signed-in players ...")
        cleanup()
        rooms = setup_rooms(opts["rooms"], 1)
        tokens = dict(
            Room.objects.filter(pk__in=[r["id"] for r in rooms]).values_list("pk", "watch_token")
        )
        watch = [(r["code"], tokens[r["id"]]) for r in rooms]
        connections.close_all()

        flood = None
        if not opts["no_flood"]:
            code, token = watch[0]
            flood = Flood(
                f"{ws_base}/ws/rooms/{code}/?t={token}",
                base,
                {
                    # The run, each sample's settling at its longest, and a margin.
                    "seconds": duration
                    + opts["settle_seconds"]
                    * (len(sample_times(duration, opts["sample_seconds"], opts["phases"])) + 1)
                    + 120,
                    "frames": opts["flood_max_frames"],
                    "rate": opts["flood_rate"],
                    "nice": opts["flood_nice"],
                },
            )
        flood_died = None
        try:
            result = asyncio.run(
                self.run(opts, base, ws_base, rooms, watch, flood, duration, redis_url)
            )
        finally:
            if flood:
                flood_died = flood.process.exitcode  # None while it still runs, as it should
                flood.stop()
        if not opts["keep"]:
            cleanup(rooms_only=True)  # before the servers' computers cover the seats left
            cleanup()
        connections.close_all()

        failures = judge_growth(result["samples"], duration, opts["warmup_seconds"])
        if flood:
            failures += judge_flood(result["quiet_p99"], result["flood_p99"])
            if flood_died is not None:
                failures.append(
                    f"FAIL the flooding client stopped early (exit code {flood_died}; it stops "
                    "after --flood-max-frames frames)"
                )
        errors = result["errors"]
        if sum(errors.values()):
            listed = ", ".join(f"{n} {what}" for what, n in errors.most_common())
            failures.append(f"FAIL players' sockets had errors: {listed}")
        bad_health = {k: n for k, n in result["healthz"].items() if k != 200}
        if bad_health:
            failures.append(f"FAIL /healthz did not answer 200: {bad_health}")
        report = self.report(started_at, opts, result, failures, duration, flood is not None)
        self.log("")
        self.log(report)
        if opts["write"]:
            write_section(Path(opts["write"]), START, END, report)
        self.log("")
        if failures:
            for line in failures:
                self.log(line)
            raise CommandError(f"soak failed: {len(failures)} figure(s) above")
        self.log("soak passed: nothing grew with time, and the flood did not slow the players")

    async def run(self, opts, base, ws_base, rooms, watch, flood, duration, redis_url) -> dict:
        game = Generator([ws_base], echo=False, log=self.log)
        game.build(rooms)
        took = await game.connect_all()
        players = len(rooms) * SEATS
        self.log(f"{players} players' sockets open in {took:.1f} s")
        visitors = Visitors(base, ws_base, base, watch, opts)
        samples: list[Sample] = []
        windows: dict[str, list[tuple[float, float]]] = {kind: [] for kind in SWITCH_SECONDS}
        state = {"kind": "settle", "since": 0.0, "t0": time.monotonic()}

        def now() -> float:
            return time.monotonic() - state["t0"]

        def switch(kind: str | None) -> None:
            """End the current latency window and begin ``kind``'s (None: the end)."""
            at, previous = now(), state["kind"]
            start = state["since"] + SWITCH_SECONDS[previous]
            if at > start:
                windows[previous].append((state["t0"] + start, state["t0"] + at))
            if kind is not None:
                state.update(kind=kind, since=at)

        def latency(kind: str) -> tuple[float, float, int]:
            values = latency_ms(game.rec.receipts, windows[kind])
            return percentile(values, 50), percentile(values, 99), len(values)

        async def sample(at: float, taken_flooding: bool, then_flood: bool) -> None:
            """A settled sample, then the load of the next stretch (with the flood or
            without)."""
            switch("settle")
            if flood:
                flood.off()
            visitors.pause()
            deadline = time.monotonic() + opts["settle_seconds"]
            while time.monotonic() < deadline:  # the spectators and the flood are gone
                if visitors.open == 0 and not (flood and flood.connected):
                    rows = await asyncio.to_thread(row_counts)
                    if rows["watchers"] == 0 and rows["presence"] <= players:
                        break
                await asyncio.sleep(0.25)
            figures, detail = await asyncio.to_thread(measure, redis_url)
            detail["taken"] = now()
            detail["cpu"] = cpu["window"].finish()
            cpu["window"] = CpuWindow()
            s = Sample(at=at, figures=figures, flood=taken_flooding, detail=detail)
            samples.append(s)
            self.log(self.sample_line(s, latency, flood))
            visitors.resume()
            if flood and then_flood:
                flood.on()
            switch("flood" if then_flood else "quiet")

        cpu = {"window": CpuWindow()}
        await sample(0.0, False, False)  # the start, before any play
        state.update(t0=time.monotonic(), since=0.0)  # the run's clock starts now
        for table in game.tables:  # spread the first turns over a second
            asyncio.get_running_loop().call_later(random.random(), table.activate, opts["pace"])
        visitors.start()
        phases = opts["phases"]
        length = duration / phases
        for at in sample_times(duration, opts["sample_seconds"], phases):
            await asyncio.sleep(max(0.0, at - now()))
            taken_in = min(phases - 1, int(at / length - 1e-6))
            then = min(phases - 1, int(at / length + 1e-6))
            floods = flood is not None
            await sample(
                at,
                floods and phase_floods(taken_in),
                floods and phase_floods(then) and at < duration,
            )
        switch(None)
        await game.quiesce()
        await visitors.stop()
        await game.close_all()
        quiet, flooded = latency("quiet"), latency("flood")
        every = {
            kind: [
                (t - sent) * 1000 for sent, t in game.rec.draws if in_windows(sent, windows[kind])
            ]
            for kind in ("quiet", "flood")
        }
        return {
            "samples": samples,
            "quiet_p50": quiet[0],
            "quiet_p99": quiet[1],
            "quiet_n": quiet[2],
            "flood_p50": flooded[0],
            "flood_p99": flooded[1],
            "flood_n": flooded[2],
            "every_p99": {k: percentile(v, 99) for k, v in every.items()},
            "draws": len(game.rec.draws),
            "errors": game.rec.errors,
            "healthz": visitors.healthz,
            "visits": visitors.visits,
            "visitor_errors": visitors.errors,
            "lobby_messages": visitors.lobby_messages,
            "flood_frames": flood.counters["frames"].value if flood else 0,
            "flood_connects": flood.counters["connects"].value if flood else 0,
            "flood_refused": flood.counters["refused"].value if flood else 0,
            "players": players,
        }

    def sample_line(self, s: Sample, latency, flood) -> str:
        d = s.detail
        rss = ", ".join(f"{m:,.0f}" for m in d.get("rss", [])) or "none found"
        if "redis_error" in d:
            redis_text = f"redis unreadable ({d['redis_error']})"
        else:
            redis_text = (
                f"redis subs {d['subscriptions']} (server: {d['channels']} channels + "
                f"{d['patterns']} patterns), {d['used_memory'] / MIB:,.1f} MiB"
            )
        rows = d["rows"]
        q50, q99, _ = latency("quiet")
        f50, f99, _ = latency("flood")
        text = (
            f"[{clock(s.at)}] daphne {rss} MiB | {redis_text} | sessions {rows['sessions']}, "
            f"presence {rows['presence']}, watchers {rows['watchers']} | p50/p99 ms quiet "
            f"{number(q50)}/{number(q99)}, flood {number(f50)}/{number(f99)}"
        )
        if flood:
            text += f" | flood frames {flood.counters['frames'].value:,}"
        return text + f"\n        CPU since the last sample: {stack_cpu(d['cpu'])}"

    def report(self, started_at, opts, r, failures, duration, flooded) -> str:
        names = table_names()
        samples = r["samples"]
        first, second = judged_samples(samples, duration, opts["warmup_seconds"])
        judged = {id(s) for s in first} | {id(s) for s in second[-2:]}
        backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
        warm = min(opts["warmup_seconds"], duration / 4)

        lines = [
            START,
            "",
            f"Measured {started_at:%Y-%m-%d %H:%M} on a {machine()}, channel layer "
            f"`{layer_name()}` (`{backend}`)"
            + (f"; stack: {opts['stack']}" if opts["stack"] else "")
            + f". {opts['minutes']:g} minutes (`make soak`): {opts['rooms']} friends rooms of "
            f"{SEATS} signed-in bots playing one-round Babanuki matches and rematching, a draw "
            f"every {opts['pace']:g} s per room; {opts['spectators']} spectators coming and going "
            f"({r['visits']:,} visits of a watch link, {opts['stay_min']:g}-{opts['stay_max']:g} s "
            f"each); {opts['lobby']} lobby sockets; `/healthz` every second "
            f"({sum(r['healthz'].values()):,} polls); "
            + (
                f"one flooding client in the even phases of {opts['phases']} "
                f"({r['flood_frames']:,} malformed frames over {r['flood_connects']:,} "
                f"connections, {r['flood_refused']:,} handshakes refused; "
                + (
                    f"at most {opts['flood_rate']:,.0f} a second"
                    if opts["flood_rate"]
                    else "as fast as it could"
                )
                + (f", niceness {opts['flood_nice']}" if opts["flood_nice"] else "")
                + ")."
                if flooded
                else "no flood."
            ),
            "",
            "Settled samples (spectators and flood paused, rows of spectators gone; "
            f"`{names['sessions']}`, `{names['presence']}`, `{names['watchers']}`; Redis "
            "subscriptions of this run's database, from `CLIENT LIST`; * = judged):",
            "",
            "| at | phase | Daphne RSS MiB | Redis subs (server channels + patterns) | "
            "Redis memory MiB | sessions | presence | watchers | CPU since the previous sample, "
            "% of one core |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for s in samples:
            d = s.detail
            rss = ", ".join(f"{m:,.0f}" for m in d.get("rss", []))
            subs = (
                f"{d['subscriptions']} ({d['channels']} + {d['patterns']})"
                if "subscriptions" in d
                else "-"
            )
            memory = f"{d['used_memory'] / MIB:,.1f}" if "used_memory" in d else "-"
            rows = d["rows"]
            mark = "*" if id(s) in judged else ""
            lines.append(
                f"| {clock(s.at).strip()}{mark} | {'flood' if s.flood else 'quiet'} | {rss} | "
                f"{subs} | {memory} | {rows['sessions']:,} | {rows['presence']:,} | "
                f"{rows['watchers']:,} | {stack_cpu(d['cpu'])} |"
            )
        lines += [
            "",
            "Players' draw latency (each seat's receipt of the `state` carrying a draw, from "
            "the drawing bot's send; the first seconds after each switch not counted):",
            "",
            "| phase | receipts | p50 ms | p99 ms | every seat p99 ms |",
            "|---|---|---|---|---|",
            f"| without the flood | {r['quiet_n']:,} | {number(r['quiet_p50'], 1)} | "
            f"{number(r['quiet_p99'], 1)} | {number(r['every_p99']['quiet'], 1)} |",
        ]
        if flooded:
            ratio = r["flood_p99"] / r["quiet_p99"] if r["quiet_p99"] else float("nan")
            lines.append(
                f"| with the flood | {r['flood_n']:,} | {number(r['flood_p50'], 1)} | "
                f"{number(r['flood_p99'], 1)} ({ratio:.1f}x) | "
                f"{number(r['every_p99']['flood'], 1)} |"
            )
        errors = ", ".join(f"{n} {w}" for w, n in r["errors"].most_common()) or "none"
        visitor_errors = ", ".join(f"{n} {w}" for w, n in r["visitor_errors"].most_common())
        health = ", ".join(f"{n} x {k}" for k, n in r["healthz"].most_common())
        lines += [
            "",
            f"{r['draws']:,} draws reached every seat; players' errors: {errors}; "
            f"spectators' and lobby errors: {visitor_errors or 'none'}; /healthz: {health}.",
            "",
            "**Verdict: "
            + (
                "passed**."
                if not failures
                else "failed**: " + "; ".join(f[5:] for f in failures) + "."
            )
            + f" (Each figure may rise past its level after a {warm:g} s warm-up by at most: "
            + "; ".join(
                f"{name} {limit.ratio:.0%} or {limit.absolute:g} {limit.unit}".rstrip()
                for name, limit in LIMITS.items()
            )
            + f"; the players' p99 with the flood at most {FLOOD_FACTOR:g}x without it.)",
            "",
            END,
        ]
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    Command().run_from_argv(
        ["python -m", "tools.soak", *(argv if argv is not None else sys.argv[1:])]
    )


if __name__ == "__main__":
    main()
