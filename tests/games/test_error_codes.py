"""Error codes no other test produced (docs/protocol.md, "error"): each through the table
socket where a socket can meet it, with its meaning: nothing changed, and a state follows."""

import logging

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.errors import ActionError
from games.models import Room
from tests.games.conftest import Player, round_one_over
from tests.rooms import friends_room
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


async def refused(player: Player, **frame) -> tuple[dict, dict]:
    """Send ``frame``; the error it is answered with, and the state that follows it."""
    await player.send(**frame)
    error = await player.receive()
    while error["type"] != "error":  # a broadcast may come first
        error = await player.receive()
    following = await player.receive()
    assert following["type"] == "state"
    return error, following


async def waiting_friends_room(seats: int = 3):
    host = await Player.user("host")
    room = await database_sync_to_async(services.create_room)(
        actor=host.actor, name="Host", variant="babanuki", seat_count=seats, mode="friends"
    )
    assert await host.connect(room.code)
    return room, host


async def test_starting_without_fill_while_seats_are_empty_is_refused_with_seats_empty():
    room, host = await waiting_friends_room()
    error, state = await refused(host, type="start", fill=False, ref="s1")
    assert (error["code"], error["ref"]) == ("seats_empty", "s1")
    assert "Some seats are still empty" in error["message"]
    assert state["room"]["status"] == "waiting" and state["match"] is None
    assert [s["kind"] for s in state["seats"]] == ["human", "empty", "empty"]


async def test_a_draw_or_a_leave_before_the_start_is_refused_with_not_started():
    room, host = await waiting_friends_room()
    version = host.state["version"]
    draw = {"type": "draw", "match": 1, "round": 1, "draw": 0, "position": 0}
    error, state = await refused(host, **draw)
    assert error["code"] == "not_started" and "has not started" in error["message"]
    error, state = await refused(host, type="leave", match=1)
    assert error["code"] == "not_started" and "not being played" in error["message"]
    assert (state["room"]["status"], state["version"]) == ("waiting", version)
    # The room's own check answers the same, not only the socket's kept state.
    with pytest.raises(ActionError) as refusal:
        await database_sync_to_async(services.draw)(
            room_id=room.pk, actor=host.actor, at=draw, position=0
        )
    assert refusal.value.code == "not_started"


async def test_a_draw_after_the_round_ended_is_refused_with_round_over():
    me = await Player.guest("g-me")
    room = await round_one_over(me)
    state = me.state
    assert state["round"]["over"] and not state["match"]["over"]
    error, after = await refused(me, type="draw", **ply(state, "draw"), position=0, ref="r1")
    assert (error["code"], error["ref"]) == ("round_over", "r1")
    assert error["message"] == "The round is over."
    assert after["version"] == state["version"] and after["round"]["number"] == 1
    with pytest.raises(ActionError) as refusal:  # and the room's own check
        await database_sync_to_async(services.draw)(
            room_id=room.pk, actor=me.actor, at=ply(state, "draw"), position=0
        )
    assert refusal.value.code == "round_over"


async def test_a_bug_while_handling_an_action_is_answered_internal_and_logged(monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("a bug in the service")

    room, host = await waiting_friends_room()
    monkeypatch.setattr(services, "start_match", broken)
    with caplog.at_level(logging.ERROR, logger="games.realtime.consumers"):
        error, state = await refused(host, type="start", fill=True, ref="b1")
    assert (error["code"], error["ref"]) == ("internal", "b1")
    assert error["message"] == "Something went wrong on our side."
    assert "bug" not in error["message"] and "Traceback" not in error["message"]
    assert state["room"]["status"] == "waiting"  # nothing changed
    (record,) = [r for r in caplog.records if r.name == "games.realtime.consumers"]
    assert record.exc_info and "a bug in the service" in str(record.exc_info[1])


def test_joining_a_room_with_no_free_seat_is_refused_with_room_full(django_user_model):
    host, friend, late = (
        django_user_model.objects.create_user(username=n, password="a-long-password-1")
        for n in ("host", "friend", "late")
    )
    room = friends_room(host, {"Friend": friend}, name="Host")
    version = Room.objects.get(pk=room.pk).version
    with pytest.raises(ActionError) as refusal:
        services.join_room(room_id=room.pk, actor=services.Actor(user_id=late.pk), name="Late")
    assert (refusal.value.code, refusal.value.message) == ("room_full", "Every seat is taken.")
    assert Room.objects.get(pk=room.pk).version == version
    assert [s.user_id for s in room.seats.order_by("index")] == [host.pk, friend.pk]
    # The invitation page says so before anyone tries, and takes no seat on the POST.
    client = Client()
    client.force_login(late)
    for response in (client.get(f"/join/{room.token}/"), client.post(f"/join/{room.token}/")):
        assert "Every seat is taken." in response.content.decode()
    assert [s.user_id for s in room.seats.order_by("index")] == [host.pk, friend.pk]
