"""A room's computer speed (RULES.md section 6): its computer seats' draws are scheduled
the configured delay times the room's factor after each change; measured by what is
scheduled (``schedule.next_due`` and the stored ``Room.due_at``), never by waiting."""

import pytest

from games import schedule, selectors, services
from games.engine.seats import played_by_computer
from games.engine.view import view_for
from games.errors import ActionError
from games.models import Room
from tests.rooms import computer_room
from tests.support import ply

DELAY = 10.0  # long enough that no driver acts while the test looks


def at_a_computers_turn(room: Room, actor) -> dict:
    """The room, connected, at a computer seat's draw (the human draws until then)."""
    services.connect(room_id=room.pk, actor=actor, channel_name="speed-test")
    for _ in range(60):
        state = selectors.snapshot(room.pk)
        drawer = state["round"]["state"]["drawer"]
        if played_by_computer(state["seats"][drawer]):
            return state
        services.draw(room_id=room.pk, actor=actor, position=0, at=ply(view_for(state), "draw"))
    raise AssertionError("never a computer's turn")


@pytest.mark.parametrize(("speed", "factor"), [("slow", 1.8), ("normal", 1.0), ("fast", 0.4)])
def test_a_computer_turn_is_scheduled_at_the_rooms_speed(settings, speed, factor):
    settings.COMPUTER_DELAY_SECONDS = DELAY
    actor = services.Actor(guest="speedy")
    room = computer_room(actor, name="s", seats=3, rounds=1, computer_speed=speed)
    state = at_a_computers_turn(room, actor)
    due = schedule.next_due(state)
    assert due.kind == "computer_turn"
    assert due.at - state["changed_at"] == pytest.approx(DELAY * factor)
    # ... and that is what the room stores for the sweep.
    room.refresh_from_db()
    assert room.due_at.timestamp() - room.updated_at.timestamp() == pytest.approx(
        DELAY * factor, abs=0.01
    )


def test_a_delay_of_zero_stays_zero_at_every_speed(settings):
    settings.COMPUTER_DELAY_SECONDS = 0
    assert {schedule.computer_delay(s) for s in schedule.COMPUTER_SPEEDS} == {0}
    assert schedule.computer_delay(None) == 0


def test_the_speed_is_part_of_the_rooms_public_state(settings):
    room = computer_room(
        services.Actor(guest="speedy"), name="s", seats=2, rounds=1, computer_speed="fast"
    )
    state = selectors.snapshot(room.pk)
    assert state["room"]["computer_speed"] == "fast"
    assert view_for(state, None)["room"]["computer_speed"] == "fast"


def test_an_unknown_speed_is_refused_and_opens_no_room():
    with pytest.raises(ActionError) as refused:
        computer_room(
            services.Actor(guest="speedy"), name="s", seats=2, rounds=1, computer_speed="warp"
        )
    assert refused.value.code == "not_allowed" and "warp" in str(refused.value)
    assert not Room.objects.exists()
