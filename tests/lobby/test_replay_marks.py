"""A replay's marks, from a round's stored rows: where a computer put the odd card after a
draw the computer made, and, before a human's draw from a computer seat, the face it
would have shown at each card; the page hands them out and shows its legend only then."""

import pytest

from games import selectors, services
from games.engine import HARD
from games.engine.computer import HABIT_POSITION
from games.engine.tells import CALM, WORRIED
from games.models import Room, Round
from games.replay import replay_steps
from games.services import bots
from tests.games.conftest import make_user
from tests.lobby.replays import TRIES, finished_round, marked_round, replay_data
from tests.play import play_match_out
from tests.rooms import actor_of, computer_room, friends_room

pytestmark = pytest.mark.django_db


def test_easy_marks_its_habit_and_a_face_worried_exactly_at_the_odd_card():
    _room, rnd, steps = marked_round(level="easy")
    rows = list(rnd.draws.all())
    for k, step in enumerate(steps):
        for m in step["marks"]:
            hand = step["hands"][m["seat"]]
            assert hand[m["position"]] == m["card"] == "JK"
            if m["kind"] == "hid":
                assert rows[k - 1].by_computer and rows[k - 1].drawer == m["seat"] == 1
                assert m["position"] == HABIT_POSITION and m["habit"]
            else:
                # A human (seat 0) is about to draw from the computer (seat 1).
                assert (rows[k].drawer, rows[k].giver, rows[k].by_computer) == (0, 1, False)
                assert m["faces"] == [
                    WORRIED if p == m["position"] else CALM for p in range(len(hand))
                ]


def test_a_human_drawing_from_a_computer_that_holds_the_joker_gets_a_face_mark():
    _room, rnd, steps = marked_round(level="medium", wanted=("face",))
    rows = list(rnd.draws.all())
    for k, step in enumerate(steps[:-1]):
        holds = "JK" in step["hands"][step["giver"]]
        human_from_computer = not rows[k].by_computer and rows[k].giver == 1
        faces = [m for m in step["marks"] if m["kind"] == "face"]
        assert len(faces) == (1 if holds and human_from_computer else 0)


def test_hard_marks_where_it_hid_the_joker_and_a_face_that_gives_nothing_away():
    _room, _rnd, steps = marked_round(level=HARD)
    for m in (m for step in steps for m in step["marks"]):
        if m["kind"] == "hid":
            assert not m["habit"]
        else:
            assert set(m["faces"]) == {None}


def test_jiji_nuki_has_no_marks():
    _room, rnd = finished_round("jijinuki", 3, computer_level="easy", rounds=1)
    assert all(step["marks"] == [] for step in replay_steps(rnd))


def test_a_round_still_in_play_marks_no_face():
    room, rnd, _ = marked_round(level="easy", wanted=("face",))
    Round.objects.filter(pk=rnd.pk).update(finished_at=None)
    rnd.refresh_from_db()
    assert not [m for s in replay_steps(rnd) for m in s["marks"] if m["kind"] == "face"]


def test_a_seat_left_to_the_computer_marks_where_it_hid_but_no_face():
    """The computer plays a leaver's seat by the room's level: where it put the joker is
    marked from its draws, but the rows do not say when the table showed that seat's
    face, so no face is claimed for it (though the host draws from it)."""
    for _ in range(TRIES):
        steps = _played_with_a_leaver()
        hid = [m for s in steps for m in s["marks"] if m["kind"] == "hid"]
        if hid:
            break
    else:
        raise AssertionError("the leaver's seat never held the joker")
    assert all(m["seat"] == 2 and m["position"] == HABIT_POSITION for m in hid)
    assert not [m for s in steps for m in s["marks"] if m["kind"] == "face"]


def _played_with_a_leaver() -> list[dict]:
    """A friends round of three played out: the host (seat 0), Gus (seat 1) and Lea
    (seat 2, whom the host draws from), who leaves at once."""
    host, gus, lea = (services.Actor(guest=g) for g in ("host-g", "gus-g", "lea-g"))
    room = friends_room(
        host, {"Gus": gus, "Lea": lea}, seats=3, start=True, rounds=1, computer_level="easy"
    )
    services.leave_match(room_id=room.pk, actor=lea)
    room.refresh_from_db()
    humans = {0: host, 1: gus}
    while room.status != Room.Status.FINISHED:
        drawer = selectors.snapshot(room.pk)["round"]["state"]["drawer"]
        if drawer in humans:
            services.draw(room_id=room.pk, actor=humans[drawer], position=0)
        else:
            services.computer_turn(room_id=room.pk, version=room.version)
        room.refresh_from_db()
    return replay_steps(Round.objects.get(match__room=room))


def test_a_bot_drawing_from_a_computer_that_holds_the_joker_gets_no_face_mark():
    """The table shows no face to a bot's point (RULES.md section 6): a replay claims none
    before a bot's draw, though the computer it draws from holds the joker."""
    owner = make_user("owner")
    bot, _token = bots.create_bot(owner_id=owner.pk, name="Replayed")
    player = services.Actor(user_id=bot.pk)
    for _ in range(TRIES):
        room = computer_room(player, name="Replayed", rounds=1, computer_level="easy", bot=True)
        play_match_out(room.pk, {0: actor_of(player)})
        rnd = Round.objects.get(match__room=room)
        steps, rows = replay_steps(rnd), list(rnd.draws.all())
        if any(row.drawer == 0 and "JK" in steps[k]["hands"][1] for k, row in enumerate(rows)):
            break
    else:
        raise AssertionError("the computer never held the joker before the bot's draw")
    assert not [m for step in steps for m in step["marks"] if m["kind"] == "face"]


def test_the_page_hands_out_the_marks_and_its_legend(client):
    _room, rnd, steps = marked_round(level="easy")
    data = replay_data(client, rnd)
    assert [s["marks"] for s in data["steps"]] == [s["marks"] for s in steps]
    text = client.get(f"/replay/{rnd.replay_id}/").content.decode()
    assert 'id="replay-legend"' in text and 'id="replay-marks"' in text


def test_a_replay_without_marks_shows_no_legend(client):
    _room, rnd = finished_round("jijinuki", 3, computer_level="easy", rounds=1)
    assert 'id="replay-legend"' not in client.get(f"/replay/{rnd.replay_id}/").content.decode()
