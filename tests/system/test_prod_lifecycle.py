"""A running site's lifecycle through `scripts/prod.sh`, with games in play through nginx:
a rolling upgrade, a process killed and started again, scheduled maintenance, backups and
a restore, the secret key rotated (docs/operations.md)."""

import asyncio
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from django.test import override_settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from config.daphne_shutdown import RESTARTING
from tests.support import ROOT, needs_services
from tests.system.private import room_record, setup_room
from tests.system.prod_site import SCRIPT, UNVERIFIED, Page, can_have_nginx, fetch, until

pytestmark = [pytest.mark.django_db(transaction=True), needs_services, can_have_nginx]

# A match of five rounds lasts about a minute at this pace: play goes on past the upgrade.
PACED = pytest.mark.prod_env(COMPUTER_DELAY_SECONDS="0.3", SEAT_GRACE_SECONDS="60")


def site_room(prod, seats=4, humans=2, rounds=5) -> dict:
    """A started room whose players' sessions the site's own key signed."""
    with override_settings(SECRET_KEY=(prod.dir / "secret_key").read_text().strip()):
        return setup_room(seats, humans, rounds)


def played_on(pages, before: int):
    """Five more draws seen by every page (or the match is over)."""
    return lambda: (
        min(len(p.draws) for p in pages) >= before + 5
        or any(p.state["match"]["over"] for p in pages)
    )


class Requests:
    """Pages asked for through nginx until stopped, four a second (within nginx's limit
    per address, docs/operations.md, "Limits"): what failed."""

    def __init__(self, prod):
        self.urls = [f"{prod.base}/healthz", f"{prod.base}/rules/"]
        self.failures: list[str] = []
        self.answered = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for url in self.urls:
                try:
                    status, _, _ = fetch(url)
                except OSError as error:
                    self.failures.append(f"{url}: {error!r}")
                    continue
                self.answered += 1
                if status != 200:
                    self.failures.append(f"{url}: {status}")
                self._stop.wait(0.25)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=120)


def draws_stored(room_id: int) -> dict[tuple, tuple]:
    record = room_record(room_id)
    return {
        (r["match"], r["round"], number): (drawer, position)
        for r in record["rounds"]
        for number, drawer, _giver, position, _card in r["draws"]
    }


async def while_playing(prod, pages, during):
    """``during()`` while the pages play and pages are asked for through nginx; play goes
    on after it. What it returned, and the requests."""
    done = asyncio.Event()
    playing = [asyncio.create_task(page.run(done)) for page in pages]
    await until(lambda: all(p.state and p.state["round"]["draws"] >= 5 for p in pages))
    with Requests(prod) as requests:
        result = await during()
        await until(played_on(pages, max(len(p.draws) for p in pages)))
    done.set()
    await asyncio.wait_for(asyncio.gather(*playing), 60)
    return result, requests


@PACED
def test_a_rolling_upgrade_with_games_in_play_refuses_nothing_and_loses_no_draw(prod):
    room = site_room(prod)
    pages = [Page(prod, room["code"], key) for key in room["sessions"]]

    async def upgrade():
        return await asyncio.to_thread(prod.script, "upgrade", timeout=300)

    started = time.monotonic()
    upgrade, requests = asyncio.run(while_playing(prod, pages, upgrade))
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
    assert "daphne-1 restarted" in upgrade.stderr and "daphne-2 restarted" in upgrade.stderr
    assert requests.failures == [] and requests.answered > 0
    for page in pages:
        # Told to reconnect (the room's process restarted), and back at the first try.
        assert page.close_codes and set(page.close_codes) == {RESTARTING}, page.close_codes
        assert page.refused == []
        assert len(page.gaps) == len(page.close_codes)
    stored = draws_stored(room["room_id"])
    for page in pages:
        assert page.draws.items() <= stored.items()  # every draw a page saw is kept
    gaps = sorted(g for p in pages for g in p.gaps)
    print(
        f"rolling upgrade: {requests.answered} requests, none refused; "
        f"{len(gaps)} reconnects, longest gap {gaps[-1]:.2f} s; "
        f"{len(stored)} draws stored; {time.monotonic() - started:.1f} s in all"
    )


@PACED
def test_a_killed_daphne_is_started_again_while_nginx_and_the_other_go_on_serving(prod):
    room = site_room(prod)
    pages = [Page(prod, room["code"], key) for key in room["sessions"]]

    async def kill_one():
        killed = prod.pid(1)
        os.kill(killed, signal.SIGKILL)
        began = asyncio.get_running_loop().time()
        await until(lambda: _restarted(prod, 1, killed))
        status = await asyncio.to_thread(_healthy, prod)
        return status, asyncio.get_running_loop().time() - began

    (status, back), requests = asyncio.run(while_playing(prod, pages, kill_one))
    assert status.returncode == 0, status.stdout + status.stderr
    assert requests.failures == [] and requests.answered > 0
    log = (prod.dir / "log" / "prod.log").read_text()
    assert "daphne-1 (pid" in log and "exited with status 137; starting it again" in log
    stored = draws_stored(room["room_id"])
    for page in pages:
        assert page.draws.items() <= stored.items()
    print(f"kill -9 of one Daphne process: it serves again after {back:.2f} s")


def _restarted(prod, slot: int, killed: int) -> bool:
    try:
        return prod.pid(slot) != killed
    except (FileNotFoundError, ValueError):  # between the supervisor's writes
        return False


def _healthy(prod):
    """`status` once it says healthy (each process and /healthz), or its last answer."""
    deadline = time.monotonic() + 120
    while True:
        status = prod.script("status", timeout=60)
        if status.returncode == 0 or time.monotonic() > deadline:
            return status
        time.sleep(0.1)


def test_serve_refuses_a_prod_dir_that_was_never_prepared(tmp_path):
    result = subprocess.run(
        ["bash", SCRIPT, "serve"],
        env={**os.environ, "PROD_DIR": str(tmp_path / "empty")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "nothing prepared in" in result.stderr and "scripts/prod.sh prepare" in result.stderr


# -- scheduled maintenance, backups and a restore -------------------------------------------


def cron_command(prod, name: str) -> str:
    """The command of `config cron`'s line that runs ``name``."""
    lines = prod.script("config", "cron").stdout.splitlines()
    (line,) = [x for x in lines if x.endswith(f" {name}") and not x.startswith("#")]
    return line.split(None, 6)[6]  # minute hour day month weekday user command


def as_cron_runs(command: str) -> subprocess.CompletedProcess:
    """With cron's bare environment: none of the site's variables."""
    return subprocess.run(
        ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", "SHELL=/bin/bash", "bash", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_cron_lines_act_on_the_production_database_from_crons_bare_environment(prod):
    import datetime

    from telemetry.models import Event

    old = Event.objects.create(
        kind="game_started", date=datetime.date(2020, 1, 1), variant="babanuki",
        mode="computer", phone="no", browser="firefox", os="linux",
    )  # fmt: skip
    checkout_sqlite = ROOT / "db.sqlite3"
    sqlite_before = checkout_sqlite.stat().st_mtime if checkout_sqlite.exists() else None

    purged = as_cron_runs(cron_command(prod, "purge_telemetry"))
    assert purged.returncode == 0, purged.stdout + purged.stderr
    assert "deleted 1 events" in purged.stdout
    assert not Event.objects.filter(pk=old.pk).exists()
    cleared = as_cron_runs(cron_command(prod, "clearsessions"))
    assert cleared.returncode == 0, cleared.stdout + cleared.stderr
    # Not the development database: nothing made or touched in the checkout.
    sqlite_after = checkout_sqlite.stat().st_mtime if checkout_sqlite.exists() else None
    assert sqlite_after == sqlite_before


@pytest.mark.prod_env(BACKUP_KEEP="2")
def test_backups_are_private_rotated_and_a_restore_drill_brings_the_data_back(prod):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    users.create_user(username="before-backup")
    backup = as_cron_runs(cron_command(prod, "backup"))
    assert backup.returncode == 0, backup.stdout + backup.stderr
    for _ in range(2):  # three in all: the oldest goes
        assert prod.script("backup").returncode == 0
    backups = sorted((prod.dir / "backups").glob("oldmaid-*.dump"))
    assert len(backups) == 2
    assert (prod.dir / "backups").stat().st_mode & 0o777 == 0o700
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in backups)

    users.filter(username="before-backup").delete()
    users.create_user(username="after-backup")
    refused = prod.script("restore", str(backups[-1]))
    assert refused.returncode == 1 and "stop the site first" in refused.stderr

    drill = time.monotonic()
    assert prod.script("stop").returncode == 0
    restored = prod.script("restore", str(backups[-1]))
    assert restored.returncode == 0, restored.stdout + restored.stderr
    started = prod.script("start")
    assert started.returncode == 0, started.stdout + started.stderr
    took = time.monotonic() - drill
    assert set(users.values_list("username", flat=True)) == {"before-backup"}
    status, _, _ = fetch(f"{prod.base}/healthz")
    assert status == 200
    print(f"restore drill (stop, restore, start): {took:.1f} s")


# -- rotating the secret key ------------------------------------------------------------------


async def seats_seen(prod, code: str, session_key: str) -> list[int] | int:
    """What a player's table socket through nginx says: the seats it plays, or the close
    code it was refused with."""
    try:
        async with connect(
            f"wss://127.0.0.1:{prod.https}/ws/rooms/{code}/",
            ssl=UNVERIFIED,
            origin=prod.base,
            additional_headers={"Cookie": f"sessionid={session_key}"},
            open_timeout=30,
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 30))["you"]
    except ConnectionClosed as closed:
        return closed.rcvd.code


class SiteSession:
    """A browser's cookie for the site: it follows the session cookie pages set."""

    def __init__(self, prod, code: str, session_key: str):
        self.prod, self.code, self.session_key = prod, code, session_key

    def seats(self) -> list[int] | int:
        return asyncio.run(seats_seen(self.prod, self.code, self.session_key))

    def profile(self) -> int:
        status, headers, _ = fetch(
            f"{self.prod.base}/accounts/profile/",
            headers={"Cookie": f"sessionid={self.session_key}"},
        )
        found = re.search(r"sessionid=([^;]+)", headers.get("Set-Cookie", ""))
        if found:
            self.session_key = found[1]
        return status


def test_rotating_the_secret_key_keeps_sessions_and_seats_until_the_old_key_is_retired(prod):
    room = site_room(prod, seats=3, humans=2, rounds=1)
    # One plays on while the key changes; the other comes back only after retire-keys.
    playing, away = (SiteSession(prod, room["code"], key) for key in room["sessions"])
    assert (playing.seats(), away.seats()) == ([0], [1])
    assert playing.profile() == 200
    old_key = (prod.dir / "secret_key").read_text()

    rotated = prod.script("rotate-key", timeout=300)
    assert rotated.returncode == 0, rotated.stdout + rotated.stderr
    assert rotated.stderr.count("daphne-1 restarted") == 2  # accept the new key, then sign
    assert (prod.dir / "secret_key").read_text() != old_key
    assert (prod.dir / "secret_key_fallbacks").read_text() == old_key
    for name in ("secret_key", "secret_key_fallbacks", "env"):
        assert (prod.dir / name).stat().st_mode & 0o777 == 0o600, name
    # Signed under the old key, still accepted: the seat still theirs, still signed in
    # (the page re-signs the session with the new key).
    assert playing.seats() == [0]
    assert playing.profile() == 200
    assert playing.seats() == [0]

    retired = prod.script("retire-keys", timeout=300)
    assert retired.returncode == 0, retired.stdout + retired.stderr
    assert (prod.dir / "secret_key_fallbacks").read_text() == ""
    # The re-signed session lives on; the one the old key alone signed is nobody's now.
    assert playing.seats() == [0] and playing.profile() == 200
    assert away.seats() in ([], 4403)
    assert away.profile() == 302
    logs = "".join(p.read_text() for p in (prod.dir / "log").glob("daphne-*.log"))
    assert "Traceback" not in logs


# -- least privilege -------------------------------------------------------------------------

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root's processes drop to another user")


def prod_env_as_root(prod_dir: Path) -> dict:
    """`scripts/prod.sh` as root runs it, with its defaults for the users (DAPHNE_USER
    oldmaid, NGINX_USER www-data), one Daphne process and ports of its own."""
    from tests.support import database_url_for_tests, free_ports

    https, http, first, _ = free_ports(4)
    return {
        **{k: v for k, v in os.environ.items() if k not in ("DAPHNE_USER", "NGINX_USER")},
        "PROD_DIR": str(prod_dir),
        "HTTPS_PORT": str(https),
        "HTTP_PORT": str(http),
        "LISTEN_ADDRESS": "127.0.0.1",
        "DAPHNE_FIRST_PORT": str(first),
        "WEB_PROCESSES": "1",
        "DATABASE_URL": database_url_for_tests(),
    }


def run_script(env: dict, command: str) -> subprocess.CompletedProcess:
    # A bound for a failure only: a first `prepare` installs the site's packages, behind
    # the install lock other tests' prod sites may hold (over 300 s on a loaded machine).
    return subprocess.run(
        ["bash", SCRIPT, command], env=env, capture_output=True, text=True, timeout=900
    )


def ids(pid: int) -> dict[str, list[str]]:
    """A process's uids and gids (real, effective, saved, filesystem) and groups."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {
        line.split(":")[0]: line.split()[1:]
        for line in status
        if line.startswith(("Uid:", "Gid:", "Groups:"))
    }


AS_OLDMAID = ["setpriv", "--reuid=oldmaid", "--regid=oldmaid", "--init-groups", "--"]


def key_files(prod_dir: Path) -> dict[str, tuple[int, int, int]]:
    """Each secret key file's mode, owner and group."""
    stats = {name: (prod_dir / name).stat() for name in ("secret_key", "secret_key_fallbacks")}
    return {name: (s.st_mode & 0o777, s.st_uid, s.st_gid) for name, s in stats.items()}


@as_root
def test_roots_daphne_processes_run_as_their_own_user_from_a_copy_it_cannot_change():
    """As root, `start` makes the system user oldmaid, lets its group read the secret key
    files (root's, 0640) and runs every Daphne process as it, nginx's workers as www-data.
    The processes run a copy of the code and a venv of their own in PROD_DIR/app, which
    only root may change: the checkout, and its venv's Python, may lie where oldmaid cannot
    go (under /root here and on CI)."""
    place = Path(tempfile.mkdtemp(prefix="oldmaid-prod-"))  # a PROD_DIR others may enter
    place.chmod(0o711)
    prod_dir = place / "prod"
    env = prod_env_as_root(prod_dir)
    pid = None
    try:
        began = time.monotonic()
        started = run_script(env, "start")
        took = time.monotonic() - began
        assert started.returncode == 0, started.stdout + started.stderr
        oldmaid = pwd.getpwnam("oldmaid")
        assert key_files(prod_dir) == {
            "secret_key": (0o640, 0, oldmaid.pw_gid),
            "secret_key_fallbacks": (0o640, 0, oldmaid.pw_gid),
        }
        assert (prod_dir / "env").stat().st_mode & 0o777 == 0o600

        pid = int((prod_dir / "run" / "daphne-1.pid").read_text())
        daphne = ids(pid)
        assert daphne["Uid"] == [str(oldmaid.pw_uid)] * 4, daphne
        assert daphne["Gid"] == [str(oldmaid.pw_gid)] * 4, daphne
        assert daphne["Groups"] == [str(oldmaid.pw_gid)], daphne
        # nginx's master stays root (ports, logs, the key); its workers drop.
        nginx = int((prod_dir / "run" / "nginx.pid").read_text())
        workers = subprocess.run(
            ["pgrep", "-P", str(nginx)], capture_output=True, text=True, check=True
        ).stdout.split()
        www_data = str(pwd.getpwnam("www-data").pw_uid)
        assert workers and all(ids(int(w))["Uid"] == [www_data] * 4 for w in workers)

        # The copy it runs: its code's directory and its interpreter in PROD_DIR/app, owned
        # by root and written by nobody else.
        code = Path(os.readlink(f"/proc/{pid}/cwd"))
        python = Path(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode())
        venv = python.parent.parent
        assert code.parent == venv.parent == prod_dir / "app"
        for path in (code, code / "config" / "settings.py", venv):
            mode = path.stat()
            assert mode.st_uid == 0 and mode.st_mode & 0o022 == 0, path
        written = subprocess.run(
            [*AS_OLDMAID, "touch", str(code / "config" / "x.py")], capture_output=True
        )
        assert written.returncode != 0

        # The site answers through nginx: a page (templates, the static manifest) and /healthz.
        base = f"https://127.0.0.1:{env['HTTPS_PORT']}"
        status, _, body = fetch(f"{base}/healthz")
        assert (status, json.loads(body)["status"]) == (200, "ok")
        status, _, _ = fetch(f"{base}/rules/")
        assert status == 200
        print(
            f"start as root: {took:.1f} s; daphne-1 (pid {pid}) Uid {' '.join(daphne['Uid'])} "
            f"Gid {' '.join(daphne['Gid'])} (oldmaid {oldmaid.pw_uid}:{oldmaid.pw_gid}), "
            f"cwd {code}, {python}"
        )
    finally:
        stopped = run_script(env, "stop")
        shutil.rmtree(place, ignore_errors=True)
    assert stopped.returncode == 0
    assert pid is None or not Path(f"/proc/{pid}").exists()


@as_root
def test_the_secret_key_files_stay_roots_readable_not_writable_by_oldmaid_after_rotate_key():
    """Root's: a Daphne process (oldmaid) reads the keys but cannot change them, so it
    cannot plant one that rotate-key would carry forward; rotate-key keeps the modes."""
    place = Path(tempfile.mkdtemp(prefix="oldmaid-prod-"))  # a PROD_DIR others may enter
    place.chmod(0o711)
    prod_dir = place / "prod"
    env = prod_env_as_root(prod_dir)

    def as_oldmaid(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run([*AS_OLDMAID, *command], capture_output=True, text=True)

    def held_by_root_for_oldmaid() -> None:
        gid = pwd.getpwnam("oldmaid").pw_gid
        assert key_files(prod_dir) == {
            "secret_key": (0o640, 0, gid),
            "secret_key_fallbacks": (0o640, 0, gid),
        }
        for name in ("secret_key", "secret_key_fallbacks"):
            path = str(prod_dir / name)
            read = as_oldmaid("cat", path)
            assert read.returncode == 0 and read.stdout == (prod_dir / name).read_text()
            assert as_oldmaid("sh", "-c", f": >>{path}").returncode != 0, name
        planted = as_oldmaid("sh", "-c", f"echo planted >{prod_dir}/secret_key_fallbacks.new")
        assert planted.returncode != 0

    try:
        prepared = run_script(env, "prepare")
        assert prepared.returncode == 0, prepared.stdout + prepared.stderr
        held_by_root_for_oldmaid()
        old_key = (prod_dir / "secret_key").read_text()
        rotated = run_script(env, "rotate-key")
        assert rotated.returncode == 0, rotated.stdout + rotated.stderr
        assert (prod_dir / "secret_key_fallbacks").read_text() == old_key
        held_by_root_for_oldmaid()
    finally:
        shutil.rmtree(place, ignore_errors=True)


@as_root
def test_root_refuses_to_start_where_the_daphne_processes_user_cannot_reach_prod_dir(tmp_path):
    """pytest's directory is root's alone: `start` says why it cannot go on, and nothing
    runs."""
    tmp_path.chmod(0o700)
    env = prod_env_as_root(tmp_path / "prod")
    started = run_script(env, "start")
    assert started.returncode == 1
    assert "the Daphne processes' user oldmaid cannot reach" in started.stderr, started.stderr
    assert "set PROD_DIR to a place it may enter" in started.stderr
    assert run_script(env, "status").returncode == 3
