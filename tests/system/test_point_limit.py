"""The point limit is one seat's across its sockets and processes: twenty sockets of the
drawer's seat, on two Daphne processes, get SEAT_POINTS_PER_WINDOW points through to the
room, not twenty times a socket's limit."""

import asyncio
import itertools

import pytest

from tests.rooms import signed_in_friends_room
from tests.system.conftest import Client, needs_services, ply

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

LIMIT = 30
SOCKETS = 20
_refs = itertools.count()


async def answers_by_ref(client: Client, refs: set[str]) -> dict[str, str]:
    """Every frame of ``refs`` this client sent, answered (a ping sent now comes back after
    them: one socket's frames are handled in order): the error code each got, or
    "passed"."""
    barrier = f"barrier-{next(_refs)}"
    await client.send(type="ping", ref=barrier)
    got = dict.fromkeys(refs, "passed")
    while True:
        message = await client.receive(30)
        assert message is not None, f"no pong within 30 s ({barrier})"
        if message["type"] == "pong" and message["ref"] == barrier:
            return got
        if message["type"] == "error" and message.get("ref") in refs:
            got[message["ref"]] = message["code"]


async def point(client: Client, position: int, ref: str) -> None:
    await client.send(type="point", **ply(client.state, "point"), position=position, ref=ref)


def test_twenty_sockets_of_the_drawers_seat_are_held_to_the_seats_limit(servers):
    room, sessions = signed_in_friends_room(2, 2, rounds=1)
    # An hour's window: however slow the machine, every point falls in one window. The
    # socket's own limit (WS_POINTS_PER_SECOND, 10 a second) stays as it is.
    env = {"SEAT_POINT_WINDOW_SECONDS": "3600", "SEAT_POINTS_PER_WINDOW": str(LIMIT)}
    one, two = servers("one", env=env), servers("two", env=env)

    async def scenario():
        first = [await Client(key).connect(one.port, room.code) for key in sessions]
        drawer = next(i for i, c in enumerate(first) if c.state["acting"] is not None)
        giver = first[1 - drawer]
        tabs = [first[drawer]]
        for n in range(1, SOCKETS):  # the drawer's seat on both processes
            port = two.port if n % 2 else one.port
            tabs.append(await Client(sessions[drawer]).connect(port, room.code))
        count = giver.state["seats"][giver.state["you"][0]]["count"]
        last_position = count - 1  # the last allowed point's; every other points at 0

        # All but one of the seat's points, from every socket at once.
        sent: dict[int, set[str]] = {n: set() for n in range(SOCKETS)}
        for k in range(LIMIT - 1):
            n, ref = k % SOCKETS, f"early-{k}"
            sent[n].add(ref)
            await point(tabs[n], 0, ref)
        early = await asyncio.gather(*(answers_by_ref(tabs[n], sent[n]) for n in range(SOCKETS)))
        assert {code for got in early for code in got.values()} == {"passed"}

        # The last allowed point goes through; the next, on the other process, is refused.
        await point(tabs[1], last_position, "last")
        assert await answers_by_ref(tabs[1], {"last"}) == {"last": "passed"}
        await point(tabs[2], 0, "beyond")
        assert await answers_by_ref(tabs[2], {"beyond"}) == {"beyond": "slow_down"}

        # Every socket keeps pointing for a while: nothing more gets through.
        later: dict[int, set[str]] = {n: set() for n in range(SOCKETS)}
        for k in range(5 * SOCKETS):
            n, ref = k % SOCKETS, f"later-{k}"
            later[n].add(ref)
            await point(tabs[n], 0, ref)
        refused = await asyncio.gather(*(answers_by_ref(tabs[n], later[n]) for n in range(SOCKETS)))
        assert {code for got in refused for code in got.values()} == {"slow_down"}

        # The giver's seat reacts: its reaction reaches the room after every pointing
        # already sent (Redis hands a subscriber its messages in the order published).
        await giver.send(type="react", reaction="good_luck")
        pointings = []
        while True:
            message = await giver.receive(30)
            assert message is not None, "the giver's own reaction never came back"
            if message["type"] == "pointing":
                pointings.append(message)
            if message["type"] == "reaction":
                break
        for client in [*first, *tabs[1:]]:
            await client.close()
        return drawer, pointings, last_position

    drawer, pointings, last_position = asyncio.run(scenario())
    assert len(pointings) == LIMIT
    assert {p["seat"] for p in pointings} == {drawer}
    assert pointings[-1]["position"] == last_position
