"""Whole games over the table's WebSocket, in every mode, to the match's end."""

import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.engine import dealt_counts, get_variant, seeded
from games.models import Draw, Room, Round
from tests.games.conftest import HOST, Player, match_ended, my_turn, play_to_match_end
from tests.rooms import at_table, computer_room, computer_table, friends_room, open_room
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


async def test_versus_computer_to_the_match_end_then_rematch():
    me = await Player.guest("guest-a")
    room = await computer_table(me, seats=4, computer_level="easy", rounds=3)
    assert me.state["you"] == [0]
    assert [s["kind"] for s in me.state["seats"]] == ["human", "computer", "computer", "computer"]
    # The deal is committed to before the first draw; its seed stays secret.
    assert len(me.state["round"]["commitment"]) == 64 and me.state["round"]["seed"] is None
    final = await play_to_match_end(me)
    # Once over, the revealed seed recomputes the deal (by the round's stored deal record)
    # and matches the commitment.
    rnd = final["round"]
    record = await database_sync_to_async(
        lambda: Round.objects.values("deal_version", "deal_start", "deal_counts").get(
            match__room=room, match__number=1, number=rnd["number"]
        )
    )()
    assert seeded.verify(
        variant="babanuki",
        players=4,
        dealer=rnd["dealer"],
        seed_hex=rnd["seed"],
        commitment_hex=rnd["commitment"],
        dealt=rnd["dealt"],
        removed=rnd["removed"],
        options=final["room"]["options"],
        **record,
    )
    # The table's own view of the finished round carries the same record.
    counts = dealt_counts(get_variant("babanuki"), 4, rnd["dealer"])
    assert rnd["deal_counts"] == record["deal_counts"] == counts
    assert len(final["match"]["rounds"]) == 3
    assert sorted(final["match"]["scores"]) != [0, 0, 0, 0]
    assert len(final["match"]["winners"]) == 1
    # The dealer moved one seat clockwise each round.
    dealers = [r["dealer"] for r in final["match"]["rounds"]]
    assert dealers == [(dealers[0] + k) % 4 for k in range(3)]

    await me.send(type="rematch", **ply(final, "rematch"))
    state = await me.until(lambda s: s["match"]["number"] == 2)
    assert not state["match"]["over"] and state["room"]["status"] == "playing"
    await me.close()


async def test_friends_game_two_players_see_each_others_draws_live():
    host = await Player.user("host")
    friend = await Player.user("friend")
    room = await database_sync_to_async(friends_room)(
        host, {"friend": friend}, variant="old_maid", strike_limit=2
    )
    await at_table(room, host, friend)
    assert friend.state["you"] == [1]
    await host.send(type="start", fill=False)
    await host.until(lambda s: s["room"]["status"] == "playing")
    await friend.until(lambda s: s["room"]["status"] == "playing")

    final = await play_to_match_end(host, friend)
    assert final["match"]["over"]
    assert sorted(final["match"]["winners"] + final["match"]["losers"]) == [0, 1]
    assert max(final["match"]["scores"]) == 2  # first to two strikes lost
    # Every draw reached both players: each saw the same count of draw events.
    draws = await database_sync_to_async(Draw.objects.filter(round__match__room=room).count)()
    for player in (host, friend):
        assert len(player.draws_seen()) == draws


async def test_same_device_one_browser_plays_every_seat_through_the_curtain():
    device = await Player.guest("family")
    room = await database_sync_to_async(open_room)(
        device,
        Room.Mode.SAME_DEVICE,
        name="Player",
        variant="schwarzer_peter",
        seats=3,
        single_round=True,
    )
    assert await device.connect(room.code)
    assert device.state["you"] == [0, 1, 2]
    actors = set()
    seen_hands = set()
    rng = random.Random(3)
    # A deal can leave a seat with nothing to draw from before its first turn (its last
    # card drawn from it): a rematch deals again, until every seat has had a turn.
    for _ in range(5):
        while not match_ended(device.state):
            state = device.state
            if my_turn(state):
                actors.add(state["acting"])
                # Only the acting seat's hand is sent while the round is being played.
                assert list(state["round"]["hands"]) == [str(state["acting"])]
                seen_hands.add(state["acting"])
                count = state["seats"][state["round"]["giver"]]["count"]
                await device.act(type="draw", position=rng.randrange(count))
            await device.receive()
        if actors == {0, 1, 2}:
            break
        await device.act(type="rematch")
        await device.until(lambda s: not match_ended(s))
    assert actors == {0, 1, 2}


async def test_spectators_need_the_link_for_private_rooms_and_see_no_hands():
    host = await Player.guest("h")
    room = await database_sync_to_async(computer_room)(host, seats=3)
    stranger = await Player.guest("s")
    assert not await stranger.connect(room.code)
    assert await stranger.connect(room.code, token=room.token)
    assert stranger.state["you"] == []
    assert stranger.state["round"]["hands"] == {}
    await stranger.close()
    wrong = await Player.guest("w")
    assert not await wrong.connect(room.code, token="x" * 43)
    assert not await wrong.connect("ZZZZZZ")


async def test_a_foreign_origin_is_refused():
    host = await Player.guest("o")
    room = await database_sync_to_async(computer_room)(host)
    socket = WebsocketCommunicator(
        application,
        f"/ws/rooms/{room.code}/",
        headers=[
            HOST,
            (b"origin", b"https://evil.example"),
            (b"cookie", f"sessionid={host.session_key}".encode()),
        ],
    )
    assert (await socket.connect(timeout=30))[0]  # accepted, then closed: the page stops retrying
    assert await socket.receive_output(timeout=30) == {"type": "websocket.close", "code": 4403}


async def test_room_version_moves_one_per_change():
    me = await Player.guest("v")
    room = await computer_table(me, rounds=1)
    await play_to_match_end(me)
    versions = sorted({m["version"] for m in me.messages if m["type"] == "state"})
    draws = await database_sync_to_async(Draw.objects.filter(round__match__room=room).count)()
    final = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    # Creation + start is version 1, the first connection (someone is at the table) 2;
    # then one per draw.
    assert final.version == 2 + draws
    assert versions[-1] == final.version
