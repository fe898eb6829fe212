"""The site's database and channel layer answer, and in CI they are the real services."""

import asyncio
import json
import os
import subprocess
import sys
import uuid

import pytest
from channels.layers import get_channel_layer
from django.db import connection

from tests.conftest import REQUIRE_SERVICES
from tests.support import needs_services


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
        "'hosts': s.ALLOWED_HOSTS, "
        "'prefix': s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('prefix'), "
        "'cache_prefix': s.CACHES['default'].get('KEY_PREFIX')}))"
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


def test_each_site_on_one_redis_takes_its_own_prefix():
    redis = {"REDIS_URL": "redis://r:6379/7"}
    assert settings_with(redis)["prefix"] == "asgi"  # channels_redis's own, as before
    got = settings_with({**redis, "REDIS_PREFIX": "staging"})
    assert (got["prefix"], got["cache_prefix"]) == ("staging", "staging")
    got = settings_with({**redis, "REDIS_PREFIX": "staging", "CHANNEL_LAYER": "core"})
    assert got["prefix"] == "staging"
    assert "REDIS_PREFIX" in settings_with({**redis, "REDIS_PREFIX": "a b"})["error"]


@needs_services
async def test_sites_with_their_own_prefixes_never_hear_each_others_rooms(settings):
    """Publish/subscribe ignores the database number: the same prefix on another database
    hears a room's broadcast, another prefix does not."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    url = settings.REDIS_URL
    other_database = url.rsplit("/", 1)[0] + "/15"
    room = f"room.{uuid.uuid4().hex[:8]}"

    def layer(prefix: str, host: str):
        return RedisPubSubChannelLayer(hosts=[host], prefix=prefix)

    staging, staging_elsewhere, production = (
        layer("staging", url),
        layer("staging", other_database),
        layer("production", url),
    )
    listening = []
    for site in (staging_elsewhere, production):
        channel = await site.new_channel()
        await site.group_add(room, channel)
        listening.append(channel)
    try:
        await staging.group_send(room, {"type": "room.changed", "site": "staging"})
        got = await asyncio.wait_for(staging_elsewhere.receive(listening[0]), 10)
        assert got["site"] == "staging"
        # Production's own broadcast, sent after staging's: the first it hears.
        await production.group_send(room, {"type": "room.changed", "site": "production"})
        got = await asyncio.wait_for(production.receive(listening[1]), 10)
        assert got["site"] == "production"
    finally:
        for site in (staging, staging_elsewhere, production):
            await site.flush()
