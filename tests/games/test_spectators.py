"""A crowd of spectators costs the room little: a spectator's socket takes no room lock,
and the players hear the count coalesced, not once per arrival."""

import pytest

from games.services import sql
from tests.games.conftest import Player
from tests.rooms import waiting_table

pytestmark = pytest.mark.django_db(transaction=True)

CROWD = 30


async def test_a_crowd_of_spectators_takes_no_room_lock_and_reaches_players_coalesced(
    settings, monkeypatch
):
    settings.SPECTATOR_COUNT_SECONDS = 2
    host = await Player.guest("g-host")
    room = await waiting_table(host, seats=3)
    locks = []
    lock_room = sql.lock_room
    monkeypatch.setattr(
        sql, "lock_room", lambda room_id: locks.append(room_id) or lock_room(room_id)
    )

    crowd = [await Player.guest(f"g-eyes-{i}") for i in range(CROWD)]
    for spectator in crowd:
        assert await spectator.connect(room.code, token=room.watch_token)
        assert spectator.state["you"] == []
    assert locks == []
    counts = []
    while not counts or counts[-1] < CROWD:
        message = await host.receive()
        if message["type"] == "spectators":
            counts.append(message["count"])
    assert counts[-1] == CROWD
    # One count per window of arrivals: a few, where one per arrival made it thirty.
    assert len(counts) <= CROWD // 3, counts
    for spectator in crowd:
        await spectator.close()
    await host.close()
