"""Seats nobody is at: a player who never opens the table is covered by the computer after
the seat's grace, counted from the match's start, and the seat is theirs once they come;
and where no person plays a seat, the server deals the next round itself."""

import pytest
from channels.db import database_sync_to_async

from games import schedule, selectors, services
from tests.games.conftest import Player, event_is, round_one_over
from tests.rooms import computer_room, waiting_table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_player_who_never_opens_the_table_is_covered_after_the_grace_from_the_start(
    settings,
):
    settings.SEAT_GRACE_SECONDS = 0.3
    host, friend = await Player.user("host"), await Player.user("friend")
    room = await waiting_table(host, name="host")
    await database_sync_to_async(services.join_room)(
        room_id=room.pk, actor=friend.actor, name="friend"
    )
    await host.send(type="start", fill=False)
    state = await host.until(event_is("seat_covered"))
    assert state["seats"][1]["covered"] and not state["seats"][0]["away"]
    assert await friend.connect(room.code)
    state = await host.until(event_is("seat_back"))
    assert not state["seats"][1]["covered"] and friend.state["you"] == [1]


async def test_where_no_person_plays_a_seat_the_server_deals_the_next_round(settings):
    settings.ROUND_PAUSE_SECONDS = 0.2
    bot = await Player.bot("Dealer")
    room = await database_sync_to_async(computer_room)(bot, name="Dealer", rounds=3, bot=True)
    assert await bot.connect(room.code)
    while not bot.state["round"]["over"]:  # the bot draws, and never deals
        if bot.state["acting"] is not None:
            await bot.act(type="draw", position=0)
        await bot.receive()
    await bot.until(lambda s: s["round"]["number"] == 2)
    states = [m for m in bot.messages if m["type"] == "state"]
    assert {"kind": "round_started", "round": 2} in [s["event"] for s in states]


async def test_where_a_person_plays_a_seat_only_a_player_deals_the_next_round(settings):
    me = await Player.guest("me")
    room = await round_one_over(me)
    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    assert schedule.next_due(state) is None  # the page's button deals it
    # The same table with a bot in the person's seat: the server deals it.
    seats = [{**seat, "bot": seat["kind"] == "human"} for seat in state["seats"]]
    due = schedule.next_due({**state, "seats": seats})
    assert due.kind == "next_round"
    assert due.at == pytest.approx(state["changed_at"] + settings.ROUND_PAUSE_SECONDS)
