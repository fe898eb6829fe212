"""docs/protocol.md matches the server: its examples have the shape of real messages,
its client examples are accepted, and its error table lists exactly the server's codes."""

import json
import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from games import services
from games.consumers import ACTIONS, parse_action
from games.errors import CODES
from tests.games.conftest import Player

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
EXAMPLES = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def shape(value):
    """Key structure of a JSON value (dict keys, recursively, lists by their first item)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items() if k not in ("hands", "options", "rules")}
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [shape(value[0])]
    return None


def test_client_examples_are_accepted_and_cover_every_action():
    sent = [e for e in EXAMPLES if e["type"] in ACTIONS]
    for example in sent:
        assert parse_action(json.dumps(example), None) == example
    assert {e["type"] for e in sent} == set(ACTIONS)


def test_error_table_lists_exactly_the_server_codes():
    table = DOC.split("| code | when |", 1)[1].split("\n\n", 1)[0]
    assert set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M)) == set(CODES)


@pytest.mark.django_db(transaction=True)
async def test_server_examples_have_the_shape_of_real_messages():
    me = await Player.guest("doc")
    room = await database_sync_to_async(services.create_room)(
        actor=me.actor,
        name="Ann",
        variant="babanuki",
        seat_count=3,
        mode="computer",
        rounds=1,
        first_dealer=2,
    )
    await me.connect(room.code)
    await me.send(type="draw", version=me.state["version"], position=0, ref="d1")
    event_state = await me.until(lambda s: s["event"] and s["event"]["kind"] == "draw")
    await me.send(type="draw", version=1, position=0, ref="d2")
    error = await me.receive()
    while error["type"] != "error":
        error = await me.receive()
    await me.send(type="ping", ref="p1")
    pong = await me.receive()
    while pong["type"] != "pong":
        pong = await me.receive()
    real = {"state": event_state, "error": error, "pong": pong}
    documented = [e for e in EXAMPLES if e["type"] in real]
    assert {e["type"] for e in documented} == set(real)
    for example in documented:
        assert shape(example) == shape(real[example["type"]]), example["type"]
