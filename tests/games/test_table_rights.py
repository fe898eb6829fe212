"""Seat rights come from the state with every message; an action's precondition is the
move it answers, so presence never makes it stale; refusals cost no database read."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from games import services
from games.models import Draw, Room
from games.realtime import consumers
from tests.games.conftest import Player, match_ended, play_to_match_end
from tests.rooms import friends_in_play, waiting_table
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


def hands_shown(messages) -> set[str]:
    """Every seat whose hand any in-play state among ``messages`` showed."""
    return {
        seat
        for m in messages
        if m["type"] == "state" and m["round"] and not m["round"]["over"]
        for seat in m["round"]["hands"]
    }


async def test_a_removed_player_never_sees_the_next_holders_hand():
    host, gone, newcomer = [await Player.user(n) for n in ("host", "gone", "newcomer")]
    room = await waiting_table(host, {"g": gone}, rounds=1)  # gone's socket stays open throughout
    assert gone.state["you"] == [1]
    await database_sync_to_async(services.remove_player)(
        room_id=room.pk, actor=host.actor, seat_index=1
    )
    freed = await gone.until(lambda s: s["seats"][1]["kind"] == "empty")
    assert freed["you"] == []
    await database_sync_to_async(services.join_room)(
        room_id=room.pk, actor=newcomer.actor, name="n"
    )
    await newcomer.connect(room.code)
    await host.send(type="start", fill=False)
    await gone.until(lambda s: s["room"]["status"] == "playing")
    await play_to_match_end(host, newcomer)
    await gone.until(match_ended)
    later = gone.messages[gone.messages.index(freed) :]
    assert all(m["you"] == [] for m in later if m["type"] == "state")
    assert hands_shown(later) == set()


async def test_a_player_who_leaves_gets_the_spectator_view_at_once():
    room, (a, b, c) = await friends_in_play("a", "b", "c", rounds=1)
    await c.send(type="leave", **ply(c.state, "leave"))
    left = await c.until(lambda s: s["seats"][2]["left"])
    assert left["you"] == [] and left["acting"] is None
    await play_to_match_end(a, b)
    await c.until(match_ended)
    after = c.messages[c.messages.index(left) :]
    assert all(m["you"] == [] for m in after if m["type"] == "state")
    assert hands_shown(after) == set()
    # Reconnecting gives the same view: the two paths agree.
    again = Player(c.session_key, c.actor)
    await again.connect(room.code)
    assert again.state["you"] == []


async def test_a_draw_made_while_another_seat_reconnects_is_applied():
    room, (a, b, c) = await friends_in_play("a", "b", "c", rounds=1)
    drawer = next(p for p in (a, b, c) if p.state["acting"] is not None)
    other = next(p for p in (a, b, c) if p is not drawer)
    seen = drawer.state
    # A friend's Wi-Fi blips: their seat goes away and comes back (two changes) ...
    await other.close()
    back = Player(other.session_key, other.actor)
    await back.connect(room.code)
    await drawer.until(lambda s: s["version"] >= seen["version"] + 2)
    # ... and the draw the drawer chose on the table as it was still goes through.
    await drawer.send(type="draw", **ply(seen, "draw"), position=0)
    applied = await drawer.until(lambda s: s["event"] and s["event"]["kind"] == "draw")
    assert applied["round"]["draws"] == seen["round"]["draws"] + 1
    assert not [m for m in drawer.messages if m["type"] == "error"]
    assert await database_sync_to_async(Draw.objects.filter(round__match__room=room).count)() == 1


class CountingHops:
    """Counts the consumer's trips to the database thread."""

    def __init__(self):
        self.calls = 0
        self.real = consumers.in_worker

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)


async def test_refusals_and_sync_cost_no_database_read(monkeypatch):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    hops = CountingHops()
    monkeypatch.setattr(consumers, "in_worker", hops)
    frames = ["nonsense", '{"type": "fly", "ref": "x"}', "{}", json.dumps({"type": "sync"})]
    for frame in frames * 5:
        await host.socket.send_to(text_data=frame)
    await host.send(type="ping", ref="end")
    while (await host.receive()) != {"type": "pong", "ref": "end"}:
        pass
    snapshots = [m for m in host.messages if m["type"] == "state"]
    assert snapshots[-1]["version"] == host.state["version"]
    assert hops.calls == 0


async def test_a_flood_of_bad_frames_costs_no_database_work_and_others_are_answered_during_it(
    monkeypatch,
):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    flooder = await Player.guest("flood")
    await flooder.connect(room.code, token=room.watch_token)
    hops = CountingHops()
    monkeypatch.setattr(consumers, "in_worker", hops)
    with override_settings(WS_INVALID_FRAME_LIMIT=10**6):
        for _ in range(500):
            await flooder.socket.send_to(text_data="{bad")
        for n in range(10):  # fewer than the rate allows in a second
            await host.send(type="ping", ref=f"t{n}")
            while (await host.receive(timeout=10)).get("ref") != f"t{n}":
                pass
        # The flooder's frames its socket has not read yet: the host's pings were not
        # queued behind the flood, they were answered while it was being read.
        unread = flooder.socket.input_queue.qsize()
        await flooder.drain()
    assert unread > 0
    # The flood reached no database, so it could not hold up the process's database
    # thread, which every other socket's actions need.
    assert hops.calls == 0
    errors = [m for m in flooder.messages if m["type"] == "error"]
    assert len(errors) >= 500 and {e["code"] for e in errors} <= {"malformed", "rate_limited"}


async def test_a_socket_that_keeps_sending_garbage_is_closed_and_others_play_on():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    watcher = await Player.guest("flood")
    await watcher.connect(room.code, token=room.watch_token)
    for _ in range(200):
        await watcher.socket.send_to(text_data="{bad")
    closed = None
    while closed is None:
        output = await watcher.socket.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            closed = output
    assert closed["code"] == 4429
    # Every other socket of the process is answered and the game goes on.
    await host.send(type="ping", ref="still-there")
    while (await host.receive()).get("ref") != "still-there":
        pass
    await play_to_match_end(host, friend)
    room = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    assert room.status == Room.Status.FINISHED


async def test_refused_frames_echo_their_ref():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    cases = [
        ('{"type": "fly", "ref": "u1"}', "unknown_action", "u1"),
        ('{"type": "draw", "ref": "m1"}', "malformed", "m1"),
        (json.dumps({"type": "ping", "ref": "t1", "pad": "x" * 3000}), "too_large", "t1"),
    ]
    for frame, code, ref in cases:
        await host.socket.send_to(text_data=frame)
        error = await host.receive()
        while error["type"] != "error":
            error = await host.receive()
        assert (error["code"], error["ref"]) == (code, ref)
    await asyncio.sleep(1.05)  # a new second for the rate limit
    for n in range(25):
        await host.send(type="ping", ref=f"r{n}")
    limited = []
    for _ in range(25):
        message = await host.receive()
        if message["type"] == "error":
            limited.append(message)
    assert limited and all(e["code"] == "rate_limited" for e in limited)
    assert {e["ref"] for e in limited} <= {f"r{n}" for n in range(25)} and limited[0]["ref"]
