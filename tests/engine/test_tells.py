"""Computer faces (RULES.md section 6, "Tells"): Easy always gives the odd card away,
Medium about half the time and now and then without reason, Hard never, nobody in
Jiji-nuki; the same point always gets the same face."""

import random

import pytest

from games.engine import RoundState
from games.engine.tells import (
    CALM,
    MEDIUM_BLUFF_RATE,
    MEDIUM_TELL_RATE,
    WORRIED,
    face,
    face_at,
    tell_rng,
)

TRIALS = 2000


def faces(level, *, at_odd, knows_odd=True, hidden=False):
    return [
        face(level, knows_odd=knows_odd, at_odd=at_odd, hidden=hidden, rng=random.Random(n))
        for n in range(TRIALS)
    ]


def test_easy_is_worried_exactly_at_its_odd_card():
    assert set(faces("easy", at_odd=True)) == {WORRIED}
    assert set(faces("easy", at_odd=False)) == {CALM}


def test_medium_is_worried_about_half_the_time_at_its_odd_card_and_bluffs_now_and_then():
    at_odd = faces("medium", at_odd=True).count(WORRIED) / TRIALS
    elsewhere = faces("medium", at_odd=False).count(WORRIED) / TRIALS
    assert abs(at_odd - MEDIUM_TELL_RATE) < 0.05
    assert abs(elsewhere - MEDIUM_BLUFF_RATE) < 0.04
    assert 0 < elsewhere < at_odd < 1


@pytest.mark.parametrize("at_odd", [True, False])
def test_hard_never_shows_a_face(at_odd):
    assert set(faces("hard", at_odd=at_odd)) == {None}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_no_face_without_knowing_the_odd_card_or_in_jiji_nuki(level):
    assert set(faces(level, at_odd=False, knows_odd=False)) == {None}
    assert set(faces(level, at_odd=True, hidden=True)) == {None}


def test_the_same_point_gets_the_same_face_and_the_stream_depends_on_each_input():
    draws = [tell_rng("ab", 1, 1, 3, 2).random() for _ in range(3)]
    assert len(set(draws)) == 1
    others = {
        tell_rng(*args).random()
        for args in [
            ("ab", 1, 1, 3, 2),
            ("ac", 1, 1, 3, 2),
            ("ab", 2, 1, 3, 2),
            ("ab", 1, 2, 3, 2),
            ("ab", 1, 1, 4, 2),
            ("ab", 1, 1, 3, 1),
        ]
    }
    assert len(others) == 6


def _round(variant, hands, giver=1, drawer=0):
    state = RoundState.deal(variant, 2, dealer=1, rng=random.Random(0))
    data = state.to_dict()
    data.update(hands=hands, giver=giver, drawer=drawer, dealt=hands, discards=[])
    return data


def test_face_at_reads_the_givers_hand_from_a_stored_round():
    data = _round("babanuki", [["4D", "5S"], ["7C", "JK", "9H"]])
    assert face_at(data, "easy", "seed", 1, 1, 1) == WORRIED
    assert face_at(data, "easy", "seed", 1, 1, 0) == CALM
    assert face_at(data, "easy", "seed", 1, 1, 3) is None  # not a card
    assert face_at(data, "hard", "seed", 1, 1, 1) is None
    calm_giver = _round("babanuki", [["4D", "JK"], ["7C", "8S", "9H"]])
    assert face_at(calm_giver, "easy", "seed", 1, 1, 0) is None  # holds no odd card
