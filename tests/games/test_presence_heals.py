"""Presence heals itself: when a process missed its heartbeats long enough for the sweep to
take its open sockets for a dead process's, its next heartbeat records them again, hands
their seats back and makes the room attended again."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import services
from games.models import Presence, Room, Seat
from games.realtime import heartbeat
from tests.rooms import friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


def miss_every_beat_and_sweep(room_id: int) -> None:
    """Every connection of the room looks a minute old (a failover, a stalled process):
    the sweep drops them. The seats' grace starts now, so no seat is covered yet."""
    Presence.objects.update(last_seen=timezone.now() - timedelta(seconds=60))
    assert services.sweep_stale_presences(room_id=room_id)
    room = Room.objects.get(pk=room_id)
    assert room.unattended_since is not None
    for seat in room.seats.all():
        assert (
            services.cover_seat(room_id=room_id, seat_index=seat.index, version=room.version)
            is None
        )


def seats_of(room_id: int) -> list[tuple]:
    return list(
        Seat.objects.filter(room_id=room_id)
        .order_by("index")
        .values_list("covered", "away_since", "presences__channel_name")
    )


async def test_the_next_heartbeat_gives_swept_players_their_seats_and_the_room_back():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    await database_sync_to_async(miss_every_beat_and_sweep)(room.pk)
    swept = await database_sync_to_async(seats_of)(room.pk)
    assert [(covered, away is not None, channel) for covered, away, channel in swept] == [
        (False, True, None),
        (False, True, None),
    ]

    await heartbeat.beat_once()

    healed = await database_sync_to_async(seats_of)(room.pk)
    assert [(covered, away) for covered, away, _channel in healed] == [(False, None)] * 2
    assert all(channel for *_rest, channel in healed)
    fresh = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    assert fresh.unattended_since is None
    # The player whose turn it is draws as before: the seat is theirs, not the computer's.
    for player in (host, friend):
        state = await player.until(lambda s: s["version"] == fresh.version)
        assert not any(seat["covered"] or seat["away"] for seat in state["seats"])
    drawer = host if host.state["acting"] is not None else friend
    version = drawer.state["version"]
    await drawer.send(type="draw", **ply(drawer.state, "draw"), position=0)
    moved = await drawer.until(lambda s: s["version"] > version)
    assert moved["event"]["kind"] == "draw"
    await host.close()
    await friend.close()
