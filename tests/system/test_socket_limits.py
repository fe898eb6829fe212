"""The sockets' limits and close codes through a real Daphne and a real WebSocket client:
the codes a server may send reach the page as sent (an in-process test checks no code),
each limit holds at its boundary, and no refusal leaves a traceback in the log."""

import asyncio
import json
import time

import pytest
from django.contrib.auth import get_user_model

from games.services import bots
from tests.rooms import signed_in_friends_room
from tests.support import needs_services
from tests.system.sockets import (
    answers,
    assert_clean_log,
    close_code,
    door,
    first_message_or_close,
    in_one_window,
    lobby,
    open_socket,
    table,
)

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


async def timed_answers(ws, frames: list[str]) -> tuple[list[dict], float]:
    """Send ``frames`` at once and read an answer to each: the answers, and the seconds
    from the first frame sent to the last answer read."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    for frame in frames:
        await ws.send(frame)
    found = await answers(ws, len(frames))
    return found, loop.time() - started


async def refuse(ws, count: int) -> None:
    """Send ``count`` malformed frames; each is answered with an error (the socket stays
    open)."""
    for _ in range(count):
        await ws.send("{")
    errors = await answers(ws, count)
    assert [e["code"] for e in errors] == ["malformed"] * count


async def still_open(ws) -> bool:
    await ws.send(json.dumps({"type": "ping", "ref": "alive"}))
    return (await answers(ws, 1))[0] == {"type": "pong", "ref": "alive"}


def test_the_31st_refused_frame_closes_with_4429_and_the_30th_does_not(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    server = servers("flood")

    async def scenario():
        ws = await table(server.port, room.code, session)
        await refuse(ws, 30)
        assert await still_open(ws)
        await ws.send("{")
        return await close_code(ws)

    assert asyncio.run(scenario()) == 4429
    assert_clean_log(server)


def test_refused_frames_spread_beyond_the_window_do_not_close(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    window = 2.0
    server = servers("window", env={"WS_INVALID_WINDOW_SECONDS": str(window)})

    async def scenario():
        ws = await table(server.port, room.code, session)
        await refuse(ws, 30)
        # Every one of those was counted before its answer came: once the window has
        # passed since the last answer, none of them counts any more.
        await asyncio.sleep(window + 0.2)
        await refuse(ws, 30)
        open_after_sixty = await still_open(ws)
        await ws.send("{")  # the 31st within this window
        return open_after_sixty, await close_code(ws)

    assert asyncio.run(scenario()) == (True, 4429)
    assert_clean_log(server)


def test_the_doors_close_codes_reach_the_client(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    owner = get_user_model().objects.get(username="player0")
    _bot, token = bots.create_bot(owner_id=owner.pk, name="Doorbot")
    server = servers("doors")
    port = server.port

    async def code_for(path, origin=None, headers=None):
        return await first_message_or_close(await open_socket(port, path, "", origin, headers))

    def bearer(value):
        return {"Authorization": f"Bearer {value}"}

    async def scenario():
        return {
            "no such room": await code_for("/ws/rooms/ZZZZZZ/"),
            "malformed code": await code_for("/ws/rooms/zz%E2%98%83/"),
            "code too long": await code_for("/ws/rooms/ABCDEFGHJK/"),
            "no such socket": await code_for("/ws/nothing/"),
            "private, no token": await code_for(f"/ws/rooms/{room.code}/"),
            "malformed token": await code_for(f"/ws/rooms/{room.code}/?t=%E2%98%83"),
            "wrong token": await code_for(f"/ws/rooms/{room.code}/?t=nope"),
            "another port": await code_for(
                f"/ws/rooms/{room.code}/?t={room.watch_token}", origin="http://127.0.0.1:9"
            ),
            "another site, lobby": await code_for("/ws/lobby/", origin="http://evil.example"),
            "watch token": await code_for(f"/ws/rooms/{room.code}/?t={room.watch_token}"),
            "bot, wrong token": await code_for("/ws/lobby/", headers=bearer("omb_" + "x" * 43)),
            "bot, malformed token": await code_for("/ws/lobby/", headers=bearer("x")),
            "bot, not a bearer": await code_for("/ws/lobby/", headers={"Authorization": "Basic x"}),
            "bot, not its room": await code_for(f"/ws/rooms/{room.code}/", headers=bearer(token)),
        }

    assert asyncio.run(scenario()) == {
        "no such room": 4404,
        "malformed code": 4404,
        "code too long": 4404,
        "no such socket": 4404,
        "private, no token": 4403,
        "malformed token": 4403,
        "wrong token": 4403,
        "another port": 4403,
        "another site, lobby": 4403,
        "watch token": "state",
        "bot, wrong token": 4401,
        "bot, malformed token": 4401,
        "bot, not a bearer": 4401,
        "bot, not its room": 4403,
    }
    assert_clean_log(server)


def test_the_21st_frame_in_a_second_is_rate_limited_and_the_20th_is_answered(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    server = servers("rate")

    async def burst():
        ws = await table(server.port, room.code, session)
        pings = [json.dumps({"type": "ping", "ref": f"p{n}"}) for n in range(21)]
        found = await timed_answers(ws, pings)
        await ws.close()
        return found

    got = asyncio.run(in_one_window(burst))
    assert got[:20] == [{"type": "pong", "ref": f"p{n}"} for n in range(20)]
    assert (got[20]["code"], got[20]["ref"]) == ("rate_limited", "p20")
    assert_clean_log(server)


def padded_ping(ref: str, size: int) -> str:
    """A well-formed ping of exactly ``size`` bytes of UTF-8 (JSON allows the spaces)."""
    frame = json.dumps({"type": "ping", "ref": ref}, ensure_ascii=False)
    padding = size - len(frame.encode())
    assert padding >= 0
    return frame[:-1] + " " * padding + "}"


def test_frames_are_measured_in_utf8_bytes_at_2048_and_unread_past_64_kb(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    server = servers("sizes")
    wide = "あ" * 10  # 30 bytes in 10 characters

    async def scenario():
        ws = await table(server.port, room.code, session)
        results = []
        for size in (2048, 2049, 65536, 65537):
            frame = padded_ping(wide, size)
            await ws.send(frame)
            (answer,) = await answers(ws, 1)
            results.append((size, len(frame), answer.get("code", answer["type"]), answer["ref"]))
        return results

    assert asyncio.run(scenario()) == [
        (2048, 2028, "pong", wide),
        # Fewer than 2,048 characters, but more than 2,048 bytes.
        (2049, 2029, "too_large", wide),
        (65536, 65516, "too_large", wide),  # read for its ref
        (65537, 65517, "too_large", None),  # not read at all
    ]
    assert_clean_log(server)


def test_one_address_opens_at_most_the_limit_of_sockets_of_each_kind(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    limit = 3
    server = servers("crowd", env={"WS_SOCKETS_PER_CLIENT": str(limit)}, args=["--proxy-headers"])
    port, family, other = server.port, {"X-Forwarded-For": "203.0.113.5"}, "198.51.100.7"
    table_path = f"/ws/rooms/{room.code}/"

    async def opened(path, headers):
        ws = await open_socket(port, path, session, headers=headers)
        return ws, await first_message_or_close(ws)

    async def scenario():
        results = {}
        for kind, path, first in (("table", table_path, "state"), ("lobby", "/ws/lobby/", "lobby")):
            sockets = [await opened(path, family) for _ in range(limit)]
            assert [answer for _, answer in sockets] == [first] * limit
            results[f"{kind}: one more from the address"] = (await opened(path, family))[1]
            stranger = {"X-Forwarded-For": other}
            results[f"{kind}: another address"] = (await opened(path, stranger))[1]
            # A closed socket frees its place (once the server has seen it close).
            await sockets[0][0].close()
            deadline = time.monotonic() + 30
            while (answer := (await opened(path, family))[1]) != first:
                assert time.monotonic() < deadline, answer
            results[f"{kind}: after one closed"] = answer
        return results

    assert asyncio.run(scenario()) == {
        "table: one more from the address": 4429,
        "table: another address": "state",
        "table: after one closed": "state",
        "lobby: one more from the address": 4429,
        "lobby: another address": "lobby",
        "lobby: after one closed": "lobby",
    }
    assert_clean_log(server)


def test_the_lobbys_6th_frame_in_a_second_is_rate_limited_and_the_5th_is_answered(servers):
    server = servers("lobby-rate")

    async def burst():
        ws = await lobby(server.port)
        found, seconds = await timed_answers(ws, ["hello"] * 6)
        await ws.close()
        return [answer["code"] for answer in found], seconds

    # The lobby only listens: a frame within the rate is answered as one it does not take.
    assert asyncio.run(in_one_window(burst)) == ["unknown_action"] * 5 + ["rate_limited"]
    assert_clean_log(server)


def test_an_address_opens_64_table_sockets_and_the_65th_is_closed_with_4429(servers):
    """The site's own limit (``WS_SOCKETS_PER_CLIENT``, 64), not a lower one for the test."""
    room, _ = signed_in_friends_room(2, 2, rounds=1)
    server = servers("crowd64")
    path = f"/ws/rooms/{room.code}/?t={room.watch_token}"  # spectators: no seat's presence

    async def scenario():
        sockets = [await open_socket(server.port, path) for _ in range(64)]
        opened = [await first_message_or_close(ws) for ws in sockets]
        one_more = await door(server.port, path)
        for ws in sockets:
            await ws.close()
        return opened, one_more

    assert asyncio.run(scenario()) == (["state"] * 64, 4429)
    assert_clean_log(server)


def test_a_flooding_lobby_socket_is_refused_30_times_then_closed_with_4429(servers):
    server = servers("lobby")

    async def scenario():
        ws = await lobby(server.port)
        for _ in range(30):
            await ws.send("hello")
        codes = [(await answers(ws, 1))[0]["code"] for _ in range(30)]
        await ws.send("hello")
        return codes, await close_code(ws)

    codes, closed = asyncio.run(scenario())
    # Every frame is refused: five a second as frames the lobby does not take, the rest
    # over the rate (how many of each depends on how many seconds the burst took).
    assert codes[:5] == ["unknown_action"] * 5
    assert set(codes) <= {"unknown_action", "rate_limited"}
    assert closed == 4429
    assert_clean_log(server)


def test_an_address_closed_for_flooding_opens_no_socket_until_its_cooldown_ends(servers):
    room, (session, _) = signed_in_friends_room(2, 2, rounds=1)
    # Longer than the close takes to reach the client: a socket closed for flooding is
    # read no further, so the client's close handshake ends only when the server drops
    # the connection (LINGER_SECONDS, 2 s) or later on a loaded machine.
    cooldown = 8.0
    server = servers(
        "cooldown", env={"WS_FLOOD_COOLDOWN_SECONDS": str(cooldown)}, args=["--proxy-headers"]
    )
    port, flooder = server.port, {"X-Forwarded-For": "203.0.113.5"}
    path = f"/ws/rooms/{room.code}/"

    async def handshake(headers) -> int | str:
        return await door(port, path, session, headers)

    async def scenario():
        ws = await open_socket(port, path, session, headers=flooder)
        await ws.recv()
        await refuse(ws, 30)
        await ws.send("{")
        results = {"flood": await close_code(ws)}
        closed_at = time.monotonic()
        results["same address, at once"] = await handshake(flooder)
        results["another address"] = await handshake({"X-Forwarded-For": "198.51.100.7"})
        await asyncio.sleep(max(0.0, closed_at + cooldown + 0.2 - time.monotonic()))
        results["same address, after the cooldown"] = await handshake(flooder)
        return results

    assert asyncio.run(scenario()) == {
        "flood": 4429,
        "same address, at once": 403,
        "another address": "state",
        "same address, after the cooldown": "state",
    }
    assert_clean_log(server)
