"""What the table socket answers from the state it keeps: refusals with no database call,
frames after a 4429 close dropped unread, never a state older than the one sent, the
heartbeat's catch-up after a grace, and a frame's ref kept through a lone surrogate."""

import asyncio
import copy
import json

import pytest
from channels.db import database_sync_to_async

from games import selectors
from games.identity import Actor
from games.realtime import broadcast, consumers, workers
from games.realtime.consumers import TableConsumer
from tests.games.conftest import Player
from tests.games.refusals import draw_count, expect_error, refused_without_queries
from tests.rooms import computer_room, friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "who, code, message",
    [
        ("spectator", "not_seated", "Only the players at this table may do that."),
        ("player out of turn", "not_your_turn", "It is not your turn to draw."),
    ],
)
async def test_a_spectators_or_out_of_turn_draw_is_refused_with_no_database_query(
    monkeypatch, who, code, message
):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    if who == "spectator":
        sender = await Player.guest("eyes")
        await sender.connect(room.code, token=room.token)
    else:
        sender = friend if host.state["acting"] is not None else host
    frame = {"type": "draw", **ply(sender.state, "draw"), "position": 0}
    error = await refused_without_queries(monkeypatch, sender, frame, code)
    assert error["message"] == message
    assert await draw_count(room) == 0


async def test_stale_out_of_range_and_early_next_round_are_refused_with_no_query(monkeypatch):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer = host if host.state["acting"] is not None else friend
    at = ply(drawer.state, "draw")
    count = drawer.state["seats"][drawer.state["round"]["giver"]]["count"]
    cases = [
        ({"type": "draw", **at, "draw": at["draw"] + 1, "position": 0}, "stale_version"),
        ({"type": "draw", **at, "position": count}, "bad_position"),
        ({"type": "draw", **at, "position": -1}, "bad_position"),
        ({"type": "next_round", **ply(drawer.state, "next_round")}, "round_in_play"),
        ({"type": "rematch", **ply(drawer.state, "rematch")}, "match_in_play"),
        ({"type": "leave", **ply(drawer.state, "leave")}, "not_allowed"),  # two seats
    ]
    for frame, code in cases:
        await refused_without_queries(monkeypatch, drawer, frame, code)
    assert await draw_count(room) == 0
    # The last card of the hand is still a card: an honest draw goes through.
    await drawer.send(type="draw", **at, position=count - 1)
    applied = await drawer.until(lambda s: s["round"]["draws"] == at["draw"] + 1)
    assert applied["event"]["kind"] == "draw"
    assert await draw_count(room) == 1


async def test_the_kept_states_refusals_are_the_services_own(monkeypatch):
    """The same refusal, code and message, whether the socket or the service decides."""
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    waiting = friend if host.state["acting"] is not None else host
    frame = {"type": "draw", **ply(waiting.state, "draw"), "position": 0}
    await waiting.send(**frame)
    kept = await expect_error(waiting, "not_your_turn")
    # Without the kept state's answer, the service decides under the room's lock.
    monkeypatch.setattr(consumers, "refusal", lambda *args: None)
    await waiting.send(**frame)
    assert await expect_error(waiting, "not_your_turn") == kept


async def test_frames_after_the_4429_close_are_dropped_unread(monkeypatch):
    reads, dispatched = [], []
    parse = consumers.parse_action
    monkeypatch.setattr(consumers, "parse_action", lambda *a: reads.append(a) or parse(*a))
    dispatch = TableConsumer.dispatch

    async def counting(socket, message):
        dispatched.append(message["type"])
        await dispatch(socket, message)

    monkeypatch.setattr(TableConsumer, "dispatch", counting)
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    dispatched.clear()
    reads.clear()
    for _ in range(31):
        await host.socket.send_to(text_data="{")
    while (output := await host.socket.receive_output(timeout=10))["type"] != "websocket.close":
        pass
    assert output["code"] == 4429
    assert len(reads) == 31
    for _ in range(100):
        await host.socket.send_to(text_data="{")
    await host.socket.send_to(text_data=json.dumps({"type": "ping", "ref": "p"}))
    assert await host.socket.receive_nothing(timeout=0.5)
    assert len(reads) == 31
    # Not even dispatched: a queued frame of a closed socket costs a get, not a task.
    assert dispatched.count("websocket.receive") == 31


@pytest.mark.parametrize(
    "frame",
    ['{"type": "\\ud800", "ref": "r1"}', '{"type": "\ud800", "ref": "r1"}'],
    ids=["escaped", "raw"],
)
async def test_a_lone_surrogate_in_the_type_keeps_the_frames_ref(frame):
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    await host.socket.send_to(text_data=frame)
    error = await expect_error(host, "malformed")
    assert error["ref"] == "r1"


# -- the socket's state: never older, and caught up after a grace --------------------------


class OwnChannel:
    """A channel layer for one socket: what is sent to its channel reaches it at once."""

    def __init__(self, socket):
        self.socket = socket

    async def send(self, channel, message):
        assert channel == self.socket.channel_name
        await self.socket.dispatch(message)

    async def group_add(self, group, channel):
        pass


async def a_table_socket(monkeypatch):
    """A consumer for a real room's state, its sends recorded (no ASGI server)."""
    guest = Actor(guest="g" * 32)
    room = await database_sync_to_async(computer_room)(guest)
    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    socket = TableConsumer()
    socket.actor, socket.language, socket.room_id = guest, "en", room.pk
    socket.channel_name = "test-channel"
    socket.channel_layer = OwnChannel(socket)
    socket.sent = []

    async def send(text_data=None, bytes_data=None, close=False):
        socket.sent.append(json.loads(text_data))

    socket.send = send
    monkeypatch.setattr(consumers.driver, "ensure", lambda *args: None)
    await socket.send_state(state)
    return socket, state


def at_version(state, version):
    newer = copy.deepcopy(state)
    newer["version"] = version
    return newer


async def test_a_snapshot_older_than_the_sockets_state_is_not_sent(monkeypatch):
    socket, state = await a_table_socket(monkeypatch)
    for step in (1, 2):
        await socket.room_changed({"state": at_version(state, state["version"] + step)})
    # A snapshot read before that broadcast overtook it.
    monkeypatch.setattr(
        selectors, "snapshot", lambda room_id: at_version(state, state["version"] + 1)
    )
    socket.missed = True
    await socket.resync()
    await socket.send_state(at_version(state, state["version"] + 1))
    assert [m["version"] for m in socket.sent] == [state["version"] + n for n in (0, 1, 2)]
    assert socket.state["version"] == state["version"] + 2


async def test_a_change_that_overtook_an_earlier_one_waits_for_it(monkeypatch):
    """Another process's broadcast of the room's next change but one came first (a room
    split over two processes): it is held until the change before it comes, and both go
    out in the order they were made, each with its event."""
    socket, state = await a_table_socket(monkeypatch)
    await socket.room_changed({"state": at_version(state, state["version"] + 2)})
    assert [m["version"] for m in socket.sent] == [state["version"]]
    await socket.room_changed({"state": at_version(state, state["version"] + 1)})
    assert [m["version"] for m in socket.sent] == [state["version"] + n for n in (0, 1, 2)]
    await asyncio.wait_for(socket.filling, 10)  # nothing left to wait for
    assert len(socket.sent) == 3


async def test_held_changes_go_out_in_order_once_a_grace_brings_nothing(monkeypatch):
    """The change before them was lost on its way (Redis went away): after a grace with
    nothing arriving, the held changes are sent, in order, rather than held for ever."""
    socket, state = await a_table_socket(monkeypatch)
    graces = Graces()
    monkeypatch.setattr(consumers, "asyncio", graces)
    for step in (3, 2):
        await socket.room_changed({"state": at_version(state, state["version"] + step)})
    (await asyncio.wait_for(graces.waiting.get(), 10)).set_result(None)  # nothing came
    await asyncio.wait_for(socket.filling, 10)
    assert [m["version"] for m in socket.sent] == [state["version"] + n for n in (0, 2, 3)]


async def a_socket_one_change_behind(monkeypatch, settings):
    """A socket whose heartbeat found the room one change ahead; the snapshots read."""
    settings.BROADCAST_GRACE_SECONDS = 0.05
    socket, state = await a_table_socket(monkeypatch)
    ahead = at_version(state, state["version"] + 1)
    reads = []
    monkeypatch.setattr(selectors, "snapshot", lambda room_id: reads.append(room_id) or ahead)
    await socket.beat(ahead["version"])
    return socket, state, ahead, reads


async def test_a_lost_broadcast_is_caught_up_one_grace_after_the_heartbeat(monkeypatch, settings):
    socket, state, ahead, reads = await a_socket_one_change_behind(monkeypatch, settings)
    assert reads == []  # the beat does not wait out the grace
    await asyncio.wait_for(socket.catching_up, 10)
    assert reads == [socket.room_id]
    assert [m["version"] for m in socket.sent] == [state["version"], ahead["version"]]


async def test_a_broadcast_arriving_within_the_grace_needs_no_snapshot(monkeypatch, settings):
    socket, state, ahead, reads = await a_socket_one_change_behind(monkeypatch, settings)
    await socket.room_changed({"state": ahead})
    await asyncio.wait_for(socket.catching_up, 10)
    assert reads == []
    assert [m["version"] for m in socket.sent] == [state["version"], ahead["version"]]


class Graces:
    """The consumer's grace waits, each ended by the test (``waiting`` hands them over in
    order); everything else of ``asyncio`` as it is."""

    def __init__(self):
        self.waiting: asyncio.Queue = asyncio.Queue()

    async def sleep(self, seconds):
        done = asyncio.get_running_loop().create_future()
        await self.waiting.put(done)
        await done

    def __getattr__(self, name):
        return getattr(asyncio, name)


async def a_socket_behind(monkeypatch, changes: int):
    """A socket whose room is ``changes`` ahead of it, its graces ended by the test: the
    socket, its state, the graces, the room's state and the snapshots the socket reads."""
    socket, state = await a_table_socket(monkeypatch)
    graces = Graces()
    monkeypatch.setattr(consumers, "asyncio", graces)
    ahead = at_version(state, state["version"] + changes)
    reads = []
    monkeypatch.setattr(selectors, "snapshot", lambda room_id: reads.append(room_id) or ahead)
    return socket, state, graces, ahead, reads


async def a_socket_three_changes_behind(monkeypatch, settings):
    """A socket whose heartbeat found the room three changes ahead (``a_socket_behind``)."""
    socket, state, graces, ahead, reads = await a_socket_behind(monkeypatch, 3)
    await socket.beat(ahead["version"])
    return socket, state, graces, reads


async def test_a_change_still_in_the_processs_backlog_is_waited_for_not_skipped(
    monkeypatch, settings
):
    """The heartbeat read the room a change ahead while the change's broadcast still waits
    in this process's backlog, however long: the socket waits behind it for its check,
    with no grace run out and no snapshot sent ahead of it (which would have skipped the
    draw's event: a round's last draw, say, with nothing after it for seconds)."""
    settings.HEARTBEAT_SECONDS = 60
    socket, state, graces, ahead, reads = await a_socket_behind(monkeypatch, 1)
    backlog = asyncio.Event()

    async def late_broadcast():
        await backlog.wait()
        await socket.dispatch({"type": "room.changed", "state": ahead})

    broadcast.in_order("room.test", late_broadcast)
    await socket.beat(ahead["version"])
    while socket.checked is None:  # the catch-up has sent its check, behind the broadcast
        await asyncio.sleep(0)
    backlog.set()
    await asyncio.wait_for(socket.catching_up, 10)
    assert reads == []
    assert graces.waiting.empty()
    assert [m["version"] for m in socket.sent] == [state["version"], ahead["version"]]


async def test_broadcasts_still_arriving_are_late_not_lost_and_no_snapshot_overtakes_them(
    monkeypatch, settings
):
    """A loaded server's backlog: each grace brings the next of the room's changes, so the
    socket waits on and gets every one with its event (a snapshot would have skipped
    them, and their draws' animations)."""
    settings.HEARTBEAT_SECONDS = 60
    socket, state, graces, reads = await a_socket_three_changes_behind(monkeypatch, settings)
    for step in (1, 2, 3):
        grace = await asyncio.wait_for(graces.waiting.get(), 10)
        await socket.room_changed({"state": at_version(state, state["version"] + step)})
        grace.set_result(None)
    await asyncio.wait_for(socket.catching_up, 10)
    assert reads == []
    assert [m["version"] for m in socket.sent] == [state["version"] + n for n in range(4)]


async def test_a_grace_with_nothing_arriving_reads_the_snapshot_even_after_progress(
    monkeypatch, settings
):
    settings.HEARTBEAT_SECONDS = 60
    socket, state, graces, reads = await a_socket_three_changes_behind(monkeypatch, settings)
    grace = await asyncio.wait_for(graces.waiting.get(), 10)
    await socket.room_changed({"state": at_version(state, state["version"] + 1)})
    grace.set_result(None)
    (await asyncio.wait_for(graces.waiting.get(), 10)).set_result(None)  # nothing came
    await asyncio.wait_for(socket.catching_up, 10)
    assert reads == [socket.room_id]
    assert [m["version"] for m in socket.sent] == [state["version"] + n for n in (0, 1, 3)]


async def test_a_backlog_is_waited_for_at_most_one_heartbeat(monkeypatch, settings):
    """Broadcasts trickling in for longer than a heartbeat: the snapshot all the same."""
    settings.HEARTBEAT_SECONDS = 0
    settings.BROADCAST_GRACE_SECONDS = 0
    socket, state, graces, reads = await a_socket_three_changes_behind(monkeypatch, settings)
    grace = await asyncio.wait_for(graces.waiting.get(), 10)
    await socket.room_changed({"state": at_version(state, state["version"] + 1)})
    grace.set_result(None)
    await asyncio.wait_for(socket.catching_up, 10)
    assert reads == [socket.room_id]
    assert [m["version"] for m in socket.sent] == [state["version"] + n for n in (0, 1, 3)]


async def test_the_sockets_database_calls_do_not_share_the_process_thread(monkeypatch):
    flags = []
    hop = workers.sync_to_async

    def recording(function, thread_sensitive=True):
        flags.append((getattr(function, "__name__", "?"), thread_sensitive))
        return hop(function, thread_sensitive=thread_sensitive)

    # Whichever way the consumer reaches the database (games.realtime.workers, or directly).
    monkeypatch.setattr(consumers, "database_sync_to_async", recording, raising=False)
    monkeypatch.setattr(workers, "sync_to_async", recording)
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    await host.send(type="sync")  # the kept state: no database call
    await host.receive()
    await host.close()
    await friend.close()
    names = {name for name, _ in flags}
    assert {"socket_access", "connect", "disconnect"} <= names
    assert [f for f in flags if f[1]] == []
