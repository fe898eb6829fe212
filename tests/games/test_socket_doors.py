"""The two ways a table socket is turned away (docs/protocol.md): accepted and then closed
with a code the page reads, or refused at the handshake (a real client sees an HTTP 403
and no close code). The table helper tells them apart, so a test asserting one is not
satisfied by the other."""

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError

from games import selectors, services
from games.realtime import limits
from tests.games.conftest import Player

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_socket_for_no_room_is_accepted_then_closed_with_4404():
    player = await Player.guest("g-nowhere")
    assert not await player.connect("ZZZZZZ")
    assert (player.refused, player.close_code) == (False, 4404)


async def test_a_private_room_without_its_token_is_accepted_then_closed_with_4403():
    host = await Player.guest("g-host")
    room = await database_sync_to_async(services.create_room)(
        actor=host.actor, name="Host", variant="babanuki", seat_count=2, mode="friends"
    )
    stranger = await Player.guest("g-stranger")
    assert not await stranger.connect(room.code)
    assert (stranger.refused, stranger.close_code) == (False, 4403)


async def test_an_address_cooling_down_after_a_flood_is_refused_at_the_handshake(monkeypatch):
    # The test client has no address of its own: stand in for one that just flooded.
    monkeypatch.setattr(limits, "open_socket", lambda kind, scope: limits.COOLING)
    player = await Player.guest("g-flooder")
    assert not await player.connect("ZZZZZZ")
    assert (player.refused, player.close_code) == (True, None)


async def test_a_database_outage_before_the_socket_opens_refuses_the_handshake(monkeypatch):
    def unreachable(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(selectors, "socket_access", unreachable)
    player = await Player.guest("g-outage")
    assert not await player.connect("ZZZZZZ")
    # Closed before the accept: Daphne answers the handshake with a 403, and the page
    # reconnects with its back-off (docs/protocol.md, "Reconnecting", point 6).
    assert (player.refused, player.close_code) == (True, None)
