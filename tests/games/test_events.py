"""The `state` events no other test produced (docs/protocol.md, "state": its `event`),
each seen on another player's socket with what it means in the state it comes with."""

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.conftest import Player, event_is, round_one_over
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


async def connected_friends_room(seats: int, *names: str):
    """A waiting friends room: its host and the players who joined, every one connected."""
    players = [await Player.user(name) for name in names]
    room = await database_sync_to_async(services.create_room)(
        actor=players[0].actor, name=names[0], variant="babanuki", seat_count=seats, mode="friends"
    )
    for player, name in zip(players[1:], names[1:], strict=True):
        await database_sync_to_async(services.join_room)(
            room_id=room.pk, actor=player.actor, name=name
        )
    for player in players:
        assert await player.connect(room.code)
    return room, players


async def started(seats: int, *names: str):
    room, players = await connected_friends_room(seats, *names)
    await players[0].send(type="start", fill=False)
    for player in players:
        await player.until(lambda s: s["room"]["status"] == "playing")
    return room, players


async def test_the_host_starting_sends_match_started_with_round_one_dealt():
    room, (host, friend) = await connected_friends_room(2, "host", "friend")
    await host.send(type="start", fill=False)
    state = await friend.until(event_is("match_started"))
    assert state["event"] == {"kind": "match_started"}
    assert state["room"]["status"] == "playing"
    assert (state["match"]["number"], state["round"]["number"]) == (1, 1)
    assert len(state["round"]["hands"]["1"]) == state["seats"][1]["count"] > 0


async def test_the_next_round_sends_round_started_with_its_number():
    me = await Player.guest("g-me")
    await round_one_over(me)
    await me.act(type="next_round")
    state = await me.until(event_is("round_started"))
    assert state["event"] == {"kind": "round_started", "round": 2}
    assert state["round"]["number"] == 2 and not state["round"]["over"]
    assert state["match"]["number"] == 1 and [r["number"] for r in state["match"]["rounds"]] == [1]


async def test_a_player_joining_sends_seat_taken_with_the_seat():
    room, (host,) = await connected_friends_room(3, "host")
    friend = await Player.user("friend")
    await database_sync_to_async(services.join_room)(
        room_id=room.pk, actor=friend.actor, name="Friend"
    )
    state = await host.until(event_is("seat_taken"))
    assert state["event"] == {"kind": "seat_taken", "seat": 1}
    assert (state["seats"][1]["kind"], state["seats"][1]["name"]) == ("human", "Friend")
    assert state["seats"][2]["kind"] == "empty"


async def test_the_host_removing_a_player_sends_seat_freed_and_the_player_watches():
    room, (host, friend) = await connected_friends_room(3, "host", "friend")
    await database_sync_to_async(services.remove_player)(
        room_id=room.pk, actor=host.actor, seat_index=1
    )
    state = await host.until(event_is("seat_freed"))
    assert state["event"] == {"kind": "seat_freed", "seat": 1}
    assert state["seats"][1]["kind"] == "empty"
    state = await friend.until(event_is("seat_freed"))
    assert state["you"] == []  # the removed player's socket now watches


async def test_leaving_sends_seat_left_and_the_leaver_watches():
    room, (a, b, c) = await started(3, "a", "b", "c")
    await c.send(type="leave", **ply(c.state, "leave"))
    state = await a.until(event_is("seat_left"))
    assert state["event"] == {"kind": "seat_left", "seats": [2]}
    assert state["seats"][2]["left"] is True
    assert (await c.until(event_is("seat_left")))["you"] == []


async def test_coming_back_before_the_grace_sends_seat_back():
    room, (host, friend) = await started(2, "host", "friend")
    await friend.close()
    await host.until(lambda s: s["seats"][1]["away"])
    again = Player(friend.session_key, friend.actor)
    assert await again.connect(room.code)
    state = await host.until(event_is("seat_back"))
    assert state["event"] == {"kind": "seat_back", "seats": [1]}
    assert (state["seats"][1]["away"], state["seats"][1]["covered"]) == (False, False)


async def test_a_seat_away_past_the_grace_sends_seat_covered_then_seat_back(settings):
    settings.SEAT_GRACE_SECONDS = 0.3
    room, (host, friend) = await started(2, "host", "friend")
    await friend.close()
    state = await host.until(event_is("seat_covered"), timeout=30)
    assert state["event"] == {"kind": "seat_covered", "seat": 1}
    assert state["seats"][1]["covered"] is True
    again = Player(friend.session_key, friend.actor)
    assert await again.connect(room.code)
    state = await host.until(event_is("seat_back"))
    assert state["event"] == {"kind": "seat_back", "seats": [1]}
    assert state["seats"][1]["covered"] is False
