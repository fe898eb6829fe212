"""Two Daphne processes serve one room through PostgreSQL and Redis; a killed process
loses no committed draw."""

import asyncio

import pytest

from games import services
from games.models import Draw, Room
from tests.games.conftest import make_session, make_user
from tests.support import ply
from tests.system.conftest import Client, caught_up, needs_services, play

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def friends_room_with_sessions(
    seats: int, humans: int, prefix: str = "player", start: bool = True, **rules
):
    users = [make_user(f"{prefix}{i}") for i in range(humans)]
    actors = [services.Actor(user_id=u.pk) for u in users]
    room = services.create_room(
        actor=actors[0],
        name=f"{prefix}0",
        variant="babanuki",
        seat_count=seats,
        mode="friends",
        **rules,
    )
    for i, actor in enumerate(actors[1:], start=1):
        services.join_room(room_id=room.pk, actor=actor, name=f"{prefix}{i}")
    if start:
        start_match(room)
    return room, [make_session(user=u) for u in users]


def start_match(room) -> None:
    actor = services.Actor(user_id=room.host_id)
    services.start_match(room_id=room.pk, actor=actor, fill_with_computers=True)


def draw_keys(room) -> list[tuple[int, int, int]]:
    """Every draw of the room as (match, round, draw number), in the order they were made."""
    return list(
        Draw.objects.filter(round__match__room=room)
        .order_by("round__match__number", "round__number", "number")
        .values_list("round__match__number", "round__number", "number")
    )


def draw_numbers(room):
    return list(
        Draw.objects.filter(round__match__room=room)
        .order_by("round__match__number", "round__number", "number")
        .values_list("round__number", "number")
    )


def test_players_on_two_processes_see_each_others_draws(servers):
    room, sessions = friends_room_with_sessions(2, 2, rounds=3)
    one, two = servers("one"), servers("two")

    async def scenario():
        a = await Client(sessions[0]).connect(one.port, room.code)
        b = await Client(sessions[1]).connect(two.port, room.code)
        final = await play([a, b])
        # The match is over, so nothing changes any more: each player gets to its version.
        await caught_up([a, b], final["version"])
        await a.close()
        await b.close()
        return final, a, b

    final, a, b = asyncio.run(scenario())
    assert final["match"]["over"] and len(final["match"]["rounds"]) == 3
    rows = Draw.objects.filter(round__match__room=room).count()
    # Each player saw every draw, including the other player's, made on the other process.
    assert len(a.draw_events) == len(b.draw_events) == rows
    numbers = draw_numbers(room)
    for round_number in {r for r, _ in numbers}:
        seq = [n for r, n in numbers if r == round_number]
        assert seq == list(range(1, len(seq) + 1))


def test_a_room_split_over_two_processes_gets_every_draw_once_in_order_at_every_socket(
    servers,
):
    """Four players of one room, two on each process (as when nginx's routing by the room's
    code is bypassed: a process restarted, the upstream list changed): every socket learns
    every draw exactly once, in the order it was made, whichever process made it."""
    room, sessions = friends_room_with_sessions(4, 4, rounds=3)
    one, two = servers("one"), servers("two")

    async def scenario():
        ports = [one.port, two.port, one.port, two.port]
        clients = [
            await Client(s).connect(p, room.code) for s, p in zip(sessions, ports, strict=True)
        ]
        final = await play(clients)
        await caught_up(clients, final["version"])
        for client in clients:
            await client.close()
        return final, clients

    final, clients = asyncio.run(scenario())
    assert final["match"]["over"]
    made = draw_keys(room)
    assert len(made) > 30  # three whole rounds of four
    for seat, client in enumerate(clients):
        assert client.draws_in_order == made, f"seat {seat}"


def test_split_rooms_under_load_give_every_seat_every_draw_once_in_order(servers):
    """Twelve rooms at once, each of two people on two processes and two computers side by
    side that move at once (COMPUTER_DELAY_SECONDS 0): a process's driver that lost a
    computer's draw to the other process reads the room and makes the next computer's
    draw while the first draw's broadcast still waits in the other process's backlog, so
    the later change often reaches a socket first. Each socket still learns every draw
    exactly once, in the order it was made (the socket holds a change that came ahead
    until the one before it comes: ``TableConsumer.room_changed``)."""
    fast = {"COMPUTER_DELAY_SECONDS": "0", "HEARTBEAT_SECONDS": "3600"}
    one, two = servers("one", env=fast), servers("two", env=fast)
    rooms = [
        friends_room_with_sessions(4, 2, prefix=f"room{n}-", start=False, rounds=1)
        for n in range(12)
    ]

    async def scenario():
        async def one_room(room, sessions):
            clients = [
                await Client(s).connect(p, room.code)
                for s, p in zip(sessions, (one.port, two.port), strict=True)
            ]
            # Started once both are there, so that each socket is sent every draw.
            await asyncio.to_thread(start_match, room)
            while any(c.state["match"] is None for c in clients):
                for client in clients:
                    await client.receive(0.02)
            final = await play(clients, timeout=240)
            await caught_up(clients, final["version"])
            for client in clients:
                await client.close()
            return clients

        return await asyncio.gather(*(one_room(room, s) for room, s in rooms))

    seen = asyncio.run(scenario())
    for (room, _), clients in zip(rooms, seen, strict=True):
        made = draw_keys(room)
        assert len(made) > 10  # a whole round of four
        for seat, client in enumerate(clients):
            assert client.draws_in_order == made, f"room {room.code}, seat {seat}"


def test_killing_the_serving_process_loses_no_committed_draw(servers):
    room, sessions = friends_room_with_sessions(3, 2, rounds=1)
    first = servers("first")

    async def before_kill():
        clients = [await Client(s).connect(first.port, room.code) for s in sessions]
        state = await play(clients, stop_after_draws=6)
        return state

    asyncio.run(before_kill())
    committed = draw_numbers(room)
    assert len(committed) >= 6
    first.kill()  # mid-round, no clean shutdown

    restarted = servers("restarted", port=first.port)

    async def after_restart():
        clients = [await Client(s).connect(restarted.port, room.code) for s in sessions]
        snapshot = clients[0].state
        final = await play(clients)
        for client in clients:
            await client.close()
        return snapshot, final

    snapshot, final = asyncio.run(after_restart())
    room.refresh_from_db()
    # The reconnecting client got the exact committed state ...
    assert snapshot["round"]["draws"] >= len(committed)
    # ... no committed draw was lost or applied twice, and the round completed.
    after = draw_numbers(room)
    assert after[: len(committed)] == committed
    assert [n for _, n in after] == list(range(1, len(after) + 1))
    assert final["match"]["over"]
    assert Room.objects.get(pk=room.pk).status == Room.Status.FINISHED


def test_the_same_draw_sent_to_two_processes_at_once_is_applied_once(servers):
    room, sessions = friends_room_with_sessions(2, 2, rounds=1)
    one, two = servers("one"), servers("two")

    async def race():
        clients = [await Client(s).connect(one.port, room.code) for s in sessions]
        drawer_index = next(i for i, c in enumerate(clients) if c.state["acting"] is not None)
        # The drawer, in two tabs on two processes, clicks in both at once.
        tabs = [
            await Client(sessions[drawer_index]).connect(port, room.code)
            for port in (one.port, two.port)
        ]
        at = ply(tabs[0].state, "draw")
        await asyncio.gather(*(t.send(type="draw", **at, position=0) for t in tabs))
        # Each tab's answers to its draw come before its answer to a ping sent after it.
        replies = []
        for n, tab in enumerate(tabs):
            await tab.send(type="ping", ref=f"after-{n}")
            while (message := await tab.receive(60)) != {"type": "pong", "ref": f"after-{n}"}:
                assert message is not None, "no pong within 60 s"
                replies.append(message)
        for c in clients + tabs:
            await c.close()
        return replies

    replies = asyncio.run(race())
    errors = [r for r in replies if r["type"] == "error"]
    assert [e["code"] for e in errors] == ["stale_version"]
    assert Draw.objects.filter(round__match__room=room).count() == 1
