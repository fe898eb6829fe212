"""A replay's marks (games.engine.marks): where a computer put the odd card after its own
draw, and the face it would have shown at each card, the same faces the live table
sends for a point (``tells.face_at``); nothing in Jiji-nuki, no face at Hard."""

import random

import pytest

from games.engine import RoundState, arrange_after_own_draw, choose_position, marks
from games.engine.computer import HABIT_POSITION
from games.engine.tells import CALM, WORRIED, face_at

SEED = "5eed"
ROUNDS = 40


def rounds_of(variant, level, players=3):
    """For ``ROUNDS`` rounds played by computers of ``level``: after each draw, the state
    and the seat that drew (its hand arranged as the computer arranges it)."""
    for n in range(ROUNDS):
        rng = random.Random(n)
        state = RoundState.deal(variant, players, n % players, rng)
        while not state.over:
            drawer = state.drawer
            state.draw(choose_position(state, rng))
            arrange_after_own_draw(state, drawer, rng, level)
            yield state, drawer


def hid_marks(variant, level):
    return [
        m for state, drawer in rounds_of(variant, level) if (m := marks.hid(state, drawer, level))
    ]


def face_marks(variant, level):
    return [
        m
        for state, _ in rounds_of(variant, level)
        if (m := marks.face(state, level, SEED, 1, 1)) is not None
    ]


def test_easy_hides_the_odd_card_at_its_habit_and_its_face_is_worried_exactly_there():
    hid = hid_marks("babanuki", "easy")
    assert hid and all(m["position"] == HABIT_POSITION and m["habit"] for m in hid)
    assert {m["card"] for m in hid} == {"JK"}
    faces = face_marks("babanuki", "easy")
    assert faces
    for m in faces:
        expected = [WORRIED if p == m["position"] else CALM for p in range(len(m["faces"]))]
        assert m["faces"] == expected


def test_medium_shows_its_habit_some_of_the_time_and_bluffs_now_and_then():
    hid = hid_marks("babanuki", "medium")
    at_habit = sum(m["habit"] for m in hid)
    assert 0 < at_habit < len(hid)
    faces = face_marks("babanuki", "medium")
    tells = sum(m["faces"][m["position"]] == WORRIED for m in faces)
    bluffs = sum(
        f == WORRIED for m in faces for p, f in enumerate(m["faces"]) if p != m["position"]
    )
    assert 0 < tells < len(faces)
    assert bluffs > 0
    assert {f for m in faces for f in m["faces"]} == {WORRIED, CALM}


def test_hard_has_no_habit_and_no_face():
    assert not any(m["habit"] for m in hid_marks("babanuki", "hard"))
    faces = face_marks("babanuki", "hard")
    assert faces and all(set(m["faces"]) == {None} for m in faces)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_jiji_nuki_has_no_marks(level):
    assert hid_marks("jijinuki", level) == []
    assert face_marks("jijinuki", level) == []


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_marked_faces_are_the_faces_the_live_table_sends(level):
    for state, _ in rounds_of("schwarzer_peter", level):
        m = marks.face(state, level, SEED, 2, 3)
        if m is None:
            continue
        stored = state.to_dict()
        live = [face_at(stored, level, SEED, 2, 3, p) for p in range(len(m["faces"]))]
        assert m["faces"] == live
        assert m["seat"] == state.giver and state.hand(state.giver)[m["position"]] == m["card"]


def test_a_lone_odd_card_is_not_marked_as_hidden():
    lone = [
        marks.hid(state, drawer, "easy")
        for state, drawer in rounds_of("babanuki", "easy")
        if state.hand(drawer) == ["JK"]
    ]
    assert lone and all(m is None for m in lone)


def test_old_maid_marks_the_lone_queen_only_once_the_computer_can_know_it():
    hid = hid_marks("old_maid", "easy")
    assert hid and all(m["card"][0] == "Q" and m["position"] == HABIT_POSITION for m in hid)
    for state, drawer in rounds_of("old_maid", "easy"):
        if state.known_odd_card(drawer) is None:
            assert marks.hid(state, drawer, "easy") is None
