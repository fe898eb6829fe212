"""A socket's database calls leave no connection open behind them: each call made
through ``games.realtime.workers.in_worker`` closes the connection it opened (or hands it
back to the pool), however long the socket that made it stays open."""

import threading
import weakref

import pytest
from django.db.backends.signals import connection_created

from tests.rooms import friends_in_play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def opened_by_workers():
    """The connections opened from now on on the event loop's pool of threads (asyncio's
    default executor, named ``asyncio_N``), where ``in_worker`` runs the sockets' calls;
    not the test's own (its helpers run on asgiref's single thread)."""
    opened: list[weakref.ref] = []

    def record(sender, connection, **kwargs):
        if threading.current_thread().name.startswith("asyncio_"):
            opened.append(weakref.ref(connection))

    connection_created.connect(record, weak=False)
    yield opened
    connection_created.disconnect(record)


def still_open(opened: list[weakref.ref]) -> int:
    return sum(1 for ref in opened if (c := ref()) is not None and c.connection is not None)


async def test_sockets_in_play_hold_no_database_connection_between_their_calls(
    opened_by_workers,
):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    for player in (host, friend):  # a call of each socket's own, its answer awaited
        await player.send(type="sync")
        await player.receive()
    assert opened_by_workers, "the sockets' calls opened no connection"
    # Both sockets are open and idle: every call they made has returned.
    assert still_open(opened_by_workers) == 0
    await host.close()
    await friend.close()
