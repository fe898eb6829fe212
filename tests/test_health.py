"""GET /healthz: 200 when the database and the channel layer answer, 503 naming the part
that does not, and nothing more."""

import asyncio
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from config import health
from tests.support import ROOT, free_port

pytestmark = pytest.mark.django_db


def test_ok_when_everything_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok"},
    }
    assert "no-store" in response["Cache-Control"]


def test_a_failing_part_is_named_without_details(client, monkeypatch):
    async def broken():
        raise RuntimeError("password=hunter2 at db.internal:5432")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "checks": {"database": "error", "channel_layer": "ok"},
    }
    assert b"hunter2" not in response.content and b"internal" not in response.content


def test_a_hanging_part_fails_within_the_timeout(client, monkeypatch):
    async def hangs():
        await asyncio.Event().wait()  # forever

    # The real timeout (2 s): the database check beside it must still answer within it,
    # which a shorter one could not promise on a busy machine.
    monkeypatch.setitem(health.CHECKS, "channel_layer", hangs)
    answered = []
    asking = threading.Thread(target=lambda: answered.append(client.get("/healthz")), daemon=True)
    started = time.monotonic()
    asking.start()
    # A bound for failures, generous for a busy machine: a check that is not cut off at
    # the timeout hangs the answer forever.
    asking.join(3 * health.TIMEOUT_SECONDS)
    elapsed = time.monotonic() - started
    assert answered, f"no answer within {3 * health.TIMEOUT_SECONDS} s"
    response = answered[0]
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "channel_layer": "error"}
    # It waited for the hanging part no less than the timeout (less would fail a slow
    # part that would still have answered).
    assert elapsed >= health.TIMEOUT_SECONDS - 0.05


def test_only_get(client):
    assert client.post("/healthz").status_code == 405


def test_dead_database_and_redis_under_production_settings(tmp_path):
    """A real process with production settings, PostgreSQL and Redis on ports where
    nothing listens: 503 naming both, over plain HTTP (load balancers ask each process
    directly, so /healthz is exempt from the HTTPS redirect)."""
    dead = free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "a-test-key-that-is-long-enough-" + "x" * 40,
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": f"postgres://postgres:postgres@127.0.0.1:{dead}/nothing",
        "REDIS_URL": f"redis://127.0.0.1:{dead}/0",
        "LOG_LEVEL": "CRITICAL",
    }
    script = (
        "import django, json; django.setup()\n"
        "from django.test import Client\n"
        "from django.test.utils import setup_test_environment\n"
        "setup_test_environment()\n"
        "r = Client().get('/healthz')\n"
        "print(json.dumps({'code': r.status_code, 'body': r.json()}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer == {
        "code": 503,
        "body": {"status": "error", "checks": {"database": "error", "channel_layer": "error"}},
    }


def test_a_table_gone_from_the_database_fails_the_check(tmp_path):
    """A restore gone wrong, a table dropped by hand: /healthz says the database fails
    (a real process on a database of its own, migrated, then one table dropped)."""
    script = (
        "import django, json; django.setup()\n"
        "from django.core.management import call_command\n"
        "from django.db import connection\n"
        "from django.test import Client\n"
        "from django.test.utils import setup_test_environment\n"
        "setup_test_environment()\n"
        "call_command('migrate', verbosity=0)\n"
        "codes = [Client().get('/healthz').status_code]\n"
        "connection.cursor().execute('DROP TABLE games_draw')\n"
        "r = Client().get('/healthz')\n"
        "codes.append(r.status_code)\n"
        "print(json.dumps({'codes': codes, 'checks': r.json()['checks']}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={
            **env,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
            "LOG_LEVEL": "CRITICAL",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer == {"codes": [200, 503], "checks": {"database": "error", "channel_layer": "ok"}}
