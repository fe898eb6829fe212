"""A draw from a room the process kept is made on the event loop itself, its one statement
sent on the loop's own connection (``services.draw_on_loop``, ``sql.execute_on_loop``):
no worker thread. Whatever the loop cannot make goes to a worker thread as before."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import selectors, services
from games.models import Bot, Draw, Room
from games.realtime import consumers
from games.services import bots, play, resident, sql
from games.tokens import token_hash
from tests.games.conftest import Player, bot_at_table, make_user, play_to_match_end
from tests.play import MOVES_AT_MOST
from tests.rooms import (
    at_table,
    draw_ply,
    friends_room,
    rematch_with_a_covered_seat,
    two_seat_room,
)
from tests.support import ply

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="SQLite: every statement on a worker thread"
    ),
]


#: Cards in the hands at the least: the five draws a test here makes at most discard ten,
#: and the round's last draw is not the loop's (it ends the round on the locked path).
CARDS_ENOUGH = 12


def _kept_room():
    """A two-seat room the process keeps, the person to draw."""
    room, actor = two_seat_room(CARDS_ENOUGH)
    services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))  # keeps it
    room.refresh_from_db()
    services.computer_turn(room_id=room.pk, version=room.version)  # from the kept room
    return room, actor, draw_ply(room.pk)


def _sent_from(monkeypatch) -> list[int]:
    """From now on, the threads the loop's statements are sent from; a statement on a worker
    thread's own connection fails the test."""

    def on_a_worker(*args):
        raise AssertionError("a statement on a worker thread's own connection")

    threads: list[int] = []
    execute = sql.execute_on_loop

    async def recorded(*args):
        threads.append(threading.get_ident())
        return await execute(*args)

    monkeypatch.setattr(sql, "_own_connection_count", on_a_worker)
    monkeypatch.setattr(sql, "execute_on_loop", recorded)
    return threads


async def test_a_draw_from_a_kept_room_is_sent_from_the_event_loop(monkeypatch):
    room, actor, at = await database_sync_to_async(_kept_room)()
    sent_from, broadcast = _sent_from(monkeypatch), []
    monkeypatch.setattr(
        "games.realtime.broadcast.room_changed",
        lambda room_id, state: broadcast.append((room_id, state["version"])),
    )

    assert await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)

    assert sent_from == [threading.get_ident()]  # this thread: the event loop's
    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    assert state["round"]["state"]["draws"] == at["draw"] + 1
    assert broadcast == [(room.pk, state["version"])]
    assert resident._kept[room.pk].room.version == state["version"]  # kept for the next


async def test_the_computers_draw_from_a_kept_room_is_made_on_the_event_loop(monkeypatch):
    room, actor, at = await database_sync_to_async(_kept_room)()
    assert await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    version = resident._kept[room.pk].room.version  # the computer's turn now
    sent_from = _sent_from(monkeypatch)

    made, state = await services.computer_turn_on_loop(room_id=room.pk, version=version)

    assert made and sent_from == [threading.get_ident()]
    assert state is not None and state["version"] == version + 1
    assert state["event"]["by_computer"] and state["round"]["state"]["draws"] == at["draw"] + 2
    # Planned against a version gone by: not made here (the locked path refuses it).
    assert await services.computer_turn_on_loop(room_id=room.pk, version=version) == (False, None)


async def test_what_the_kept_room_cannot_answer_is_left_to_a_worker_thread():
    room, actor, at = await database_sync_to_async(_kept_room)()
    # A stale move is refused from the kept room: the locked path answers it.
    stale = {**at, "draw": at["draw"] - 1}
    assert not await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=stale)
    # Nothing kept now (the failed attempt forgot it): nothing to draw from on the loop.
    assert not await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    count = Draw.objects.filter(round__match__room=room).acount
    before = await count()
    # Another draw of the room under way in this process (a worker thread's).
    await database_sync_to_async(_kept_room_again)(room, actor)
    with resident.kept(room.pk):
        assert not await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    assert await count() == before + 2  # the person's and the computer's, none on the loop


def _kept_room_again(room, actor):
    services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))
    room.refresh_from_db()
    services.computer_turn(room_id=room.pk, version=room.version)


async def test_a_room_changed_by_another_process_is_drawn_in_on_a_worker_thread():
    room, actor, at = await database_sync_to_async(_kept_room)()
    # Another process's change moved the version on (a presence change, say).
    await Room.objects.filter(pk=room.pk).aupdate(version=room.version + 100)

    assert not await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    assert room.pk not in resident._kept  # forgotten: the locked path reads it again
    assert await Draw.objects.filter(round__match__room=room).acount() == at["draw"]


async def test_a_draw_sent_before_its_caller_is_cancelled_is_still_kept_and_broadcast(
    monkeypatch,
):
    room, actor, at = await database_sync_to_async(_kept_room)()
    go, broadcast = asyncio.Event(), []
    execute = sql.execute_on_loop

    async def held(*args):
        await go.wait()
        return await execute(*args)

    monkeypatch.setattr(sql, "execute_on_loop", held)
    monkeypatch.setattr(
        "games.realtime.broadcast.room_changed",
        lambda room_id, state: broadcast.append(state["version"]),
    )
    drawing = asyncio.ensure_future(
        services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    )
    await asyncio.sleep(0.05)
    drawing.cancel()  # the socket went away while its draw was on its way
    go.set()
    while not broadcast:
        await asyncio.sleep(0.01)

    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    assert broadcast == [state["version"]]
    assert state["round"]["state"]["draws"] == at["draw"] + 1
    assert resident._kept[room.pk].room.version == state["version"]
    assert drawing.cancelled()


async def test_a_draw_on_the_loop_survives_its_connection_being_cut():
    room, actor, at = await database_sync_to_async(_kept_room)()
    assert await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    (own,) = sql._loop_connections[asyncio.get_running_loop()].idle
    # The server ends the connection (a restart, a proxy's idle cut) while the loop keeps it.
    await database_sync_to_async(_terminate)(own.info.backend_pid)
    await database_sync_to_async(services.computer_turn)(
        room_id=room.pk, version=resident._kept[room.pk].room.version
    )
    at = await database_sync_to_async(draw_ply)(room.pk)

    assert await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)

    assert own.closed
    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    assert state["round"]["state"]["draws"] == at["draw"] + 1


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


async def test_a_friends_match_over_sockets_draws_on_the_loop_and_every_seat_sees_each_draw(
    monkeypatch,
):
    host = await Player.user("host")
    friend = await Player.user("friend")
    room = await database_sync_to_async(friends_room)(host, {"friend": friend}, rounds=3)
    await at_table(room, host, friend)
    await host.send(type="start", fill=False)
    await friend.until(lambda s: s["room"]["status"] == "playing")
    workers, on_loop = [], []
    in_worker, draw_on_loop = consumers.in_worker, services.draw_on_loop

    def recorded_worker(fn):
        workers.append(fn.__name__)
        return in_worker(fn)

    async def recorded_draw(**kwargs):
        on_loop.append(await draw_on_loop(**kwargs))
        return on_loop[-1]

    monkeypatch.setattr(consumers, "in_worker", recorded_worker)
    monkeypatch.setattr(services, "draw_on_loop", recorded_draw)

    await play_to_match_end(host, friend)

    draws = await Draw.objects.filter(round__match__room=room).acount()
    assert len(on_loop) == draws
    # Each round's first draw reads the room under its lock, and its last ends the round
    # there: the others are made on the loop, with no worker thread.
    assert on_loop.count(True) >= draws - 2 * 3
    assert workers.count("act") == on_loop.count(False) + 2  # + the next rounds' deals
    for player in (host, friend):
        assert len(player.draws_seen()) == draws
    await host.close()
    await friend.close()


async def test_a_bots_draw_on_the_loop_after_its_tokens_revoke_writes_nothing():
    room, host, bot = await bot_at_table()
    # Until the bot is to draw from a room this process kept (each draw by socket keeps it).
    while not (bot.state["acting"] == 1 and room.pk in resident._kept):
        drawer = bot if bot.state["acting"] == 1 else host
        version = drawer.state["version"]
        await drawer.send(type="draw", **ply(drawer.state, "draw"), position=0)
        for player in (host, bot):
            await player.until(lambda s, version=version: s["version"] > version)
    drawn = Draw.objects.filter(round__match__room=room, drawer=1)
    before = await drawn.acount()
    bot_id, token = bot.actor.user_id, token_hash(bot.bot_token)
    owner_id = await database_sync_to_async(lambda: Bot.objects.get(pk=bot_id).owner_id)()
    await database_sync_to_async(bots.revoke_token)(owner_id=owner_id, bot_id=bot_id)

    # A draw that came on the socket just before its close, made as the socket makes it.
    with services.bot_token((bot_id, token)):
        made = await services.draw_on_loop(
            room_id=room.pk, actor=bot.actor, position=0, at=ply(bot.state, "draw")
        )

    assert not made  # refused in its own statement: the locked path answers it, as before
    assert await drawn.acount() == before


#: The fewest cards any hand holds after the rematch's first draw: three draws cannot
#: end the round then (a draw takes at most one card from each of two hands), so in two
#: seats and three the people and the computer each draw on the loop before its end.
CARDS_IN_EACH_HAND = 4


def _rematch_kept(seats: int, how: str):
    """A rematch whose last person's seat the computer covers (``how``: "left" in match 1
    or "away" in match 2), its first draw made (so the process keeps the room), on a deal
    whose every hand then holds ``CARDS_IN_EACH_HAND``; and the people by seat."""
    for attempt in range(30):
        names = [f"{how}{seats}-{attempt}-{i}" for i in range(2 if seats == 2 else 3)]
        users = [make_user(name) for name in names]
        room = rematch_with_a_covered_seat(users, seats=seats, how=how)
        people = {i: services.Actor(user_id=u.pk) for i, u in enumerate(users[:-1])}
        _draw_through_the_services(room.pk, people)  # the rematch's first draw keeps it
        hands = selectors.snapshot(room.pk)["round"]["state"]["hands"]
        if min(len(hand) for hand in hands) >= CARDS_IN_EACH_HAND:
            return room, people
    raise AssertionError("no rematch dealt every hand enough cards")


def _draw_through_the_services(room_id: int, people: dict) -> None:
    state = selectors.snapshot(room_id)
    drawer = state["round"]["state"]["drawer"]
    if drawer in people:
        services.draw(room_id=room_id, actor=people[drawer], position=0, at=draw_ply(room_id))
    else:
        services.computer_turn(room_id=room_id, version=state["version"])


@pytest.mark.parametrize(("seats", "how"), [(2, "away"), (3, "away"), (3, "left")])
async def test_in_a_rematch_with_a_covered_seat_people_and_the_computer_draw_on_the_loop(
    monkeypatch, seats, how
):
    room, people = await database_sync_to_async(_rematch_kept)(seats, how)
    sent_from = _sent_from(monkeypatch)
    made: list[str] = []
    for _ in range(MOVES_AT_MOST):
        state = await database_sync_to_async(selectors.snapshot)(room.pk)
        if state["round"]["over"]:
            break
        drawer = state["round"]["state"]["drawer"]
        if drawer in people:
            at = await database_sync_to_async(draw_ply)(room.pk)
            on_loop = await services.draw_on_loop(
                room_id=room.pk, actor=people[drawer], position=0, at=at
            )
        else:
            on_loop, _ = await services.computer_turn_on_loop(
                room_id=room.pk, version=state["version"]
            )
        if not on_loop:  # the round's last draw ends it on the locked path, and only it
            monkeypatch.undo()
            await database_sync_to_async(_draw_through_the_services)(room.pk, people)
            assert (await database_sync_to_async(selectors.snapshot)(room.pk))["round"]["over"]
            break
        made.append("person" if drawer in people else "computer")
    assert sent_from == [threading.get_ident()] * len(made)
    assert made.count("person") >= 1 and made.count("computer") >= 1


async def test_a_defect_in_a_draw_on_the_loop_leaves_the_draw_to_a_worker_thread(
    monkeypatch, caplog
):
    room, actor, at = await database_sync_to_async(_kept_room)()
    choose = play.choose_position
    failed = []

    def defective(state, rng):
        if not failed:
            failed.append(True)
            raise RuntimeError("injected")
        return choose(state, rng)

    assert await services.draw_on_loop(room_id=room.pk, actor=actor, position=0, at=at)
    version = resident._kept[room.pk].room.version  # the computer's turn
    monkeypatch.setattr(play, "choose_position", defective)

    assert await services.computer_turn_on_loop(room_id=room.pk, version=version) == (False, None)
    assert "a draw on the event loop failed" in caplog.text
    # Nothing was written, the kept room is forgotten: the worker thread's path makes it.
    assert await Draw.objects.filter(round__match__room=room).acount() == at["draw"] + 1
    state = await database_sync_to_async(services.computer_turn)(room_id=room.pk, version=version)
    assert state is not None and state["round"]["state"]["draws"] == at["draw"] + 2
