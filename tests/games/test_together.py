"""The drawer's point and players' reactions over the real table socket: who receives
them, who may send them, their rate limits at the boundary, that none of it moves the
room, and a computer's face when a human points at its odd card."""

import pytest
from channels.db import database_sync_to_async

from games import selectors
from games.engine.tells import face_at
from games.realtime import limits, windows
from tests.games.conftest import Player
from tests.games.refusals import expect_error, room_version
from tests.rooms import easy_room_where_the_computer_gives_the_joker, friends_in_play
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


class Clock:
    """A monotonic clock the test moves: every frame of a test falls in one second."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now

    def time(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(limits, "time", fake)
    monkeypatch.setattr(windows, "time", fake)
    yield fake


#: Two points every deal allows, told apart in the order they arrive: the first card and
#: no card. Not 0 and 1: a deal may leave the giver a single card (its pairs discarded),
#: and a point at position 1 is then refused as bad_position (issue 32).
POSITIONS = (0, None)


async def next_of(player: Player, kind: str) -> dict:
    message = await player.receive()
    while message["type"] != kind:
        message = await player.receive()
    return message


async def table_with_spectator():
    room, (host, friend) = await friends_in_play("host", "friend", rounds=1)
    drawer, giver = (host, friend) if host.state["acting"] is not None else (friend, host)
    spectator = await Player.guest("eyes")
    assert await spectator.connect(room.code, token=room.token)
    return room, drawer, giver, spectator


async def test_a_point_reaches_the_giver_and_a_spectator_and_moves_nothing():
    room, drawer, giver, spectator = await table_with_spectator()
    seat = drawer.state["acting"]
    version = await room_version(room)
    seen = len(giver.messages)
    # Position 0: a deal may leave the giver a single card (POSITIONS).
    await drawer.send(type="point", **ply(drawer.state, "point"), position=0)
    for who in (giver, spectator, drawer):
        assert await next_of(who, "pointing") == {"type": "pointing", "seat": seat, "position": 0}
    await drawer.send(type="point", **ply(drawer.state, "point"), position=None)
    for who in (giver, spectator):
        assert await next_of(who, "pointing") == {
            "type": "pointing",
            "seat": seat,
            "position": None,
        }
    assert await room_version(room) == version
    await giver.drain()
    assert not [m for m in giver.messages[seen:] if m["type"] == "state"]


async def test_points_from_a_non_drawer_or_for_a_stale_move_are_refused_and_never_close(
    settings,
):
    # With no refused frame allowed, one counted frame would close the socket.
    settings.WS_INVALID_FRAME_LIMIT = 0
    room, drawer, giver, spectator = await table_with_spectator()
    at = ply(drawer.state, "point")
    await giver.send(type="point", **at, position=0)
    await expect_error(giver, "not_your_turn")
    await spectator.send(type="point", **at, position=0)
    await expect_error(spectator, "not_seated")
    for late in (at["draw"] - 1, at["draw"] + 1):
        await drawer.send(type="point", **{**at, "draw": late}, position=0, ref="late")
        error = await expect_error(drawer, "stale_version")
        assert error["ref"] == "late"
    count = drawer.state["seats"][drawer.state["round"]["giver"]]["count"]
    await drawer.send(type="point", **at, position=count)
    await expect_error(drawer, "bad_position")
    for who in (giver, spectator, drawer):  # every socket still open, nobody saw a point
        await who.drain()
        assert not [m for m in who.messages if m["type"] == "pointing"]


async def test_the_tenth_point_in_a_second_is_sent_and_the_eleventh_refused(settings, clock):
    settings.WS_INVALID_FRAME_LIMIT = 0
    room, drawer, giver, spectator = await table_with_spectator()
    at = ply(drawer.state, "point")
    for n in range(10):
        await drawer.send(type="point", **at, position=POSITIONS[n % 2])
    for n in range(10):
        assert (await next_of(giver, "pointing"))["position"] == POSITIONS[n % 2]
    await drawer.send(type="point", **at, position=0, ref="eleventh")
    error = await expect_error(drawer, "slow_down")
    assert error["ref"] == "eleventh"
    clock.now += 1.0  # the next second: points go through again
    await drawer.send(type="point", **at, position=0)
    assert (await next_of(giver, "pointing"))["position"] == 0


async def test_a_reaction_reaches_the_room_and_spectators_may_not_send_one(settings):
    settings.WS_INVALID_FRAME_LIMIT = 0
    room, drawer, giver, spectator = await table_with_spectator()
    seat = giver.state["you"][0]
    await giver.send(type="react", reaction="good_luck")
    for who in (drawer, spectator, giver):
        assert await next_of(who, "reaction") == {
            "type": "reaction",
            "seat": seat,
            "reaction": "good_luck",
        }
    await spectator.send(type="react", reaction="good_luck")
    await expect_error(spectator, "not_seated")
    for key in ("hello", "Good luck", ""):
        await giver.send(type="react", reaction=key)
        await expect_error(giver, "bad_reaction")
    await drawer.drain()
    assert [m for m in drawer.messages if m["type"] == "reaction"] == [
        {"type": "reaction", "seat": seat, "reaction": "good_luck"}
    ]


async def test_the_fifth_reaction_in_ten_seconds_is_sent_and_the_sixth_refused(settings, clock):
    settings.WS_INVALID_FRAME_LIMIT = 0
    room, drawer, giver, spectator = await table_with_spectator()
    for _ in range(5):
        await giver.send(type="react", reaction="laugh")
    for _ in range(5):
        assert (await next_of(spectator, "reaction"))["reaction"] == "laugh"
    await giver.send(type="react", reaction="laugh", ref="sixth")
    assert (await expect_error(giver, "slow_down"))["ref"] == "sixth"
    # The limit is the seat's, not the socket's: the drawer's seat may still react.
    await drawer.send(type="react", reaction="oh_no")
    assert (await next_of(spectator, "reaction"))["reaction"] == "oh_no"
    clock.now += 10.0
    await giver.send(type="react", reaction="thanks")
    assert (await next_of(spectator, "reaction"))["reaction"] == "thanks"


async def test_an_easy_computer_looks_worried_when_its_joker_is_pointed_at():
    me = await Player.guest("me")
    room, joker = await database_sync_to_async(easy_room_where_the_computer_gives_the_joker)(me)
    assert await me.connect(room.code)
    giver = me.state["round"]["giver"]
    at = ply(me.state, "point")
    await me.send(type="point", **at, position=joker)
    assert await next_of(me, "reaction") == {
        "type": "reaction",
        "seat": giver,
        "reaction": "worried",
    }
    # The same face again is not sent again; another card brings the calm face.
    await me.send(type="point", **at, position=joker)
    other = 0 if joker else 1
    await me.send(type="point", **at, position=other)
    assert await next_of(me, "reaction") == {"type": "reaction", "seat": giver, "reaction": "calm"}
    faces = [m for m in me.messages if m["type"] == "reaction"]
    assert [f["reaction"] for f in faces] == ["worried", "calm"]
    # The face is the engine's, recomputed from the stored round (a replay could).
    state = await database_sync_to_async(selectors.snapshot)(room.pk)
    rnd = state["round"]
    assert face_at(rnd["state"], "easy", rnd["seed"], 1, 1, joker) == "worried"


async def no_face_at(pointer: Player, position: int) -> None:
    """``pointer`` points at ``position``, then at another card: nothing but the two
    pointings comes back (a face the first brought would come before the second, which
    the same socket sent after it)."""
    at = ply(pointer.state, "point")
    other = 0 if position else 1
    seen = len(pointer.messages)
    await pointer.send(type="point", **at, position=position)
    await pointer.send(type="point", **at, position=other)
    while not [m for m in pointer.messages[seen:] if m.get("position") == other]:
        await pointer.receive()
    together = [m for m in pointer.messages[seen:] if m["type"] in ("pointing", "reaction")]
    assert [(m["type"], m.get("position")) for m in together] == [
        ("pointing", position),
        ("pointing", other),
    ]


async def test_a_bot_pointing_at_a_computer_seat_gets_no_face():
    bot = await Player.bot("Pointer")
    room, joker = await database_sync_to_async(easy_room_where_the_computer_gives_the_joker)(
        bot, bot=True
    )
    assert await bot.connect(room.code)
    assert bot.state["seats"][0]["bot"] and bot.state["seats"][1]["kind"] == "computer"
    await no_face_at(bot, joker)


def _joker_holder(room_id: int) -> tuple[int, list[str]]:
    rnd = selectors.snapshot(room_id)["round"]["state"]
    holder = next(seat for seat, hand in enumerate(rnd["hands"]) if "JK" in hand)
    return holder, rnd["hands"][holder]


async def test_a_person_pointing_at_a_seat_the_computer_covers_gets_no_face(settings):
    settings.SEAT_GRACE_SECONDS = 0.3
    room, players = await friends_in_play("ann", "bea", rounds=1, computer_level="easy")
    holder, _ = await database_sync_to_async(_joker_holder)(room.pk)
    pointer = players[1 - holder]
    if players[holder].state["acting"] is not None:  # the joker's holder draws first
        await players[holder].act(type="draw", position=0)
        await pointer.until(lambda s: s["acting"] is not None)
    await players[holder].close()
    state = await pointer.until(lambda s: s["seats"][holder]["covered"])
    assert state["acting"] == pointer.state["you"][0] and not state["round"]["over"]
    _, hand = await database_sync_to_async(_joker_holder)(room.pk)
    await no_face_at(pointer, hand.index("JK"))
