"""A bot at the table is a player like a person (docs/bots.md): it acts only for its own
seat, and its seat is covered by the built-in computer when its socket has been gone past
the grace, and its own again when it comes back."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.errors import ActionError
from games.models import Bot, Draw
from games.services import bots
from games.tokens import token_hash
from tests.games.conftest import Player, bot_at_table, error_for, event_is
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_bot_seat_away_past_the_grace_is_covered_then_its_own_again(settings):
    settings.SEAT_GRACE_SECONDS = 0.3
    room, host, bot = await bot_at_table()
    await bot.close()
    state = await host.until(event_is("seat_covered"), timeout=30)
    assert state["seats"][1]["covered"] and state["seats"][1]["bot"]
    again = Player("", bot.actor)
    again.bot_token = bot.bot_token
    assert await again.connect(room.code)
    state = await host.until(event_is("seat_back"))
    assert state["seats"][1]["covered"] is False and again.state["you"] == [1]


async def test_a_bot_draws_only_for_its_own_seat():
    _room, host, bot = await bot_at_table()
    if bot.state["round"]["drawer"] == 1:  # the bot's turn: it draws, then it is the host's
        await bot.send(type="draw", **ply(bot.state, "draw"), position=0)
        await bot.until(lambda s: s["round"]["drawer"] == 0 or s["round"]["over"])
    await host.until(lambda s: s["version"] == bot.state["version"])
    assert not bot.state["round"]["over"], "a round of 2 seats dealt 27 cards each goes on"
    before = bot.state["version"]
    await bot.send(type="draw", **ply(bot.state, "draw"), position=0, ref="not-mine")
    refused = await error_for(bot, "not-mine")
    assert refused["code"] == "not_your_turn"
    assert bot.state["version"] == before and bot.state["you"] == [1]


async def test_a_bots_draw_made_with_its_token_after_the_revoke_changes_nothing():
    room, host, bot = await bot_at_table()
    if bot.state["acting"] is None:  # the host's turn first
        await host.send(type="draw", **ply(host.state, "draw"), position=0)
        await bot.until(lambda s: s["acting"] == 1)
    bot_id, token = bot.actor.user_id, token_hash(bot.bot_token)
    owner_id = await database_sync_to_async(lambda: Bot.objects.get(pk=bot_id).owner_id)()
    await database_sync_to_async(bots.revoke_token)(owner_id=owner_id, bot_id=bot_id)
    while (output := await bot.socket.receive_output(timeout=30))["type"] != "websocket.close":
        pass
    assert output["code"] == 4401

    # A draw that came on the socket just before its close: made as the socket makes it,
    # with the token it was opened with, and refused in its own statement.
    def draw():
        return services.draw(
            room_id=room.pk, actor=bot.actor, position=0, at=ply(bot.state, "draw")
        )

    with pytest.raises(ActionError) as refused:
        await database_sync_to_async(services.with_token)((bot_id, token), draw)
    assert refused.value.code == "stale_version"
    drawn = Draw.objects.filter(round__match__room=room, drawer=1)
    assert not await database_sync_to_async(drawn.exists)()


async def test_a_token_socket_whose_revoke_message_was_lost_closes_at_its_next_heartbeat(
    settings,
):
    settings.HEARTBEAT_SECONDS = 0.2
    _room, _host, bot = await bot_at_table()
    bot_id = bot.actor.user_id
    # The token changes with no message to the token group (as when Redis lost it).
    await database_sync_to_async(Bot.objects.filter(pk=bot_id).update)(token_hash="")
    while (output := await bot.socket.receive_output(timeout=30))["type"] != "websocket.close":
        pass
    assert output["code"] == 4401
