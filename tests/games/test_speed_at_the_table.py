"""The computer's pace changed at the table (``speed``): the host's change reaches every
socket as a new state and plans the computer's next move at the new pace; anyone else's
and an unknown speed are refused and change nothing."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.errors import ActionError
from games.models import Room
from tests.games.refusals import expect_error, refused_without_queries, room_version
from tests.rooms import friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def computer_waits(settings):
    """No computer move while a test looks: the room's version moves only by its speed."""
    settings.COMPUTER_DELAY_SECONDS = 3600.0


async def fresh(room) -> Room:
    return await database_sync_to_async(Room.objects.get)(pk=room.pk)


async def until_the_computer_is_to_draw(players) -> None:
    """The humans draw (the first card) until a computer seat is the one to draw."""
    while True:
        state = players[0].state
        drawer = state["round"]["drawer"]
        if state["seats"][drawer]["kind"] == "computer":
            return
        who = next(p for p in players if p.state["acting"] == drawer)
        await who.send(type="draw", **ply(who.state, "draw"), position=0)
        for player in players:
            await player.until(lambda s, v=state["version"]: s["version"] > v)


async def test_the_host_slows_the_computer_for_everyone_at_the_table(settings):
    settings.COMPUTER_DELAY_SECONDS = 10.0  # no computer moves during the test
    room, players = await friends_in_play("host", "friend", seats=3, rounds=1)
    host, friend = players
    await until_the_computer_is_to_draw(players)
    before = await fresh(room)
    assert before.computer_speed == "normal"
    assert (before.due_at - before.updated_at).total_seconds() == pytest.approx(10.0, abs=0.01)
    await host.send(type="speed", speed="slow")
    for player in players:
        state = await player.until(lambda s: s["room"]["computer_speed"] == "slow")
        assert state["version"] == before.version + 1
        assert state["event"] == {"kind": "speed_changed", "seat": 0}
    after = await fresh(room)
    assert after.computer_speed == "slow"
    # The computer's move, planned again from the change at the slow pace (1.8 x 10 s).
    assert (after.due_at - after.updated_at).total_seconds() == pytest.approx(18.0, abs=0.01)


async def test_the_same_speed_again_changes_nothing():
    room, (host, friend) = await friends_in_play("host", "friend", seats=3, rounds=1)
    version = await room_version(room)
    await host.send(type="speed", speed="normal")
    await host.drain()  # the ping after it is answered once the speed was handled
    assert await room_version(room) == version
    assert not [m for m in host.messages if m["type"] == "error"]


@pytest.mark.parametrize(
    ("speed", "code"), [("warp", "malformed"), ("", "malformed"), ("SLOW", "malformed")]
)
async def test_an_unknown_speed_is_refused(speed, code):
    room, (host, _) = await friends_in_play("host", "friend", seats=3, rounds=1)
    version = await room_version(room)
    await host.send(type="speed", speed=speed)
    await expect_error(host, code)
    assert await room_version(room) == version


async def test_only_the_host_may_change_the_speed_and_the_socket_refuses_without_a_query(
    monkeypatch,
):
    room, (host, friend) = await friends_in_play("host", "friend", seats=3, rounds=1)
    version = await room_version(room)
    error = await refused_without_queries(
        monkeypatch, friend, {"type": "speed", "speed": "fast"}, "not_host"
    )
    assert error["message"] == "Only the host may change the computer speed."
    assert await room_version(room) == version
    # The service answers the same from the rows (one rule, games.refusals.speed_change).
    with pytest.raises(ActionError) as refused:
        await database_sync_to_async(services.set_computer_speed)(
            room_id=room.pk, actor=friend.actor, speed="fast"
        )
    assert refused.value.code == "not_host"
    assert (await fresh(room)).computer_speed == "normal"
