"""Computer seats: uniform draws and the odd-card habits of each level (RULES.md section 6)."""

import random
from collections import Counter

import pytest

from games.engine import EASY, HARD, MEDIUM, RoundState, arrange_after_own_draw, choose_position


def joker_holder_after_own_draw(level, seed):
    """Seat 1 draws a card, then arranges its hand as a computer of ``level``."""
    rng = random.Random(seed)
    hands = [["2S", "3S", "4S", "5S"], ["JK", "6S", "7S", "8S", "9S"], ["10S", "2H"]]
    state = RoundState.from_hands("babanuki", hands, 0)
    state.draw(choose_position(state, rng))
    arrange_after_own_draw(state, 1, rng, level)
    return state.hand(1).index("JK")


@pytest.mark.parametrize(
    ("level", "low", "high"), [(EASY, 1.0, 1.0), (MEDIUM, 0.45, 0.75), (HARD, 0.05, 0.3)]
)
def test_how_often_each_level_leaves_the_joker_in_its_habit_place(level, low, high):
    at_habit = sum(joker_holder_after_own_draw(level, seed) == 0 for seed in range(400)) / 400
    # Easy: always; Medium: about half the time plus chance (1/6 of the rest); Hard: 1/6.
    assert low <= at_habit <= high


def test_without_the_odd_card_levels_play_identically():
    def play(level, seed):
        rng = random.Random(seed)
        state = RoundState.from_hands(
            "babanuki", [["2S", "3S", "9S"], ["4S", "5S", "6S"], ["7S", "JK"]], 0
        )
        state.draw(choose_position(state, rng))
        arrange_after_own_draw(state, 1, rng, level)
        return state.hand(1)

    for seed in range(20):
        assert play(EASY, seed) == play(MEDIUM, seed) == play(HARD, seed)


def test_in_jiji_nuki_nobody_knows_the_odd_card_so_levels_play_identically():
    for seed in range(20):
        results = []
        for level in (EASY, MEDIUM, HARD):
            rng = random.Random(seed)
            state = RoundState.deal("jijinuki", 4, 0, rng)
            while not state.over:
                drawer = state.drawer
                state.draw(choose_position(state, rng))
                assert state.known_odd_card(drawer) is None
                arrange_after_own_draw(state, drawer, rng, level)
            results.append(state.to_dict())
        assert results[0] == results[1] == results[2]


def test_old_maid_queen_is_known_only_once_the_other_queens_have_paired():
    state = RoundState.from_hands("old_maid", [["QS", "2S"], ["QH", "2H"], ["QD", "3S"]], 0)
    assert state.known_odd_card(0) is None
    state.draw(state.hand(0).index("QS"))  # seat 1 pairs QS with QH
    assert state.known_odd_card(2) == "QD"


def test_computer_draws_are_uniform_over_positions():
    rng = random.Random(7)
    state = RoundState.from_hands("babanuki", [["2S", "3S", "4S", "5S"], ["JK"]], 0)
    counts = Counter(choose_position(state, rng) for _ in range(4000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(850 < c < 1150 for c in counts.values())


def test_human_hands_are_shuffled_after_their_own_draws():
    orders = set()
    for seed in range(30):
        state = RoundState.from_hands(
            "babanuki", [["2S", "3S", "4S", "5S", "6S"], ["7S", "8S", "9S", "JK"]], 0
        )
        state.draw(0)
        arrange_after_own_draw(state, 1, random.Random(seed))
        orders.add(tuple(state.hand(1)))
    assert len(orders) > 10


def test_unknown_level_is_refused():
    state = RoundState.from_hands("babanuki", [["2S", "3S"], ["JK", "4S"]], 0)
    state.draw(0)
    with pytest.raises(ValueError, match="easy, medium or hard"):
        arrange_after_own_draw(state, 1, random.Random(1), "expert")
