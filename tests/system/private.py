"""Private PostgreSQL and Redis servers that a test may stop and restart without
disturbing the shared ones, and a way to run Django code against them in a subprocess.

``python -m tests.system.private setup|draws ...`` is that subprocess: it prints JSON.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support import ROOT, free_port


def _wait_for_port(port: int, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"exited with {proc.returncode} before listening on {port}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on {port} within {timeout} s")


class PrivateRedis:
    """A redis-server of our own on a free port, without persistence (so a restart loses
    everything in it, as a real restart without a dump does)."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            raise RuntimeError("redis-server is not installed")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="oldmaid-redis-")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        log = open(Path(self.dir) / "redis.log", "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", self.dir,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        _wait_for_port(self.port, 60, self.proc)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # no clean shutdown: everything in memory is gone
            self.proc.wait(timeout=10)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def _postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version_key)
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed")
    return path


def _version_key(path: str) -> tuple:
    part = path.split("/")[4]
    return tuple(int(x) if x.isdigit() else 0 for x in part.split("."))


class PrivatePostgres:
    """A PostgreSQL cluster of our own (initdb in a temporary directory, a free port,
    trust authentication on 127.0.0.1). PostgreSQL refuses to run as root, so as root
    the cluster belongs to, and runs as, the ``postgres`` user."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="oldmaid-pg-")
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "postgres.log")
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            import pwd

            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str, timeout: float = 180) -> None:
        result = subprocess.run(
            [*self.as_user, *command], capture_output=True, text=True, timeout=timeout
        )
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout}\n{result.stderr}")

    def init(self) -> PrivatePostgres:
        self._run(
            _postgres_bin("initdb"),
            "-D", self.data,
            "-U", "postgres",
            "--auth=trust",
            "-E", "UTF8",
            "--locale=C",
            "--no-sync",
        )  # fmt: skip
        return self.start()

    def start(self) -> PrivatePostgres:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
            # No fsync: a crash of PostgreSQL loses nothing committed, only an OS crash would.
            "-c fsync=off -c full_page_writes=off"
        )
        self._run(
            _postgres_bin("pg_ctl"), "start", "-D", self.data, "-l", self.log,
            "-o", options, "-w", "-t", "120",
        )  # fmt: skip
        _wait_for_port(self.port, 120)
        return self

    def stop(self, mode: str = "fast") -> None:
        """``immediate`` is a crash: no checkpoint, recovery on the next start."""
        if not os.path.exists(os.path.join(self.data, "postmaster.pid")):
            return
        self._run(_postgres_bin("pg_ctl"), "stop", "-D", self.data, "-m", mode, "-w", "-t", "120")

    def running(self) -> bool:
        """Whether the cluster's postmaster runs (``pg_ctl status``)."""
        result = subprocess.run(
            [*self.as_user, _postgres_bin("pg_ctl"), "status", "-D", self.data],
            capture_output=True,
            timeout=60,
        )
        return result.returncode == 0

    def answers(self, timeout: float = 120) -> None:
        """Until a new connection runs ``SELECT 1`` (a cluster still recovering from a
        crash refuses connections for a while); RuntimeError past ``timeout``."""
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            try:
                with psycopg.connect(self.url, connect_timeout=5) as connection:
                    connection.execute("SELECT 1")
                return
            except psycopg.OperationalError as error:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"PostgreSQL did not answer within {timeout} s") from error
                time.sleep(0.1)

    def close(self) -> None:
        try:
            self.stop("immediate")
        except Exception:  # last resort: do not leave a server running
            pid_file = os.path.join(self.data, "postmaster.pid")
            if os.path.exists(pid_file):
                with contextlib.suppress(OSError, ValueError):
                    os.kill(int(Path(pid_file).read_text().split()[0]), signal.SIGQUIT)
        shutil.rmtree(self.dir, ignore_errors=True)


def django_env(database_url: str, redis_url: str | None = None) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
    }
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    return env


def run_django(env: dict, *args: str, timeout: float = 120):
    """Run ``python -m tests.system.private ARGS`` (or ``manage.py`` when the first
    argument is ``manage``) against ``env``; the JSON it prints."""
    if args[0] == "manage":
        command = [sys.executable, str(ROOT / "manage.py"), *args[1:]]
    else:
        command = [sys.executable, "-m", "tests.system.private", *args]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    if args[0] == "manage":
        return None
    return json.loads(result.stdout.strip().splitlines()[-1])


# -- the subprocess ------------------------------------------------------------------------


def setup_room(seats: int, humans: int, rounds: int) -> dict:
    """A started friends room: ``humans`` signed-in players, computers in the rest."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from tests.rooms import friends_room
    from tools.sessions import signed_in_session

    sessions, users = [], []
    stamp = f"{os.getpid()}x{time.monotonic_ns() % 10**9}"
    for i in range(humans):
        user = get_user_model().objects.create_user(username=f"p{i}-{stamp}")
        session = SessionStore()
        session.update(signed_in_session(user))
        session.create()
        sessions.append(session.session_key)
        users.append(user)
    joined = {f"p{i}": user for i, user in enumerate(users[1:], start=1)}
    room = friends_room(
        users[0], joined, name="p0", seats=seats, rounds=rounds, start=True, fill=True
    )
    return {"room_id": room.pk, "code": room.code, "sessions": sessions}


def room_record(room_id: int) -> dict:
    """What the database holds for a room, checked for consistency: every round replays
    from its deal and its Draw rows to exactly the stored live state, and its draws are
    numbered 1..n with n the state's draw count (none lost, none applied twice)."""
    from django.db import connection, transaction

    with transaction.atomic():
        if connection.vendor == "postgresql":  # one snapshot, though play may go on
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _room_record(room_id)


def _room_record(room_id: int) -> dict:
    from games.models import Room, Round
    from games.replay import replay_steps

    room = Room.objects.get(pk=room_id)
    rounds = []
    for rnd in Round.objects.filter(match__room=room).order_by("match__number", "number"):
        steps = replay_steps(rnd)  # raises ReplayMismatch on any inconsistency
        draws = [
            [d.number, d.drawer, d.giver, d.position, d.card] for d in rnd.draws.order_by("number")
        ]
        numbers = [d[0] for d in draws]
        assert numbers == list(range(1, len(draws) + 1)), numbers
        assert rnd.state["draws"] == len(draws), (rnd.state["draws"], len(draws))
        assert steps[-1]["hands"] == rnd.state["hands"], "the stored hands do not replay"
        rounds.append(
            {
                "match": rnd.match.number,
                "round": rnd.number,
                "over": rnd.finished_at is not None,
                "draws": draws,
            }
        )
    return {"version": room.version, "status": room.status, "rounds": rounds}


def main(argv: list[str]) -> None:
    import django

    django.setup()
    command, *rest = argv
    if command == "setup":
        seats, humans, rounds = (int(x) for x in rest)
        result = setup_room(seats, humans, rounds)
    elif command == "draws":
        result = room_record(int(rest[0]))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
