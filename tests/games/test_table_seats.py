"""Takeovers, hand-backs, leaving, resigning, and computer turns that outlive a driver."""

import asyncio
import contextlib

import pytest
from channels.db import database_sync_to_async

from games.models import Draw, Seat
from games.realtime import driver
from tests.games.conftest import Player, match_ended, play_to_match_end
from tests.rooms import computer_table, friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_seat_away_past_the_grace_period_is_covered_then_handed_back(settings):
    settings.SEAT_GRACE_SECONDS = 0.3
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    await friend.close()
    # The host sees the friend go away, then the computer cover the seat.
    state = await host.until(lambda s: s["seats"][1]["away"])
    assert not state["seats"][1]["covered"]
    state = await host.until(lambda s: s["seats"][1]["covered"], timeout=5)
    # While covered, the computer draws for seat 1 whenever it is seat 1's turn.
    await play_to_match_end(host)
    by_computer = await database_sync_to_async(
        Draw.objects.filter(round__match__room=room, drawer=1, by_computer=True).count
    )()
    assert by_computer >= 1
    # The human comes back: the seat is theirs again, and everyone sees it.
    back = Player(friend.session_key, friend.actor)
    await back.connect(room.code)
    assert back.state["seats"][1]["covered"] is False
    await host.until(lambda s: not s["seats"][1]["covered"] and not s["seats"][1]["away"])


async def test_leaving_a_three_seat_match_hands_the_seat_to_the_computer():
    room, (a, b, c) = await friends_in_play("a", "b", "c", rounds=1)
    await c.send(type="leave", **ply(c.state, "leave"))
    state = await a.until(lambda s: s["seats"][2]["left"])
    assert state["seats"][2]["left"]
    # The others play on to the end; the computer plays seat 2.
    await play_to_match_end(a, b)
    seat = await database_sync_to_async(Seat.objects.get)(room=room, index=2)
    assert seat.left and seat.played_by_computer
    # The leaver can no longer act for the seat.
    await c.send(type="draw", **ply(a.state, "draw"), position=0)
    error = await c.receive()
    while error["type"] != "error":
        error = await c.receive()
    assert error["code"] == "not_seated"


async def test_resigning_a_two_seat_match_is_a_loss_for_the_resigner():
    room, (host, friend) = await friends_in_play("host", "friend", variant="schwarzer_peter")
    await friend.send(type="resign", **ply(friend.state, "resign"))
    state = await host.until(match_ended)
    assert state["match"]["losers"] == [1] and state["match"]["winners"] == [0]
    assert state["match"]["ended_by"] == {"seat": 1, "how": "resign"}


async def test_computer_turns_resume_after_the_driver_dies():
    me = await Player.guest("solo")
    # Dealer 0 is drawn from first, so seat 1 (a computer) draws first. The player is at
    # the table on a process that dies: its socket and its drivers are gone, and no
    # disconnect is recorded (the connection row stays fresh for a while).
    room = await computer_table(me, seats=4, rounds=1, first_dealer=0)
    me.socket.future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await me.socket.future
    await driver.stop_all()
    versions = await database_sync_to_async(
        lambda: room.__class__.objects.get(pk=room.pk).version
    )()
    await driver.sweep_once()  # a periodic sweep finds the overdue turn ...
    task, _wake = driver._drivers[room.pk]
    await task  # it plays the computer turns until a human must act
    after = await database_sync_to_async(lambda: room.__class__.objects.get(pk=room.pk).version)()
    assert after > versions
    # ... and a new connection resumes it too, without a draw twice for one turn.
    me = Player(me.session_key, me.actor)
    await me.connect(room.code)
    await me.until(lambda s: s["acting"] == 0 or match_ended(s))
    draws = await database_sync_to_async(
        lambda: list(Draw.objects.filter(round__match__room=room).values_list("number", flat=True))
    )()
    assert draws == list(range(1, len(draws) + 1))


async def test_a_dead_process_connections_go_stale_and_the_sweep_covers_the_seat(settings):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Presence

    settings.SEAT_GRACE_SECONDS = 0
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    # The process holding the friend's socket dies: no disconnect, its presence just ages.
    long_ago = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS + 1)
    await database_sync_to_async(
        lambda: Presence.objects.filter(seat__index=1, seat__room=room).update(last_seen=long_ago)
    )()
    await driver.sweep_once()
    state = await host.until(lambda s: s["seats"][1]["covered"], timeout=5)
    assert state["seats"][1]["away"]
