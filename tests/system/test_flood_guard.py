"""Daphne cuts off a socket flooding it with frames where it reads them
(``config/daphne_guard.py``): through a real Daphne and a real client, 200 frames in a
second are all answered, a flood is closed with 4429 and nothing more of it is read, and
the table's other sockets go on as before."""

import asyncio
import json

import pytest
from websockets.exceptions import ConnectionClosed

from tests.rooms import signed_in_friends_room
from tests.support import needs_services
from tests.system.sockets import (
    answers,
    assert_clean_log,
    close_code,
    in_one_window,
    lobby,
    table,
)

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

#: The application's own limits out of the way: only the guard closes here.
LENIENT = {"WS_INVALID_FRAME_LIMIT": "1000000", "WS_FRAMES_PER_SECOND_HARD": "200"}


def test_two_hundred_frames_in_a_burst_are_all_answered(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    server = servers("burst", env=LENIENT)

    async def scenario():
        ws = await table(server.port, room.code, session)
        for i in range(200):
            await ws.send(json.dumps({"type": "ping", "ref": str(i)}))
        found = await answers(ws, 200)  # pongs, and rate_limited past 20 a second
        await ws.close()
        return found

    found = asyncio.run(scenario())
    assert [a["ref"] for a in found] == [str(i) for i in range(200)]
    assert {a["type"] for a in found} <= {"pong", "error"}
    assert_clean_log(server)


async def lobby_burst(port, count: int) -> tuple[int | str, float]:
    """A new lobby socket (every frame answered with one error, nothing more) sends
    ``count`` frames at once: "answered" and the seconds from the first frame sent to
    the last answer read, or the code the socket was closed with and 0. A close needs no
    timing: the guard closes only past its limit of frames in one second (and the client
    reads the close only when the server drops the connection, 2 s later)."""
    ws = await lobby(port)
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        for _ in range(count):
            await ws.send("hello")
        await answers(ws, count)
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), 0.0
    seconds = loop.time() - started
    await ws.close()
    return "answered", seconds


def test_the_guard_answers_200_frames_in_a_second_and_cuts_off_the_201st(servers):
    server = servers("boundary", env=LENIENT)

    async def scenario():
        return {
            count: await in_one_window(lambda count=count: lobby_burst(server.port, count))
            for count in (200, 201)
        }

    assert asyncio.run(scenario()) == {200: "answered", 201: 4429}
    assert "cut off after 200 frames" in server.log_path.read_text()
    assert_clean_log(server)


def test_a_flood_is_closed_with_4429_and_read_no_further_while_a_player_plays_on(servers):
    room, (flooder, player) = signed_in_friends_room(2, 2, rounds=1)
    # A lower limit than the site's, so that even a server slowed by a busy machine reads
    # the flood faster than it.
    server = servers("guard", env={**LENIENT, "WS_FRAMES_PER_SECOND_HARD": "50"})

    async def scenario():
        ws = await table(server.port, room.code, flooder)
        other = await table(server.port, room.code, player)
        sent = 0
        try:
            # Twice the limit at once, as fast as it goes; then it only reads. Frames still
            # arriving after the server has closed would be answered with a reset, which
            # drops the server's close frame unread on this side (seen twice in full runs
            # while the flooder wrote on until the server cut it off).
            for _ in range(100):
                await ws.send("{")
                sent += 1
        except Exception:  # the server dropped the connection under the loop
            pass
        code = await close_code(ws)
        await other.send(json.dumps({"type": "ping", "ref": "after"}))
        pong = (await answers(other, 1))[0]
        await other.close()
        return code, sent, pong

    code, sent, pong = asyncio.run(scenario())
    assert code == 4429
    assert pong == {"type": "pong", "ref": "after"}
    log = server.log_path.read_text()
    assert "cut off after 50 frames" in log
    assert_clean_log(server)
    assert sent > 50
