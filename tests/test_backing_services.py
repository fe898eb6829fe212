"""The site's database and channel layer answer, and in CI they are the real services."""

import json
import os
import subprocess
import sys
import uuid

import pytest
from channels.layers import get_channel_layer
from django.db import connection

from tests.conftest import REQUIRE_SERVICES


@pytest.mark.django_db
def test_database_answers():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    if REQUIRE_SERVICES:
        assert connection.vendor == "postgresql"


async def test_channel_layer_round_trip():
    layer = get_channel_layer()
    if REQUIRE_SERVICES:
        from channels_redis.pubsub import RedisPubSubChannelLayer

        assert isinstance(layer, RedisPubSubChannelLayer)
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "test.message", "token": token})
    message = await layer.receive(channel)
    assert message["token"] == token


def settings_with(env: dict) -> dict:
    """Load config.settings in a fresh interpreter with exactly ``env`` set."""
    code = (
        "import json, config.settings as s; "
        "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
        "'layer': s.CHANNEL_LAYERS['default']['BACKEND'], 'debug': s.DEBUG, "
        "'hosts': s.ALLOWED_HOSTS}))"
    )
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH")}
    result = subprocess.run(
        [sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True
    )
    if result.returncode:
        return {"error": result.stderr.strip().splitlines()[-1]}
    return json.loads(result.stdout)


def test_defaults_are_sqlite_and_in_memory_layer():
    got = settings_with({})
    assert got["db"] == "django.db.backends.sqlite3"
    assert got["layer"] == "channels.layers.InMemoryChannelLayer"
    assert got["debug"] is True


def test_environment_selects_postgres_and_redis():
    got = settings_with(
        {"DATABASE_URL": "postgres://u:p@db.example:5432/x", "REDIS_URL": "redis://r:6379/0"}
    )
    assert got["db"] == "django.db.backends.postgresql"
    assert got["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_the_core_channel_layer_stays_a_choice():
    redis = {"REDIS_URL": "redis://r:6379/0"}
    got = settings_with({**redis, "CHANNEL_LAYER": "core"})
    assert got["layer"] == "channels_redis.core.RedisChannelLayer"
    assert "CHANNEL_LAYER" in settings_with({**redis, "CHANNEL_LAYER": "fast"})["error"]


def test_production_refuses_to_start_without_a_secret_key():
    got = settings_with({"DEBUG": "0"})
    assert "SECRET_KEY" in got["error"]
    got = settings_with({"DEBUG": "0", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "a.example"})
    assert got["debug"] is False and got["hosts"] == ["a.example"]
