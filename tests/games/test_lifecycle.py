"""Rooms end: a room nobody is connected to ends as abandoned, the last player leaving
ends the match, one process sweeps at a time, the sweep asks exactly what the driver
would do, and stale spectators are dropped and never counted."""

import asyncio
import contextlib
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games import schedule, selectors, services
from games.engine.seats import played_by_computer
from games.engine.view import view_for
from games.models import Draw, Match, Presence, Room, Seat, Watcher
from games.realtime import driver
from tests.games.conftest import Player, match_ended
from tests.rooms import computer_table, friends_in_play, open_room
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_lease():
    cache.delete(driver.SWEEP_LEASE)
    yield
    cache.delete(driver.SWEEP_LEASE)


async def test_a_room_nobody_is_at_ends_as_abandoned_and_watchers_see_it(settings):
    settings.ABANDON_AFTER_SECONDS = 0.5
    me = await Player.guest("me")
    room = await computer_table(me, name="me", seats=3, rounds=1)
    watcher = await Player.guest("watcher")
    await watcher.connect(room.code, token=room.token)
    await me.close()  # the only player goes; a spectator alone does not keep a room alive
    ended = await watcher.until(match_ended, timeout=15)
    assert ended["match"]["ended_by"] == {"how": "abandoned"}
    assert ended["acting"] is None and ended["round"]["drawer"] is None
    assert ended["room"]["status"] == "finished"
    stored = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    assert stored.status == Room.Status.FINISHED and stored.due_at is None
    # Coming back later shows the same ending, with nothing to play.
    again = Player(me.session_key, me.actor)
    await again.connect(room.code)
    assert again.state["match"]["ended_by"] == {"how": "abandoned"}
    assert again.state["acting"] is None


async def test_the_last_player_leaving_ends_the_match_for_everyone():
    room, (a, b, c) = await friends_in_play("a", "b", "c", rounds=1)
    watcher = await Player.guest("watcher")
    await watcher.connect(room.code, token=room.token)
    await a.send(type="leave", **ply(a.state, "leave"))
    await a.until(lambda s: s["seats"][0]["left"])
    await b.send(type="leave", **ply(b.state, "leave"))
    await b.until(lambda s: s["seats"][1]["left"])
    await c.send(type="leave", **ply(c.state, "leave"))
    for socket in (a, b, c, watcher):
        ended = await socket.until(match_ended)
        assert ended["match"]["ended_by"] == {"how": "everyone_left"}
        assert ended["acting"] is None and ended["you"] == []


async def test_a_resignation_reaches_every_socket():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=3)
    watcher = await Player.guest("watcher")
    await watcher.connect(room.code, token=room.token)
    await friend.send(type="resign", **ply(friend.state, "resign"))
    for socket in (host, friend, watcher):
        ended = await socket.until(match_ended)
        assert ended["match"]["ended_by"] == {"seat": 1, "how": "resign"}
        assert ended["acting"] is None and ended["round"]["drawer"] is None
    # A draw after the end is refused and changes nothing.
    await host.send(type="draw", **ply(host.state, "draw"), position=0)
    error = await host.receive()
    while error["type"] != "error":
        error = await host.receive()
    assert error["code"] == "match_over"


async def until_in_the_database(condition, timeout: float = 180) -> None:
    """Wait until ``condition()`` (a database read) holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await database_sync_to_async(condition)():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def make_deserted_rooms(count: int, host) -> None:
    """Rooms whose players all left a while ago (setting up the scene directly): before
    this change, such rooms stayed "playing" forever and filled the sweep's 500 places."""
    left_at = timezone.now() - timedelta(minutes=10)
    rooms = Room.objects.bulk_create(
        Room(
            variant="babanuki",
            seat_count=2,
            mode="friends",
            computer_level="medium",
            status=Room.Status.PLAYING,
            unattended_since=left_at,
            due_at=left_at + timedelta(seconds=settings.ABANDON_AFTER_SECONDS),
            host_guest=host,
        )
        for _ in range(count)
    )
    Match.objects.bulk_create(
        Match(room=room, number=1, rules={"scoring": "points"}, first_dealer=0) for room in rooms
    )
    Seat.objects.bulk_create(
        Seat(room=room, index=i, guest=f"{host}-{i}", name="p", left=True)
        for room in rooms
        for i in range(2)
    )
    Room.objects.filter(pk__in=[r.pk for r in rooms]).update(updated_at=left_at)


def owe_a_computer_turn(room_id: int, actor) -> None:
    """With no driver running, leave the room at a computer's turn: the computers may
    already have drawn back round to the human (a busy machine decides how far they got)."""
    state = selectors.snapshot(room_id)
    if not played_by_computer(state["seats"][state["round"]["state"]["drawer"]]):
        services.draw(room_id=room_id, actor=actor, position=0, at=ply(view_for(state), "draw"))
    assert schedule.next_due(selectors.snapshot(room_id)).kind == "computer_turn"


async def test_past_500_deserted_rooms_a_new_room_owing_a_move_is_still_resumed():
    me = await Player.guest("me")
    await database_sync_to_async(make_deserted_rooms)(520, "someone")
    # The player is at the table on a process that dies: its socket and its drivers are
    # gone, and no disconnect is recorded (the connection row stays fresh for a while).
    room = await computer_table(me, name="me", seats=3, rounds=1)
    if me.state["acting"] is not None:
        await me.send(type="draw", **ply(me.state, "draw"), position=0)
        await me.until(lambda s: s["acting"] is None)
    me.socket.future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await me.socket.future
    await driver.stop_all()
    await database_sync_to_async(owe_a_computer_turn)(room.pk, me.actor)
    draws_before = await database_sync_to_async(Draw.objects.count)()
    # Another process's sweep finds the room at once: rooms nobody is at owe nothing
    # until their abandonment is due, so they never crowd it out.
    due = await driver.sweep_once(lease=False)
    assert due == [room.pk]
    await until_in_the_database(lambda: Draw.objects.count() > draws_before)


def test_each_rooms_due_at_is_the_time_schedule_next_due_gives_for_its_state(settings):
    """Every room's stored ``due_at`` (the column the sweep selects on) is the time
    ``schedule.next_due`` gives for its state. Neither the sweep nor the driver runs here
    (it was named as if both did): the sweep finding a room and the driver playing its
    move are test_past_500_deserted_rooms_a_new_room_owing_a_move_is_still_resumed, the
    abandonment test_a_room_nobody_is_at_ends_as_abandoned_and_watchers_see_it."""
    settings.ABANDON_AFTER_SECONDS = 3600
    actor = services.Actor(guest="g")
    rooms = [
        open_room(actor, mode, name="g", variant=v, seats=n, **extra)
        for v, n, mode, extra in [
            ("babanuki", 3, "computer", {"rounds": 1}),
            ("old_maid", 2, "same_device", {"strike_limit": 1}),
            ("babanuki", 4, "friends", {"rounds": 1}),
        ]
    ]
    for room in rooms:
        room.refresh_from_db()
        due = schedule.next_due(selectors.snapshot(room.pk))
        assert (room.due_at.timestamp() if room.due_at else None) == pytest.approx(
            due.at if due else None
        )
    # A friends room waiting for players owes nothing; the others owe their abandonment
    # (nobody has connected yet).
    assert rooms[2].due_at is None
    assert {schedule.next_due(selectors.snapshot(r.pk)).kind for r in rooms[:2]} == {"abandon"}


async def test_one_process_sweeps_at_a_time():
    assert await driver.sweep_once() == []  # took the lease: nothing due
    second = await database_sync_to_async(driver._take_sweep_lease)()
    assert second is False


async def test_stale_watchers_are_removed_and_never_counted(settings):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)

    def leave_a_dead_watcher():
        Watcher.objects.create(
            room=room,
            channel_name="dead.process!abc",
            last_seen=timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS + 5),
        )

    await database_sync_to_async(leave_a_dead_watcher)()
    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    assert state["spectators"] == 0
    assert view_for(state)["spectators"] == 0
    await driver.sweep_once(lease=False)
    assert not await database_sync_to_async(Watcher.objects.filter(room=room).exists)()
    assert await database_sync_to_async(Presence.objects.filter(seat__room=room).count)() == 2
