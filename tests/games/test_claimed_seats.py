"""A guest's seat claimed by their account reaches the room's open sockets."""

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import services
from games.models import Presence
from games.realtime.broadcast import group_name
from tests.games.conftest import Player
from tests.rooms import computer_table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_claimed_seat_reaches_open_sockets_as_held_by_the_user():
    guest = await Player.guest("a" * 32)
    room = await computer_table(guest, name="Guest", seats=3, rounds=1)
    # The same person, already signed in on another device, watching the room.
    me = await Player.user("claimer")
    await me.connect(room.code, token=room.watch_token)
    assert me.state["you"] == []
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(group_name(room.pk), listener)

    claimed = await database_sync_to_async(services.claim_guest_games)(
        guest=guest.actor.guest, user_id=me.actor.user_id
    )

    assert claimed == 1
    # The computer may draw before the claim is committed: its states come first.
    message = await layer.receive(listener)
    while (message["state"].get("event") or {}).get("kind") != "seat_claimed":
        message = await layer.receive(listener)
    held = message["state"]["seats"][0]
    assert (held["user_id"], held["guest"]) == (me.actor.user_id, "")
    assert message["state"]["event"]["seats"] == [0]
    state = await me.until(lambda s: s["you"] == [0])
    assert state["version"] == message["state"]["version"]
    # The old guest socket is told too: from now on the seat is not the guest id's, and
    # that socket is no longer the seat's connection (the seat is away until its player
    # opens the table as themselves, so it is never stuck on a socket that cannot play).
    await guest.until(lambda s: s["version"] == state["version"] and s["you"] == [])
    assert held["away"] and held["away_since"] is not None
    assert not await database_sync_to_async(Presence.objects.filter(seat__room=room).exists)()
    # The player opens the table as themselves: the seat is theirs and present again.
    tab = Player(me.session_key, me.actor)
    await tab.connect(room.code)
    assert tab.state["you"] == [0] and not tab.state["seats"][0]["away"]
    await tab.close()
    await guest.close()
    await me.close()
