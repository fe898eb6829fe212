"""docs/bots.md matches the server where a bot's writer follows it: the first state of a
bot seated in a waiting room is as shown; the `next_round` shown deals the round after the
one it names, as the reference bot sends it; one naming the round to deal is refused,
saying that the table has not reached that move."""

import json
import re

import pytest
from channels.db import database_sync_to_async

from tests.games.conftest import Player, error_for, round_one_over, seated_bot_room
from tests.games.messages import shape
from tests.support import ROOT
from tools.bots.random_bot import Bot as RandomBot

pytestmark = pytest.mark.django_db(transaction=True)

DOC = (ROOT / "docs" / "bots.md").read_text()
EXAMPLES = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def example(kind: str) -> dict:
    found = [e for e in EXAMPLES if e.get("type") == kind]
    assert len(found) == 1, f"docs/bots.md shows {len(found)} {kind} examples"
    return found[0]


async def test_a_bot_seated_in_a_waiting_room_first_gets_the_state_the_guide_shows():
    shown = example("state")
    host, bot = await Player.user("ann"), await Player.bot("RandomRita")
    room = await database_sync_to_async(seated_bot_room)(host, "RandomRita")
    assert await bot.connect(room.code)
    real = bot.state
    assert shape({**shown, "event": None}) == shape({**real, "event": None})
    for field in ("match", "round", "acting"):
        assert shown[field] is None and real[field] is None, field
    assert [s["count"] for s in shown["seats"]] == [s["count"] for s in real["seats"]] == [0, 0]
    assert shown["you"] == real["you"] == [1] and real["room"]["status"] == "waiting"
    assert RandomBot("http://x", "t").answer(real) is None  # nothing to do yet


async def test_the_guides_next_round_deals_the_round_after_the_one_it_names():
    shown = example("next_round")
    me = await Player.guest("g-guide")
    await round_one_over(me)
    at = (me.state["match"]["number"], me.state["round"]["number"])
    assert at == (shown["match"], shown["round"]) and me.state["round"]["over"]
    assert RandomBot("http://x", "t").answer(me.state) == shown  # the reference bot agrees
    await me.send(**shown)
    state = await me.until(lambda s: s["round"]["number"] == shown["round"] + 1)
    assert not state["round"]["over"] and state["event"]["kind"] == "round_started"


async def test_a_next_round_naming_the_round_to_deal_is_refused_as_a_move_not_reached():
    me = await Player.guest("g-ahead")
    await round_one_over(me)
    version = me.state["version"]
    await me.send(type="next_round", match=1, round=2, ref="ahead")
    refused = await error_for(me, "ahead")
    assert refused["code"] == "stale_version"
    assert "has not reached" in refused["message"], refused["message"]
    await me.send(type="draw", match=1, round=1, draw=0, position=0, ref="behind")
    refused = await error_for(me, "behind")
    assert refused["code"] == "stale_version" and "moved on" in refused["message"]
    await me.drain()
    assert me.state["version"] == version and me.state["round"]["number"] == 1
