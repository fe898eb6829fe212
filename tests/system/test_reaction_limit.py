"""The reaction limit is one seat's across processes: a player with a tab on each of two
Daphne processes still gets REACTIONS_PER_WINDOW reactions, not twice as many."""

import asyncio

import pytest

from tests.rooms import signed_in_friends_room
from tests.system.conftest import Client, needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


async def answer_to(client: Client, ref: str) -> dict:
    """The reaction this client's frame ``ref`` became, or the error it got."""
    while True:
        message = await client.receive(30)
        assert message is not None, f"no answer to {ref} within 30 s"
        if message["type"] == "error" and message.get("ref") == ref:
            return message
        if message["type"] == "reaction" and message["reaction"] == ref:
            return message


def test_one_seat_on_two_processes_gets_five_reactions_not_ten(servers):
    room, sessions = signed_in_friends_room(2, 2, rounds=1)
    # An hour's window: however slow the machine, the seven frames fall in one window.
    env = {"REACTION_WINDOW_SECONDS": "3600", "REACTIONS_PER_WINDOW": "5"}
    one, two = servers("one", env=env), servers("two", env=env)
    # Each reaction is its own key, so each answer names the frame it answers.
    keys = ["smile", "laugh", "surprised", "sad", "good_luck", "well_played", "oh_no"]

    async def scenario():
        here = await Client(sessions[0]).connect(one.port, room.code)
        there = await Client(sessions[0]).connect(two.port, room.code)
        answers = []
        for i, key in enumerate(keys):
            tab = here if i % 2 == 0 else there
            await tab.send(type="react", reaction=key, ref=key)
            answers.append(await answer_to(tab, key))
        await here.close()
        await there.close()
        return answers

    answers = asyncio.run(scenario())
    limit = 5
    assert [a["type"] for a in answers] == ["reaction"] * limit + ["error"] * (len(keys) - limit)
    assert {a["code"] for a in answers[limit:]} == {"slow_down"}
