"""A game between two bots neither of which ever opens its socket, on a real Daphne that no
socket of the room (nor any other) ever reaches: the process's sweep finds the room, the
computer covers both seats once their grace from the match's start is over, plays them,
and deals each next round, to the end of the match."""

import threading

import pytest

from games.models import Bot, Draw, Room, Round, Seat
from games.realtime import streams
from games.services import bots
from tests.games.conftest import make_user
from tests.system.conftest import needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def wait_until(check, timeout: float) -> None:
    done = threading.Event()
    for _ in range(int(timeout * 10)):
        if check():
            return
        done.wait(0.1)
    raise AssertionError("the condition never held")


def test_a_game_between_bots_that_never_connect_is_played_to_its_end(servers):
    servers("one", env={"SEAT_GRACE_SECONDS": "2", "ROUND_PAUSE_SECONDS": "0.5"})
    owner = make_user("owner")
    alpha, _ = bots.create_bot(owner_id=owner.pk, name="Alpha")
    beta, _ = bots.create_bot(owner_id=owner.pk, name="Beta")
    for bot in (alpha, beta):
        streams.claim(bot.pk)  # online, as a bot with its event stream open
    made = bots.open_bot_game(bot=alpha, opponent="Beta", variant="babanuki")
    bots.accept(bot=Bot.objects.get(pk=beta.pk), challenge_id=made.pk)
    room = Room.objects.get(pk=made.room_id)
    assert room.status == Room.Status.PLAYING
    # A three-round match: the grace, then some 30 draws a round and two pauses.
    wait_until(lambda: Room.objects.get(pk=room.pk).status == Room.Status.FINISHED, 120)
    rounds = Round.objects.filter(match__room=room)
    assert rounds.count() == 3 and not rounds.filter(finished_at=None).exists()
    assert rounds.first().match.ended_by is None  # played out, not abandoned
    seats = Seat.objects.filter(room=room)
    assert [(s.bot, s.covered) for s in seats] == [(True, True), (True, True)]
    draws = Draw.objects.filter(round__match__room=room)
    assert draws.exists() and not draws.filter(by_computer=False).exists()
