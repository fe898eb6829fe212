"""Bad input gets a structured error and a fresh snapshot, changes nothing, and the
connection stays usable."""

import asyncio
import json

import pytest

from tests.games.conftest import Player
from tests.games.refusals import draw_count, expect_error, room_version
from tests.rooms import friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


async def test_stale_and_duplicate_actions_are_refused():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    state = drawer.state
    message = {"type": "draw", **ply(state, "draw"), "position": 0}
    await drawer.send(**message)
    applied = await drawer.until(lambda s: s["version"] == state["version"] + 1)
    assert applied["event"]["kind"] == "draw"
    # The same message again (a double click, a resend): refused, nothing changes.
    before = await room_version(room)
    await drawer.send(**message)
    await expect_error(drawer, "stale_version")
    assert await room_version(room) == before
    assert await draw_count(room) == 1


async def test_drawing_out_of_turn_is_refused():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    waiting = friend if host.state["acting"] is not None else host
    await waiting.send(type="draw", **ply(waiting.state, "draw"), position=0)
    await expect_error(waiting, "not_your_turn")
    assert await draw_count(room) == 0


async def test_bad_positions_are_refused():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    for position in (-1, 999):
        await drawer.send(type="draw", **ply(drawer.state, "draw"), position=position)
        await expect_error(drawer, "bad_position")
    assert await draw_count(room) == 0


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('"draw"', "malformed"),
        ("{}", "malformed"),
        ('{"type": 5}', "malformed"),
        ('{"type": "fly"}', "unknown_action"),
        ('{"type": "draw", "match": 1}', "malformed"),
        ('{"type": "draw", "match": "1", "round": 1, "draw": 0, "position": 0}', "malformed"),
        ('{"type": "draw", "match": 1, "round": 1, "draw": 0, "position": true}', "malformed"),
        ('{"type": "draw", "match": 1, "round": 1, "draw": 0, "position": 1.5}', "malformed"),
        (
            '{"type": "draw", "match": 1, "round": 1, "draw": 0, "position": 0, "card": "JK"}',
            "malformed",
        ),
        ('{"type": "ping", "ref": ' + json.dumps("r" * 41) + "}", "malformed"),
        ('{"type": "ping", "ref": ' + json.dumps("x" * 3000) + "}", "too_large"),
        ("[" * 1000 + "]" * 1000, "malformed"),
        (b"\x00\x01binary", "malformed"),
    ],
)
async def test_malformed_messages_get_a_structured_error(frame, code):
    room, (host, _friend) = await friends_in_play("host", "friend", rounds=1)
    before = await room_version(room)
    if isinstance(frame, bytes):
        await host.socket.send_to(bytes_data=frame)
    else:
        await host.socket.send_to(text_data=frame)
    await expect_error(host, code)
    assert await room_version(room) == before
    # Still usable.
    await host.send(type="ping", ref="after")
    reply = await host.receive()
    assert reply == {"type": "pong", "ref": "after"}


async def test_flooding_is_rate_limited_without_closing():
    room, (host, _friend) = await friends_in_play("host", "friend", rounds=1)
    for _ in range(25):
        await host.send(type="ping")
    replies = [await host.receive() for _ in range(25)]
    codes = [r.get("code") for r in replies if r["type"] == "error"]
    assert "rate_limited" in codes
    await asyncio.sleep(1.1)
    await host.drain()
    await host.send(type="ping", ref="later")
    assert (await host.receive())["type"] == "pong"


async def test_two_sockets_racing_to_draw_apply_exactly_one():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    twin = Player(drawer.session_key, drawer.actor)  # the same player in a second tab
    await twin.connect(room.code)
    version, at = drawer.state["version"], ply(drawer.state, "draw")
    await asyncio.gather(
        drawer.send(type="draw", **at, position=0),
        twin.send(type="draw", **at, position=1),
    )
    await drawer.until(lambda s: s["version"] >= version + 1)
    await twin.until(lambda s: s["version"] >= version + 1)
    # A socket's messages are answered in order: by the pong, each draw has its answer.
    for player in (drawer, twin):
        await player.send(type="ping", ref="after")
        while (await player.receive())["type"] != "pong":
            pass
    errors = [m for p in (drawer, twin) for m in p.messages if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["stale_version"]
    assert await draw_count(room) == 1


async def test_actions_that_the_match_state_does_not_allow():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    await friend.send(type="start", fill=True)
    await expect_error(friend, "not_host")
    await host.send(type="next_round", **ply(host.state, "next_round"))
    await expect_error(host, "round_in_play")
    await host.send(type="rematch", **ply(host.state, "rematch"))
    await expect_error(host, "match_in_play")
    await host.send(type="leave", **ply(host.state, "leave"))
    await expect_error(host, "not_allowed")  # two seats: resign instead
    spectator = await Player.guest("watcher")
    await spectator.connect(room.code, token=room.token)
    await spectator.send(type="resign", **ply(spectator.state, "resign"))
    await expect_error(spectator, "not_seated")


async def test_players_see_how_many_are_watching_without_a_version_change():
    room, (host, _friend) = await friends_in_play("host", "friend", rounds=1)
    version = host.state["version"]
    watcher = await Player.guest("eyes")
    await watcher.connect(room.code, token=room.token)
    message = await host.receive()
    while message["type"] != "spectators":
        message = await host.receive()
    assert message == {"type": "spectators", "count": 1}
    assert await room_version(room) == version
    await watcher.close()
    message = await host.receive()
    while message["type"] != "spectators":
        message = await host.receive()
    assert message["count"] == 0
