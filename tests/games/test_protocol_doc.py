"""docs/protocol.md matches the server: its examples have the shape of real messages,
its client examples are accepted, and its error table lists exactly the server's codes."""

import json
import re
from pathlib import Path

import pytest

from games.errors import CODES
from games.realtime.frames import ACTIONS, parse_action
from tests.games.conftest import Player
from tests.games.messages import shape
from tests.rooms import computer_table, friends_in_play
from tests.support import ply

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
EXAMPLES = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def test_client_examples_are_accepted_and_cover_every_action():
    sent = [e for e in EXAMPLES if e["type"] in ACTIONS]
    for example in sent:
        assert parse_action(json.dumps(example), None) == example
    assert {e["type"] for e in sent} == set(ACTIONS)


def test_close_code_table_lists_exactly_the_codes_the_server_closes_with():
    """Each code is sent as written by a real Daphne in tests/system/test_socket_limits.py
    (4401 and 4403 for token sockets too), test_faults.py (4503) and test_shutdown.py
    (4012)."""
    from config.bot_sockets import BAD_TOKEN
    from config.daphne_shutdown import RESTARTING
    from config.origin import REFUSED
    from games.realtime.consumers import NO_SUCH_ROOM, NOT_ALLOWED, TOO_MANY
    from games.realtime.outages import UNAVAILABLE

    table = DOC.split("| close code | meaning |", 1)[1].split("\n\n", 1)[0]
    documented = {int(code) for code in re.findall(r"^\| (\d{4}) \|", table, re.M)}
    sent = {NO_SUCH_ROOM, NOT_ALLOWED, REFUSED, BAD_TOKEN, UNAVAILABLE, TOO_MANY, RESTARTING}
    assert documented == sent == {4012, 4401, 4403, 4404, 4429, 4503}


def test_error_table_lists_exactly_the_server_codes():
    table = DOC.split("| code | when |", 1)[1].split("\n\n", 1)[0]
    assert set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M)) == set(CODES)


@pytest.mark.django_db(transaction=True)
async def test_server_examples_have_the_shape_of_real_messages():
    me = await Player.guest("doc")
    await computer_table(me, seats=3, rounds=1, first_dealer=2)
    await me.send(type="point", **ply(me.state, "point"), position=0)
    pointing = await _next(me, "pointing")
    await me.send(type="react", reaction="good_luck")
    reaction = await _next(me, "reaction")
    await me.send(type="draw", **ply(me.state, "draw"), position=0, ref="d1")
    event_state = await me.until(lambda s: s["event"] and s["event"]["kind"] == "draw")
    await me.send(type="draw", **{**ply(me.state, "draw"), "draw": 0}, position=0, ref="d2")
    error = await me.receive()
    while error["type"] != "error":
        error = await me.receive()
    await me.send(type="ping", ref="p1")
    pong = await me.receive()
    while pong["type"] != "pong":
        pong = await me.receive()
    real = {
        "state": event_state,
        "error": error,
        "pong": pong,
        "pointing": pointing,
        "reaction": reaction,
    }
    # A draw of the odd card between its two hands also says ``"odd": true`` (the text
    # after the example says so): here when the deal put the joker where the draw took it.
    assert event_state["event"].pop("odd", True) is True
    documented = [e for e in EXAMPLES if e["type"] in real]
    assert {e["type"] for e in documented} == set(real)
    for example in documented:
        assert shape(example) == shape(real[example["type"]]), example["type"]


async def _next(player, kind: str) -> dict:
    message = await player.receive()
    while message["type"] != kind:
        message = await player.receive()
    return message


# -- "Refusals, case by case": every row is played against the server --------------------

REFUSALS_TABLE = DOC.split("## Refusals, case by case", 1)[1].split("\n## ", 1)[0]
REFUSALS = dict(
    re.findall(
        r"^\| (.+?) \| (close \d+|error `[a-z_]+`(?:, ref echoed)?|`[a-z]+` .+?) \|$",
        REFUSALS_TABLE,
        re.M,
    )
)


async def _table():
    """A two-seat friends table, both seated and connected, and a spectator."""
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    waiting = friend if drawer is host else host
    return room, drawer, waiting


async def _close_code(code, token="", origin=None) -> str:
    player = await Player.guest("door")
    kwargs = {"origin": origin} if origin else {}
    assert not await player.connect(code, token=token, **kwargs)
    return f"close {player.close_code}"


async def _error(player, frame: str, expect_ref: str | None = None) -> str:
    await player.socket.send_to(text_data=frame)
    message = await player.receive()
    while message["type"] != "error":
        message = await player.receive()
    answer = f"error `{message['code']}`"
    if expect_ref is not None and message["ref"] == expect_ref:
        answer += ", ref echoed"
    return answer


async def _case(case: str) -> str:
    if case == "a socket for a room code that does not exist":
        return await _close_code("ZZZZZZ")
    room, drawer, waiting = await _table()
    private_room = room  # friends rooms are private unless listed
    if case == "a socket for a private room without a token":
        return await _close_code(private_room.code)
    if case == "a socket for a private room with a malformed token":
        return await _close_code(private_room.code, token="%E2%98%83" * 3)
    if case == "a socket whose Origin has another port":
        return await _close_code(
            private_room.code, token=room.token, origin=(b"origin", b"http://127.0.0.1:9999")
        )
    if case == "a spectator sends a draw":
        spectator = await Player.guest("eyes")
        await spectator.connect(room.code, token=room.token)
        at = ply(drawer.state, "draw")
        return await _error(spectator, json.dumps({"type": "draw", **at, "position": 0}))
    if case == "a player draws out of turn":
        at = ply(waiting.state, "draw")
        return await _error(waiting, json.dumps({"type": "draw", **at, "position": 0}))
    if case == "a draw naming an earlier move, with a ref":
        at = {**ply(drawer.state, "draw"), "draw": drawer.state["round"]["draws"] + 5}
        frame = json.dumps({"type": "draw", **at, "position": 0, "ref": "s1"})
        return await _error(drawer, frame, "s1")
    if case == "a frame of an unknown type, with a ref":
        return await _error(drawer, '{"type": "fly", "ref": "u1"}', "u1")
    if case == "a frame missing a field, with a ref":
        return await _error(drawer, '{"type": "draw", "match": 1, "ref": "m1"}', "m1")
    if case == "a frame over 2,048 bytes, with a ref":
        return await _error(
            drawer, json.dumps({"type": "ping", "ref": "t1", "x": "y" * 2100}), "t1"
        )
    if case == "the 21st frame in one second, with a ref":
        # Frames sent at once, each with a ref: whichever goes over the limit (on a busy
        # machine the second may turn over part way) is refused with its own ref.
        refs = [f"r{n}" for n in range(60)]
        for ref in refs:
            await drawer.socket.send_to(text_data=json.dumps({"type": "ping", "ref": ref}))
        message = await drawer.receive()
        while message["type"] != "error":
            message = await drawer.receive()
        answer = f"error `{message['code']}`"
        return answer + (", ref echoed" if message["ref"] in refs else "")
    if case == "more than 30 refused frames in 10 seconds":
        for _ in range(31):
            await drawer.socket.send_to(text_data="{")
        while True:
            output = await drawer.socket.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                return f"close {output['code']}"
    if case == "the drawer points at a card of the giver's hand":
        spectator = await Player.guest("eyes")
        await spectator.connect(room.code, token=room.token)
        await drawer.send(type="point", **ply(drawer.state, "point"), position=0)
        expected = {"type": "pointing", "seat": drawer.state["acting"], "position": 0}
        if await _next(waiting, "pointing") == await _next(spectator, "pointing") == expected:
            return "`pointing` to the giver and spectators"
        return "something else"
    if case == "a player points out of turn":
        return await _error(
            waiting, json.dumps({"type": "point", **ply(waiting.state, "point"), "position": 0})
        )
    if case == "a point naming an earlier move, with a ref":
        at = {**ply(drawer.state, "point"), "draw": drawer.state["round"]["draws"] - 1}
        frame = json.dumps({"type": "point", **at, "position": 0, "ref": "s2"})
        return await _error(drawer, frame, "s2")
    if case == "the 11th point in one second, with a ref":
        # Sent at once (on a busy machine the second may turn over part way: whichever
        # goes over the limit is refused with its own ref).
        refs = [f"p{n}" for n in range(15)]
        at = ply(drawer.state, "point")
        for ref in refs:
            frame = {"type": "point", **at, "position": 0, "ref": ref}
            await drawer.socket.send_to(text_data=json.dumps(frame))
        message = await _next(drawer, "error")
        return f"error `{message['code']}`" + (", ref echoed" if message["ref"] in refs else "")
    if case == "a seated player reacts":
        spectator = await Player.guest("eyes")
        await spectator.connect(room.code, token=room.token)
        await waiting.send(type="react", reaction="well_played")
        expected = {"type": "reaction", "seat": waiting.state["you"][0], "reaction": "well_played"}
        if await _next(drawer, "reaction") == await _next(spectator, "reaction") == expected:
            return "`reaction` to the other player and spectators"
        return "something else"
    if case == "a reaction outside the closed set":
        return await _error(drawer, json.dumps({"type": "react", "reaction": "you lose"}))
    if case == "a spectator reacts":
        spectator = await Player.guest("eyes")
        await spectator.connect(room.code, token=room.token)
        return await _error(spectator, json.dumps({"type": "react", "reaction": "smile"}))
    if case == "the 6th reaction of a seat in 10 seconds, with a ref":
        refs = [f"r{n}" for n in range(8)]
        for ref in refs:
            frame = {"type": "react", "reaction": "smile", "ref": ref}
            await drawer.socket.send_to(text_data=json.dumps(frame))
        message = await _next(drawer, "error")
        answer = f"error `{message['code']}`"
        return answer + (", ref echoed" if message["ref"] == "r5" else "")
    host, guest = (drawer, waiting) if 0 in drawer.state["you"] else (waiting, drawer)
    if case == "the host sets the computer speed":
        await host.send(type="speed", speed="fast")
        seen = [
            await p.until(lambda s: s["room"]["computer_speed"] == "fast") for p in (host, guest)
        ]
        if all(s["event"] == {"kind": "speed_changed", "seat": 0} for s in seen):
            return "`state` with the new `room.computer_speed` to every socket"
        return "something else"
    if case == "a player who is not the host sets the computer speed":
        return await _error(guest, json.dumps({"type": "speed", "speed": "slow"}))
    if case == "a speed other than slow, normal and fast":
        return await _error(host, json.dumps({"type": "speed", "speed": "warp"}))
    raise AssertionError(f"no scenario for the documented case {case!r}")


def test_every_row_of_the_refusals_table_is_played_and_names_a_real_answer():
    """No row of "Refusals, case by case" escapes the pattern that turns rows into the
    cases played below (the row of the computer speed did, until this test), no case is
    named twice, and each answer is an error code the server has (games.errors.CODES) or a
    close code of the close-code table. That every code can be met is the error table's
    test (test_error_table_lists_exactly_the_server_codes)."""
    rows = re.findall(r"^\| (.+?) \| .+ \|$", REFUSALS_TABLE, re.M)
    cases = [row for row in rows if row not in ("case", "---")]
    assert sorted(cases) == sorted(REFUSALS), set(cases) ^ set(REFUSALS)
    closes = DOC.split("| close code | meaning |", 1)[1].split("\n\n", 1)[0]
    close_codes = set(re.findall(r"^\| (\d{4}) \|", closes, re.M))
    for case, answer in REFUSALS.items():
        if answer.startswith("error"):
            assert re.match(r"error `([a-z_]+)`", answer)[1] in CODES, case
        elif answer.startswith("close"):
            assert answer.split()[1] in close_codes, case


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", sorted(REFUSALS))
async def test_each_documented_refusal_is_what_the_server_does(case):
    assert await _case(case) == REFUSALS[case]
