"""A socket never sends a `state` older than one it already sent (docs/protocol.md,
"state": a lower version is ignored). The rule lives in the table socket
(``TableConsumer.send_state``): a late broadcast, or a snapshot read before a broadcast
that overtook it, is dropped there, so a page always draws the newest state it has."""

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import selectors, services
from games.realtime.broadcast import group_name
from tests.games.conftest import Player, my_turn

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_late_broadcast_of_an_older_state_is_not_sent_to_the_socket():
    me = await Player.guest("g-me")
    room = await database_sync_to_async(services.create_room)(
        actor=me.actor, name="Me", variant="babanuki", seat_count=2, mode="computer", rounds=3
    )
    assert await me.connect(room.code)
    old = await database_sync_to_async(selectors.snapshot)(room.pk)
    # The room moves on (a draw, and the computer's answer), then stands still: my turn.
    await me.until(lambda s: my_turn(s) or s["round"]["over"])
    if my_turn(me.state):
        await me.act(type="draw", position=0)
    await me.until(lambda s: s["version"] > old["version"] and (my_turn(s) or s["round"]["over"]))
    # The socket and the database agree (a presence change on a busy machine can still
    # move the room on between the two reads: then the socket catches up first).
    now = await database_sync_to_async(selectors.snapshot)(room.pk)
    while now["version"] != me.state["version"]:
        await me.until(lambda s, v=now["version"]: s["version"] >= v)
        now = await database_sync_to_async(selectors.snapshot)(room.pk)
    assert now["version"] > old["version"]
    # A broadcast of the old state arrives late, then one of the current state: the
    # socket handles its channel's messages in order, so the second is the barrier.
    seen = len(me.messages)
    layer = get_channel_layer()
    for state in (old, now):
        await layer.group_send(group_name(room.pk), {"type": "room.changed", "state": state})
    await me.until(lambda s: len(me.messages) > seen and me.messages[-1] is s)
    sent = [m["version"] for m in me.messages[seen:] if m["type"] == "state"]
    # The old state is never sent; the current one is, unless the room really moved on
    # meanwhile (a presence change on a busy machine), whose newer state is sent instead.
    assert old["version"] not in sent
    assert sent and all(version >= now["version"] for version in sent), sent
