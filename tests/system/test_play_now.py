"""Play now through real Daphne processes sharing PostgreSQL and Redis: people pressing at
the same moment sit at the same tables, never at two; a table that does not fill starts
with the computer once its wait ends; a page closed while waiting gives its seat back;
and each of Play now's limits holds at its boundary, refused with a clear message."""

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.models import Room, Seat
from tests.games.conftest import make_session
from tests.system.conftest import Client, http, needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

#: A short wait, so that the test waits for the table's start (a condition), not 15 s.
WAIT = {"PLAY_NOW_WAIT_SECONDS": "4"}


def press(port: int, session: str, *, variant="babanuki", seats=4, name="Ann"):
    """Press Play now as the browser of ``session``: (status, table code or None, page)."""
    form = {"variant": variant, "seat_count": str(seats), "name": name}
    status, location, body = http(port, session, "/play-now/", form)
    found = re.fullmatch(r"/r/([^/]+)/", location)
    return status, found[1] if found else None, body


def guests(count: int, prefix: str) -> list[str]:
    return [make_session(guest=f"{prefix}-{i:02d}") for i in range(count)]


def refusal(body: str) -> str:
    """The lobby's message above the Play now form."""
    found = re.search(r'<div class="errors" role="alert">(.*?)</div>', body, re.S)
    assert found, body[-1500:]
    return re.sub(r"<[^>]+>", "", found[1]).strip()


def people_at(code: str) -> list[str]:
    return list(
        Seat.objects.filter(room__code=code)
        .exclude(guest="")
        .order_by("guest")
        .values_list("guest", flat=True)
    )


async def until_playing(client: Client, timeout: float = 60) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while client.state["room"]["status"] != "playing":
        assert loop.time() < deadline, f"the table never started: {client.state['room']}"
        await client.receive(0.2)
    return client.state


@pytest.mark.parametrize("processes", [1, 2])
def test_ten_people_pressing_at_once_sit_at_two_full_tables_and_one_the_computer_completes(
    servers, processes
):
    ports = [servers(f"site-{i}", env=WAIT).port for i in range(processes)]
    sessions = guests(10, f"p{processes}")
    with ThreadPoolExecutor(10) as pool:  # within a second, half on each process
        pressed = list(
            pool.map(
                lambda i: press(ports[i % processes], sessions[i], name=f"Player {i}"),
                range(10),
            )
        )
    assert [status for status, _, _ in pressed] == [302] * 10
    codes = [code for _, code, _ in pressed]
    tables = sorted(set(codes), key=codes.count, reverse=True)
    assert sorted(codes.count(c) for c in tables) == [2, 4, 4]
    # Nobody sits at two tables: ten guests, ten seats, each at the table they were sent to.
    seated = [guest for code in tables for guest in people_at(code)]
    assert sorted(seated) == sorted(f"p{processes}-{i:02d}" for i in range(10))
    full = [c for c in tables if codes.count(c) == 4]
    assert all(Room.objects.get(code=c).status == "playing" for c in full)

    async def scenario():
        # The two at the third table open its page, each on the process it pressed on.
        clients = [
            await Client(sessions[i]).connect(ports[i % processes], codes[i])
            for i in range(10)
            if codes[i] == tables[-1]
        ]
        waiting = clients[0].state
        assert waiting["room"]["status"] == "waiting" and waiting["room"]["public"]
        assert waiting["room"]["starts_at"] is not None
        started = [await until_playing(c) for c in clients]
        for client in clients:
            await client.close()
        return started

    started = asyncio.run(scenario())
    kinds = [seat["kind"] for seat in started[0]["seats"]]
    assert sorted(kinds) == ["computer", "computer", "human", "human"]
    assert all(s["you"] for s in started)


def test_a_page_closed_while_waiting_gives_its_seat_back_after_its_grace(servers):
    port = servers("site", env={"PLAY_NOW_WAIT_SECONDS": "600", "PLAY_NOW_AWAY_SECONDS": "1"}).port
    stays, goes = guests(2, "close")
    _, table, _ = press(port, stays, name="Stays")
    _, same, _ = press(port, goes, name="Goes")
    assert same == table and len(people_at(table)) == 2

    async def scenario():
        a = await Client(stays).connect(port, table)
        b = await Client(goes).connect(port, table)
        await b.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while [s["kind"] for s in a.state["seats"]].count("human") != 1:
            assert loop.time() < deadline, a.state["seats"]
            await a.receive(0.2)
        await a.close()
        return a.state

    after = asyncio.run(scenario())
    assert after["room"]["status"] == "waiting"
    assert people_at(table) == ["close-00"]
    # The freed seat is the next person's.
    _, next_table, _ = press(port, make_session(guest="close-next"), name="Next")
    assert next_table == table


def test_each_play_now_limit_holds_at_its_boundary(servers):
    port = servers(
        "site",
        env={
            "PLAY_NOW_WAIT_SECONDS": "600",
            "PLAY_NOW_AWAY_SECONDS": "600",  # nobody here opens the page
            "PLAY_NOW_JOINS_PER_MINUTE": "3",
            "PLAY_NOW_JOINS_PER_MINUTE_PER_ADDRESS": "7",
            "PLAY_NOW_WAITING_PER_GAME": "4",
        },
    ).port
    # One waiting seat per person: the second press while waiting is refused.
    first, *others = guests(8, "limit")
    status, table, _ = press(port, first, seats=8)
    assert status == 302
    status, none, body = press(port, first, seats=8)
    assert (status, none) == (409, None)
    assert refusal(body) == f"You are already waiting at a table: {table}."
    # Three presses a minute per browser: the third (after leaving) is allowed, the
    # fourth refused, whatever else it would have met.
    status, location, _ = http(port, first, f"/r/{table}/leave/", {})
    assert (status, location) == (302, "/")
    status, again, _ = press(port, first, seats=8)
    assert (status, again) == (302, table)
    status, _, body = press(port, first, seats=8)
    assert status == 429
    assert refusal(body) == (
        "You pressed Play now many times in a minute. Wait a moment and try again."
    )
    # Four people waiting for one game at once: the fourth sits down, the fifth is refused.
    for session in others[:3]:
        assert press(port, session, seats=8)[0] == 302
    assert len(people_at(table)) == 4
    status, _, body = press(port, others[3], seats=8)
    assert status == 409
    assert refusal(body) == (
        "Too many people are waiting for Babanuki right now. Try again in a minute."
    )
    # Seven presses a minute from one address (this test's every browser; a press refused
    # for its browser's own rate is not the address's): the seventh, just above, was the
    # last allowed; the eighth, from a browser that never pressed, is refused.
    status, _, body = press(port, others[4], variant="old_maid", seats=8)
    assert status == 429
    assert refusal(body) == (
        "Many people on your network pressed Play now in the last minute. Try again soon."
    )
    assert len(people_at(table)) == 4
