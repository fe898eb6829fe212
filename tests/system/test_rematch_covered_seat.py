"""A rematch with a seat the computer covers plays to its end through real Daphne
processes on PostgreSQL and Redis: a person gone since the match before (they left it),
or gone in the rematch (their page closed past the grace), with the room's sockets on
one process or split over two. Every draw, the people's and the computer's, is taken,
and no socket is answered with an error."""

import asyncio

import pytest

from tests.games.conftest import make_session, make_user
from tests.rooms import friends_room
from tests.system.conftest import Client, needs_services, play, ply

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

#: (seats, the last person is gone how): the cases the rematch froze in.
CASES = [(2, "away"), (3, "away"), (3, "left")]
#: Bounds for a failure only: each match takes a few seconds.
MATCH_SECONDS = 120


def _room(seats: int, how: str, split: bool):
    tag = f"{seats}{how}{'split' if split else 'one'}"
    users = [make_user(f"{tag}-{i}") for i in range(min(seats, 3))]
    joined = {f"{tag}-{i}": user for i, user in enumerate(users[1:], start=1)}
    room = friends_room(users[0], joined, seats=seats, rounds=1, name=f"{tag}-0")
    return room, [make_session(user=user) for user in users]


async def _until(client: Client, holds, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MATCH_SECONDS
    while not holds(client.state):
        assert loop.time() < deadline, f"{what} never came: {client.state}"
        await client.receive(0.1)


async def _rematch_with_the_last_person_gone(room, sessions, how, ports):
    clients = [
        await Client(s).connect(ports[i % len(ports)], room.code) for i, s in enumerate(sessions)
    ]
    *people, last = clients
    await people[0].send(type="start", fill=True)
    await _until(last, lambda s: s["match"] is not None, "the start")
    if how == "left":
        await last.send(type="leave", **ply(last.state, "leave"))
        await _until(last, lambda s: not s["you"], "the leave")
        await last.close()
        first = await play(people, timeout=MATCH_SECONDS)
    else:
        first = await play(clients, timeout=MATCH_SECONDS)
    await people[0].send(type="rematch", **ply(first, "rematch"))
    await _until(people[0], lambda s: s["match"]["number"] == 2, "the rematch")
    if how == "away":
        await last.close()
    seat = len(clients) - 1
    await _until(people[0], lambda s: s["seats"][seat]["covered"], "the seat covered")
    second = await play(people, timeout=MATCH_SECONDS)
    for client in people:
        await client.close()
    return first, second, clients


@pytest.mark.parametrize("split", [False, True], ids=["one process", "split"])
def test_a_rematch_with_a_covered_seat_plays_to_its_end(servers, split):
    grace = {"SEAT_GRACE_SECONDS": "1"}
    started = [servers("one", env=grace), *([servers("two", env=grace)] if split else [])]
    ports = [server.port for server in started]
    rooms = [_room(seats, how, split) for seats, how in CASES]

    async def scenario():
        return await asyncio.gather(
            *(
                _rematch_with_the_last_person_gone(room, sessions, how, ports)
                for (room, sessions), (_, how) in zip(rooms, CASES, strict=True)
            )
        )

    for (seats, how), (first, second, clients) in zip(CASES, asyncio.run(scenario()), strict=True):
        case = f"{seats} seats, {how}"
        assert first["match"]["over"] and second["match"]["over"], case
        assert second["match"]["number"] == 2, case
        assert second["seats"][seats - 1]["covered"], case
        assert second["seats"][seats - 1]["left_before"] is (how == "left"), case
        assert [c.errors for c in clients] == [[]] * len(clients), case
    for server in started:
        log = server.log_path.read_text()
        assert "Traceback" not in log and "SynchronousOnlyOperation" not in log, log[-3000:]
