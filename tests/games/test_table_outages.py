"""A socket outlives trouble with the database or the channel layer: a clear error, no
traceback in the log, and a client that catches up once things work again."""

import asyncio
import logging
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import OperationalError

from games import services
from games.models import Draw, Presence
from games.realtime.broadcast import group_name
from tests.rooms import friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def quick_heartbeat(settings):
    settings.HEARTBEAT_SECONDS = 0.2


async def beats(channel: str, count: int, timeout: float = 30) -> None:
    """Until the socket on ``channel`` has run ``count`` more heartbeats: each one touches
    the socket's presence row before anything else (a busy machine may merge two beats
    into one seen, which only makes this wait longer)."""

    def last_seen():
        return Presence.objects.filter(channel_name=channel).values_list("last_seen").first()

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = await database_sync_to_async(last_seen)()
    while count:
        if loop.time() > deadline:
            raise AssertionError(f"the socket's heartbeat stopped ({count} beats to go)")
        await asyncio.sleep(0.02)
        now = await database_sync_to_async(last_seen)()
        if now != seen:
            seen, count = now, count - 1


async def close(*players):
    for player in players:
        await player.close()


def no_errors_logged(caplog):
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


async def test_an_action_during_a_database_outage_gets_unavailable(caplog):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    version, at = drawer.state["version"], ply(drawer.state, "draw")
    with mock.patch.object(services, "draw", side_effect=OperationalError("server gone")):
        await drawer.send(type="draw", **at, position=0, ref="d1")
        error = await drawer.receive()
    assert error["type"] == "error" and error["code"] == "unavailable" and error["ref"] == "d1"
    assert "database" in error["message"]
    # Nothing changed, the socket still works, and the same draw now goes through.
    await drawer.send(type="draw", **at, position=0)
    await drawer.until(lambda s: s["version"] == version + 1)
    assert await database_sync_to_async(Draw.objects.count)() == 1
    assert no_errors_logged(caplog)


async def test_a_lost_broadcast_is_caught_up_by_the_heartbeat(quick_heartbeat, caplog):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    version = drawer.state["version"]
    # The channel layer fails after the commit: the draw stands, nobody is told ...
    layer = get_channel_layer()
    down = mock.AsyncMock(side_effect=ConnectionError("redis down"))
    with mock.patch.object(type(layer), "group_send", down, create=True):
        await drawer.send(type="draw", **ply(drawer.state, "draw"), position=0)
        deadline = asyncio.get_running_loop().time() + 30
        while not down.await_count:  # the broadcast was tried, and failed
            assert asyncio.get_running_loop().time() < deadline, "no broadcast was tried"
            await asyncio.sleep(0.01)
        assert await drawer.socket.receive_nothing(timeout=0.1)
    assert await database_sync_to_async(Draw.objects.count)() == 1
    # ... until each socket's next heartbeat finds the room ahead of what it was sent.
    for player in (host, friend):
        await player.until(lambda s: s["version"] == version + 1)
    assert no_errors_logged(caplog)
    await close(host, friend)  # stop their quick heartbeats before the tables are flushed


async def test_a_socket_forgotten_by_its_group_joins_it_again(settings, quick_heartbeat):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    # As after a Redis restart: the group no longer lists the host's socket.
    channel = await database_sync_to_async(
        lambda: Presence.objects.get(seat__room=room, seat__index=host.state["you"][0]).channel_name
    )()
    await get_channel_layer().group_discard(group_name(room.pk), channel)
    await beats(channel, 2)  # the second began after the first joined the group again
    settings.HEARTBEAT_SECONDS = 30  # from now on, only a broadcast can tell the host
    # The last quick one: the next beat is 30 s away. (On a busy machine the quick beat
    # may have run just before the change: the wait is then for a 30-second one.)
    await beats(channel, 1, timeout=90)
    await host.drain()
    drawer = friend if friend.state["acting"] is not None else host
    version = drawer.state["version"]
    await drawer.send(type="draw", **ply(drawer.state, "draw"), position=0)
    await host.until(lambda s: s["version"] == version + 1)
    await close(host, friend)


def test_the_layer_outage_filter_turns_a_traceback_a_second_into_a_warning_a_minute():
    from games.realtime.outages import LayerOutageFilter

    def record(at: float, error: Exception | None) -> logging.LogRecord:
        exc_info = (type(error), error, None) if error else None
        made = logging.LogRecord(
            "channels_redis.pubsub", logging.ERROR, "", 0, "Unexpected", (), exc_info
        )
        made.created = at
        return made

    outage = LayerOutageFilter(every_seconds=60)
    first = record(100, ConnectionError("Connection refused"))
    assert outage.filter(first)
    assert first.levelno == logging.WARNING and first.exc_info is None
    assert "Connection refused" in first.getMessage()
    assert not outage.filter(record(101, ConnectionError("Connection refused")))
    assert outage.filter(record(161, ConnectionError("Connection refused")))
    bug = record(102, ValueError("a bug"))
    assert outage.filter(bug) and bug.levelno == logging.ERROR and bug.exc_info


def test_the_layer_outage_filter_quiets_an_unretrieved_task_of_the_core_layer():
    """channels_redis's core layer leaves a backup queue's clean-up task to fail unseen
    when Redis goes: asyncio logs it with its traceback, on its own logger."""
    import redis.exceptions

    from games.realtime.outages import LayerOutageFilter

    error = redis.exceptions.ConnectionError("Error while reading from 127.0.0.1:6379")
    unseen = logging.LogRecord(
        "asyncio",
        logging.ERROR,
        "",
        0,
        "Task exception was never retrieved\nfuture: <Task finished name='Task-11'>",
        (),
        (type(error), error, None),
    )
    assert LayerOutageFilter().filter(unseen)
    assert unseen.levelno == logging.WARNING and unseen.exc_info is None
    assert unseen.getMessage() == (
        "channel layer unavailable (ConnectionError: Error while reading from "
        "127.0.0.1:6379): Task exception was never retrieved"
    )
    # The site's logging puts the filter on asyncio's logger (config/settings.py).
    assert any(isinstance(f, LayerOutageFilter) for f in logging.getLogger("asyncio").filters)


async def test_a_hung_broadcast_is_dropped_after_the_timeout_and_later_ones_still_go(settings):
    from games.realtime import broadcast

    settings.BROADCAST_TIMEOUT_SECONDS = 0.2
    layer = get_channel_layer()
    sent, forever = [], asyncio.Event()

    async def group_send(_layer, group, message):
        if message["state"]["version"] == 1:
            await forever.wait()  # a Redis that takes the publish and never answers
        sent.append(message["state"]["version"])

    with mock.patch.object(type(layer), "group_send", group_send, create=True):
        for version in (1, 2):  # from a service's worker thread, as after a commit
            await database_sync_to_async(broadcast.room_changed)(7, {"version": version})
        deadline = asyncio.get_running_loop().time() + 30  # a bound for failures
        while sent != [2]:
            assert asyncio.get_running_loop().time() < deadline, sent
            await asyncio.sleep(0.01)


async def test_a_failing_broadcast_after_the_commit_leaves_the_draw_answered_as_made(caplog):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    with mock.patch("games.realtime.broadcast.room_changed", side_effect=RuntimeError("a bug")):
        await drawer.send(type="draw", **ply(drawer.state, "draw"), position=0, ref="d1")
        await drawer.send(type="ping", ref="barrier")
        answers = [await drawer.receive()]
        while answers[-1]["type"] != "pong":
            answers.append(await drawer.receive())
    assert [a for a in answers if a["type"] == "error"] == []
    assert await database_sync_to_async(Draw.objects.count)() == 1
    await close(host, friend)
