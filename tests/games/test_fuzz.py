"""Protocol fuzz: generated messages of every shape against the real TableConsumer.

Every message gets a structured error (followed by an unchanged snapshot) or, when it is
a real action that the room allows, its effect; nothing raises, nothing is logged at
ERROR, and a rejected message never changes the room (checked in each snapshot and, at
the end of every example, in the database)."""

import asyncio
import functools
import json
import logging
import time

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.errors import CODES
from games.models import Draw, Room, Round
from games.reactions import REACTIONS
from games.realtime import driver
from games.realtime.frames import ACTIONS
from tests.games.conftest import Player
from tests.rooms import friends_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXAMPLES = 103
MESSAGES_PER_EXAMPLE = 100  # 103 x 100 = 10,300 generated messages
TYPES = [*ACTIONS, "Draw", "draw ", "", "fly", "__proto__", "constructor"]

# -- what to send ------------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**300), max_value=10**300)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=15,
)


def near(value: int):
    """Numbers a client might plausibly send for ``value``, and some it should not."""
    return (
        st.sampled_from([value, value - 1, value + 1, 0, -1, 2**31, 2**63, -(2**63)])
        | st.integers()
        | st.floats(allow_nan=True)
        | st.sampled_from(["1", str(value), True, False, None, [value], {"v": value}])
    )


def actions(at: tuple, count: int):
    """Valid-looking actions: real types with right, wrong or missing fields."""
    match, rnd, draws = at
    field = {
        "match": near(match or 0),
        "round": near(rnd or 0),
        "draw": near(draws or 0),
        "position": near(0) | near(count - 1) | near(count) | st.integers(-3, 60) | st.none(),
        "reaction": st.sampled_from(sorted(REACTIONS)) | st.text(max_size=20) | scalars,
        "fill": st.booleans() | scalars,
        "ref": st.text(max_size=40) | st.text(min_size=41, max_size=60) | scalars,
    }

    @st.composite
    def build(draw):
        kind = draw(st.sampled_from(TYPES) | st.text(max_size=12) | scalars)
        message = {"type": kind}
        expected = ACTIONS.get(kind, {}) if isinstance(kind, str) else {}
        for name in [*expected, "ref"]:
            if draw(st.integers(0, 9)) > 1:  # usually present
                message[name] = draw(field[name])
        if draw(st.integers(0, 9)) == 0:  # sometimes a field nobody expects
            message[draw(st.sampled_from(["card", "seat", "hand", "version", "x"]))] = draw(
                json_values
            )
        if draw(st.integers(0, 9)) == 0:
            del message["type"]
        return json.dumps(message, allow_nan=True, ensure_ascii=draw(st.booleans()))

    return build()


nesting = st.integers(1, 1100).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n])
)
raw_text = (
    st.text(max_size=200)
    | st.text(alphabet=st.characters(codec=None, categories=["Cs"]), min_size=1, max_size=4)
    | st.sampled_from(["", " ", "null", "{", '{"type":"draw"', "[]", "{}", '"ping"', "1e999"])
    | st.sampled_from(['{"type":"ping","type":"sync"}', '{"type":"sync","ref":"a","ref":3}'])
)
huge = st.integers(1900, 9000).flatmap(
    lambda n: st.sampled_from(
        [
            "x" * n,
            json.dumps({"type": "ping", "ref": "r" * n}),
            json.dumps({"type": "sync", "x": [0] * n}),
        ]
    )
)
binary = st.binary(max_size=300) | st.sampled_from([b"\xff\xfe", b"\xc3\x28", b'{"type":"ping"}'])


@functools.lru_cache(maxsize=256)
def messages(at: tuple, count: int):
    """One frame: ("text", str) or ("bytes", bytes), for a room at the ply ``at``."""
    text = (
        actions(at, count)
        | json_values.map(lambda v: json.dumps(v, allow_nan=True))
        | raw_text
        | nesting
        | huge
    )
    return st.tuples(st.just("text"), text) | st.tuples(st.just("bytes"), binary)


# -- the room ----------------------------------------------------------------------------------


def stored(room_id: int) -> tuple:
    """The room as the database holds it: version, status, and the current round's state."""
    room = Room.objects.get(pk=room_id)
    rnd = Round.objects.filter(match__room=room).order_by("-match__number", "-number").first()
    draws = Draw.objects.filter(round__match__room=room).count()
    return room.version, room.status, rnd and rnd.pk, rnd and rnd.state, draws


def public(state: dict) -> tuple:
    """What a rejected message must leave exactly as it was, as a snapshot shows it."""
    return state["version"], state["room"]["status"], state["round"], state["seats"], state["match"]


def changes_the_room(kind: str, frame) -> bool:
    """A message that, if it went through without an error, changed the room."""
    if kind != "text":
        return False
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") in CHANGES


CHANGES = {"draw", "next_round", "rematch", "leave", "resign", "start"}


class Fuzz:
    """A friends room in play with two human seats, so that nothing but the fuzzed
    sockets ever changes it (no computer seat moves on its own); a seated player's socket
    and a spectator's, kept open from one example to the next."""

    def __init__(self):
        self.sent = 0
        self.sockets: dict[str, Player] = {}

    async def setup(self) -> None:
        host = await Player.user("fuzz-host")
        friend = await Player.user("fuzz-friend")
        room = await database_sync_to_async(friends_room)(host, {"friend": friend}, start=True)
        self.room = room
        await host.connect(room.code)
        watcher = await Player.guest("fuzz-watcher")
        await watcher.connect(room.code, token=room.token)
        self.sockets = {"player": host, "spectator": watcher}
        for player in self.sockets.values():
            await player.drain()

    async def example(self, data, who: str) -> None:
        """Send a batch of generated frames, each followed by a ping, without waiting (so
        that generating and checking overlap with the server's work); then check each
        frame's answers, everything that came back before its ping's pong."""
        player = self.sockets[who]
        before = await database_sync_to_async(stored)(self.room.pk)
        state = player.state
        giver = state["round"]["giver"] if state["round"] else None
        count = state["seats"][giver]["count"] if giver is not None else 0
        batch = []
        for n in range(MESSAGES_PER_EXAMPLE):
            at = (
                state["match"] and state["match"]["number"],
                state["round"] and state["round"]["number"],
                state["round"] and state["round"]["draws"],
            )
            kind, frame = data.draw(messages(at, count), label=f"message {n}")
            self.sent += 1
            barrier = f"~barrier-{self.sent}"
            # send_input, not send_to: an empty frame is a frame too.
            key = "bytes" if kind == "bytes" else "text"
            await player.socket.send_input({"type": "websocket.receive", key: frame})
            await player.socket.send_to(text_data=json.dumps({"type": "ping", "ref": barrier}))
            batch.append((kind, frame, barrier))
        moved = False  # an action in this batch went through: the room moved on
        for kind, frame, barrier in batch:
            replies = []
            while (message := await player.receive(timeout=10)) != {"type": "pong", "ref": barrier}:
                replies.append(message)
            errors = [i for i, m in enumerate(replies) if m["type"] == "error"]
            for i, message in enumerate(replies):
                if message["type"] == "error":
                    check_error(message)
                    # The snapshot that follows shows the room exactly as it was (or as
                    # an action accepted earlier in this batch left it).
                    snapshot = replies[i + 1]
                    assert snapshot["type"] == "state"
                    if not (moved and snapshot["version"] > state["version"]):
                        assert public(snapshot) == public(state), (frame, message)
                    state = snapshot
                elif message["type"] == "state":
                    assert message["version"] >= state["version"]
                    if not errors:
                        state = message
                else:
                    # Besides answers, the room's broadcasts that move nothing: a point or
                    # a reaction (this socket's, or another's) reaches every socket.
                    assert message["type"] in ("pong", "spectators", "pointing", "reaction"), (
                        message
                    )
            if not errors and changes_the_room(kind, frame):
                moved = True
        if moved:
            # Its broadcast may come after the pings (every frame of the batch was handled
            # by then): each socket reaches the stored version, and no further.
            await player.until(lambda s, v=before[0]: s["version"] > v)
            before = await database_sync_to_async(stored)(self.room.pk)
            for other in self.sockets.values():
                await other.until(lambda s, v=before[0]: s["version"] >= v)
            assert before[0] == player.state["version"]
        # Nothing that was refused changed the stored room.
        assert await database_sync_to_async(stored)(self.room.pk) == before

    async def close(self) -> None:
        for player in self.sockets.values():
            if player.socket is not None:
                await player.close()


async def cancel_leftovers() -> None:
    """Tasks the consumers left (the channel layer's receive loop, say)."""
    leftover = asyncio.all_tasks() - {asyncio.current_task()}
    for task in leftover:
        task.cancel()
    await asyncio.gather(*leftover, return_exceptions=True)


def check_error(error: dict) -> None:
    """A structured error: a known code, a plain message, never a bug or a traceback."""
    assert set(error) == {"type", "code", "message", "ref"}, error
    assert error["code"] in CODES, error
    assert error["code"] not in ("internal", "unavailable"), error
    assert isinstance(error["message"], str) and error["message"]
    assert "Traceback" not in error["message"]


class ErrorRecords(logging.Handler):
    """Every log record at ERROR or above, or carrying an exception."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)


def test_generated_messages_get_structured_errors_and_change_nothing():
    handler = ErrorRecords()
    logging.getLogger().addHandler(handler)
    loop = asyncio.new_event_loop()
    run = loop.run_until_complete
    fuzz = Fuzz()
    started = time.monotonic()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data(), who=st.sampled_from(["player", "spectator"]))
    def example(data, who):
        run(fuzz.example(data, who))

    # Keep the database connection between the consumer's queries (as DB_CONN_MAX_AGE
    # does in production): a new one per query would make this test three times slower.
    conn_settings = connections["default"].settings_dict
    max_age = conn_settings["CONN_MAX_AGE"]
    conn_settings["CONN_MAX_AGE"] = None
    try:
        run(fuzz.setup())
        # The rate limit and the close after repeated invalid frames have their own tests.
        with (
            override_settings(WS_TABLE_FRAMES_PER_SECOND=10**9, WS_INVALID_FRAME_LIMIT=10**9),
        ):
            example()
    finally:
        run(fuzz.close())
        run(driver.stop_all())
        run(cancel_leftovers())
        conn_settings["CONN_MAX_AGE"] = max_age
        run(database_sync_to_async(connections.close_all)())  # the consumers' thread's
        loop.close()
        logging.getLogger().removeHandler(handler)
    elapsed = time.monotonic() - started
    print(f"fuzz: {fuzz.sent} generated messages in {elapsed:.1f} s")
    assert fuzz.sent >= 10_000
    assert handler.records == [], [r.getMessage() for r in handler.records]
