"""The production site's credentials (docs/operations.md, "Credentials"): PostgreSQL and
Redis let in only a client that holds them, and no command line shows them.

A site an earlier release prepared is upgraded here as an operator upgrades one: its env
file names PostgreSQL's superuser with the well-known password scripts/services.sh gave
it, and the machine's Redis, which has no password; its database was migrated as that
superuser. PostgreSQL is a cluster of the test's own, authenticating as Debian's does (peer
over the unix socket, SCRAM over TCP), so that a wrong or missing password is refused."""

import asyncio
import getpass
import json
import os
import re
import socket
import subprocess
from urllib.parse import urlsplit

import psycopg
import pytest

from tests.support import free_ports, needs_services
from tests.system.private import PrivatePostgres, _postgres_bin, django_env, run_django
from tests.system.prod_site import Page, Site, can_have_nginx, fetch, until

pytestmark = [needs_services, can_have_nginx]

as_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="a cluster with peer authentication runs as the postgres user"
)


class DebianPostgres(PrivatePostgres):
    """A private cluster that authenticates as a fresh Debian one does: peer over the unix
    socket, SCRAM passwords over TCP."""

    def init(self) -> "DebianPostgres":
        self._run(
            _postgres_bin("initdb"),
            "-D", self.data,
            "-U", "postgres",
            "--auth-local=peer",
            "--auth-host=scram-sha-256",
            "-E", "UTF8",
            "--locale=C",
            "--no-sync",
        )  # fmt: skip
        return self.start()

    def psql(self, statement: str, database: str = "postgres") -> str:
        """``statement`` as the superuser, over the unix socket (peer)."""
        result = subprocess.run(
            [*self.as_user, "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
            + ["-h", self.dir, "-p", str(self.port), "-d", database],
            input=statement,
            capture_output=True,
            text=True,
            timeout=60,
            cwd="/",
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()


def refused(port: int, user: str, password: str | None) -> str:
    """Why PostgreSQL refuses ``user`` over TCP (the assertion fails if it lets them in)."""
    with pytest.raises(psycopg.OperationalError) as refusal:
        psycopg.connect(
            host="127.0.0.1", port=port, dbname="oldmaid", user=user, password=password,
            connect_timeout=10,
        ).close()  # fmt: skip
    return str(refusal.value)


def redis_answers(port: int, *commands: bytes) -> list[bytes]:
    """The first line Redis answers to each command, sent without signing in."""
    answers = []
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        reader = connection.makefile("rb")
        for command in commands:
            connection.sendall(command + b"\r\n")
            answers.append(reader.readline().strip())
    return answers


@pytest.fixture
def upgraded_site(tmp_path):
    """An earlier release's site on a Debian-like cluster, started by today's prod.sh."""
    pg = DebianPostgres()
    try:
        pg.init()
        pg.psql("ALTER ROLE postgres PASSWORD 'postgres'")  # what services.sh used to do
        pg.psql("CREATE DATABASE oldmaid")
        old_url = f"postgres://postgres:postgres@127.0.0.1:{pg.port}/oldmaid"
        run_django(django_env(old_url), "manage", "migrate", "--noinput", "-v", "0")
        prod_dir = tmp_path / "prod"
        prod_dir.mkdir()
        env_file = prod_dir / "env"
        env_file.write_text(
            "# Written by scripts/prod.sh: source it to use the production database and Redis.\n"
            "export DJANGO_SETTINGS_MODULE=config.settings\n"
            "export DEBUG=0\n"
            f"export DATABASE_URL={old_url}\n"
            "export REDIS_URL=redis://127.0.0.1:6379/1\n"
        )
        env_file.chmod(0o600)
        https, http, first, _second, redis = free_ports(5)
        env = {
            name: value
            for name, value in os.environ.items()
            if name not in ("DATABASE_URL", "REDIS_URL")  # as the env file has them
        }
        site = Site(
            prod_dir,
            https,
            http,
            first,
            {
                **env,
                "PROD_DIR": str(prod_dir),
                "HTTPS_PORT": str(https),
                "HTTP_PORT": str(http),
                "LISTEN_ADDRESS": "127.0.0.1",
                "DAPHNE_FIRST_PORT": str(first),
                "WEB_PROCESSES": "2",
                "REDIS_PORT": str(redis),
                "NGINX_USER": getpass.getuser(),  # as the prod fixture does (prod_site.py)
                "DAPHNE_USER": getpass.getuser(),
                "COMPUTER_DELAY_SECONDS": "0.3",
                # The local superuser's socket (peer), where prod.sh makes the site's role.
                "PGHOST": pg.dir,
            },
        )
        started = site.script("start", timeout=300)
        try:
            assert started.returncode == 0, started.stdout + started.stderr
            site.started = started
            site.postgres = pg
            yield site
        finally:
            stopped = site.script("stop", timeout=60)
            assert stopped.returncode == 0, stopped.stderr
    finally:
        pg.close()


def recorded(site: Site) -> dict[str, str]:
    """The env file's variables, as prod.sh wrote them (printf %q: these need no quoting)."""
    found = re.findall(r"^export ([A-Z_]+)=(.*)$", (site.dir / "env").read_text(), re.M)
    return dict(found)


@as_root
def test_after_an_upgrade_postgres_and_redis_refuse_local_clients_without_the_sites_credentials_and_the_site_plays(  # noqa: E501
    upgraded_site,
):
    site = upgraded_site
    pg_port = site.postgres.port
    assert (site.dir / "env").stat().st_mode & 0o777 == 0o600
    settings = recorded(site)
    database = urlsplit(settings["DATABASE_URL"])
    assert (database.username, database.port, database.path) == ("oldmaid", pg_port, "/oldmaid")
    assert len(database.password) >= 32
    redis = urlsplit(settings["REDIS_URL"])
    assert (redis.hostname, redis.port) == ("127.0.0.1", int(site.env["REDIS_PORT"]))
    assert len(redis.password) >= 32

    # PostgreSQL: the site's role is an ordinary one, owning the earlier release's tables.
    role = site.postgres.psql(
        "SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = 'oldmaid'"
    )
    assert role == "f|f|f"
    owners = site.postgres.psql(
        "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'", "oldmaid"
    )
    assert owners == "oldmaid"
    # ... and a local client over TCP gets in with neither the old password nor none.
    assert "password authentication failed" in refused(pg_port, "postgres", "postgres")
    assert "password" in refused(pg_port, "oldmaid", None)
    assert "password authentication failed" in refused(pg_port, "oldmaid", "postgres")
    assert "well-known password" in site.started.stderr

    # Redis: nothing without the password, a room's messages least of all.
    noauth = redis_answers(redis.port, b"PING", b"PSUBSCRIBE *", b"KEYS *")
    assert all(answer.startswith(b"-NOAUTH") for answer in noauth), noauth
    signed_in = redis_answers(redis.port, f"AUTH {redis.password}".encode(), b"PING")
    assert signed_in == [b"+OK", b"+PONG"]

    # The site plays through nginx on them: a friends room of two players and a computer.
    status, _, body = fetch(f"{site.base}/healthz")
    assert (status, json.loads(body)["status"]) == (200, "ok"), body
    players = {
        **django_env(settings["DATABASE_URL"]),
        "SECRET_KEY_FILE": str(site.dir / "secret_key"),  # the site's key signs the sessions
    }
    room = run_django(players, "setup", "3", "2", "1")
    pages = [Page(site, room["code"], key) for key in room["sessions"]]

    async def play():
        done = asyncio.Event()
        playing = [asyncio.create_task(page.run(done)) for page in pages]
        await until(
            lambda: all(p.state and (len(p.draws) >= 3 or p.state["match"]["over"]) for p in pages)
        )
        done.set()
        await asyncio.wait_for(asyncio.gather(*playing), 60)

    asyncio.run(play())
    stored = run_django(players, "draws", str(room["room_id"]))
    draws = {
        (r["match"], r["round"], number): (drawer, position)
        for r in stored["rounds"]
        for number, drawer, _giver, position, _card in r["draws"]
    }
    for page in pages:
        assert page.draws and page.draws.items() <= draws.items()
    assert site.script("stop", timeout=60).returncode == 0  # every line written
    logs = "".join(path.read_text() for path in (site.dir / "log").glob("daphne-*.log"))
    assert "Traceback" not in logs


@pytest.mark.django_db(transaction=True)  # the prod fixture's site on the test database
def test_pg_dump_and_pg_restore_get_no_password_on_their_command_line(prod, tmp_path):
    """What prod.sh runs them with, recorded by stand-ins first on PATH that then run the
    real ones: the password reaches them only through the environment (a passfile)."""
    shims = tmp_path / "shims"
    shims.mkdir()
    calls = tmp_path / "calls"
    calls.mkdir()
    for tool in ("pg_dump", "pg_restore"):
        shim = shims / tool
        shim.write_text(
            "#!/bin/bash\n"
            f'printf "%s\\0" "$0" "$@" >"{calls}/{tool}.$$"\n'
            f'PATH=${{PATH#"{shims}:"}} exec {tool} "$@"\n'
        )
        shim.chmod(0o755)
    path = {"PATH": f"{shims}:{os.environ['PATH']}"}

    backup = prod.script("backup", env=path)
    assert backup.returncode == 0, backup.stdout + backup.stderr
    assert prod.script("stop").returncode == 0
    (dump,) = (prod.dir / "backups").glob("oldmaid-*.dump")
    restored = prod.script("restore", str(dump), env=path)
    assert restored.returncode == 0, restored.stdout + restored.stderr

    password = urlsplit(recorded(prod)["DATABASE_URL"]).password
    assert password
    commands = {
        path.name.split(".")[0]: path.read_bytes().decode().split("\0")[:-1]
        for path in calls.iterdir()
    }
    assert sorted(commands) == ["pg_dump", "pg_restore"]
    for tool, arguments in commands.items():
        for argument in arguments:
            assert password not in argument, (tool, argument)
            assert not re.search(r"//[^/@]*:[^/@]*@", argument), (tool, argument)
            assert "password=" not in argument, (tool, argument)
    assert not list(prod.dir.rglob(".pgpass*")), "the passfiles are deleted"
