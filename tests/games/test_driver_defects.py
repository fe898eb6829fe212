"""A defect met while the server makes its own move (an exception nobody expected) never
leaves a room standing still: the driver logs it and makes the move again on the locked
path, and a room whose driver is gone is found by the sweep."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games import selectors, services
from games.engine.seats import played_by_computer
from games.models import Draw
from games.realtime import driver
from tests.games.conftest import make_user
from tests.rooms import computer_room

pytestmark = pytest.mark.django_db(transaction=True)

#: A bound for a failure only: the moves come within milliseconds.
WITHIN_SECONDS = 30


def _room_at_the_computers_turn():
    """A room of one person (at the table) and two computers, the computer to draw,
    nothing driving it."""
    user = make_user("host")
    room = computer_room(user, seats=3, rounds=1)
    services.connect(room_id=room.pk, actor=services.Actor(user_id=user.pk), channel_name="a.1")
    state = selectors.snapshot(room.pk)
    if not played_by_computer(state["seats"][state["round"]["state"]["drawer"]]):
        services.draw(room_id=room.pk, actor=services.Actor(user_id=user.pk), position=0)
    return room


async def _computer_draws(room) -> int:
    return await Draw.objects.filter(round__match__room=room, by_computer=True).acount()


async def _until_the_computer_draws(room) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WITHIN_SECONDS
    while not await _computer_draws(room):
        assert loop.time() < deadline, "the computer never drew"
        await asyncio.sleep(0.05)


async def test_a_defect_in_the_computers_move_is_logged_and_the_computer_plays_on(
    monkeypatch, caplog
):
    room = await database_sync_to_async(_room_at_the_computers_turn)()
    tried = []

    async def defective(**kwargs):
        tried.append(kwargs)
        raise RuntimeError("injected")

    monkeypatch.setattr(services, "computer_turn_on_loop", defective)

    driver.ensure(room.pk)
    await _until_the_computer_draws(room)

    assert tried  # the loop's path failed, and the locked path made the move
    assert "the server's move failed" in caplog.text and "RuntimeError: injected" in caplog.text


async def test_a_room_owing_a_move_whose_driver_is_gone_is_found_by_the_sweep():
    room = await database_sync_to_async(_room_at_the_computers_turn)()

    assert await driver.sweep_once(lease=False) == [room.pk]
    await _until_the_computer_draws(room)
