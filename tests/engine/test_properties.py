"""Properties of every round of every variant, over thousands of random rounds."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    LEVELS,
    VARIANTS,
    RoundState,
    arrange_after_own_draw,
    choose_position,
)

SETUPS = [
    (key, players)
    for key, variant in VARIANTS.items()
    for players in range(variant.min_players, variant.max_players + 1)
]


@st.composite
def rounds(draw):
    variant, players = draw(st.sampled_from(SETUPS))
    options = {"same_colour_pairs": draw(st.booleans())}
    if VARIANTS[variant].scoring == "strikes":
        options["reverse"] = draw(st.booleans())
    dealer = draw(st.integers(0, players - 1))
    level = draw(st.sampled_from((None, *LEVELS)))
    seed = draw(st.integers(0, 2**32))
    return variant, players, dealer, options, level, seed


#: The card of each variant that never pairs (RULES.md section 4), written out here: the
#: oracle below is the rules' own words, not the engine's ``pairs_with``.
NEVER_PAIRS = {"babanuki": "JK", "jijinuki": None, "old_maid": None, "schwarzer_peter": "JC"}
RED = {"H", "D"}


def pair_by_the_rules(variant: str, same_colour: bool, a: str, b: str) -> bool:
    """RULES.md, sections 3 and 7: two cards of the same rank (the joker has none), of
    the same colour too under the same-colour house rule; the never-pairing card never."""
    if a == b or NEVER_PAIRS[variant] in (a, b) or "JK" in (a, b):
        return False
    (rank_a, suit_a), (rank_b, suit_b) = (a[:-1], a[-1]), (b[:-1], b[-1])
    return rank_a == rank_b and (not same_colour or (suit_a in RED) == (suit_b in RED))


def assert_no_pairs(state, variant, options):
    same_colour = options["same_colour_pairs"]
    for hand in state.hands:
        for i, a in enumerate(hand):
            for b in hand[i + 1 :]:
                assert not pair_by_the_rules(variant, same_colour, a, b), (a, b, hand)


def cards_in_play(state):
    return Counter([c for h in state.hands for c in h] + [c for p in state.discards for c in p])


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(rounds())
def test_every_round_conserves_cards_and_ends_with_one_odd_card(setup):
    variant, players, dealer, options, level, seed = setup
    rng = random.Random(seed)
    state = RoundState.deal(variant, players, dealer, rng, options)
    dealt = Counter(c for h in state.dealt for c in h)
    assert len(dealt) == VARIANTS[variant].deck_size
    assert cards_in_play(state) == dealt
    assert_no_pairs(state, variant, options)

    # A round with random draws ends; 2,000 draws is far beyond any real round.
    for _ in range(2000):
        if state.over:
            break
        drawer, giver = state.drawer, state.giver
        assert drawer != giver and state.hands[drawer] and state.hands[giver]
        before = (state.count(drawer), state.count(giver))
        result = state.draw(choose_position(state, rng))
        arrange_after_own_draw(state, drawer, rng, level)
        assert cards_in_play(state) == dealt
        assert_no_pairs(state, variant, options)
        # One card moves per draw, never more.
        assert state.count(giver) == before[1] - 1
        assert state.count(drawer) == before[0] + (-1 if result.paired_with else 1)
    assert state.over

    # Exactly one card is left, it is the odd card, and its holder is the loser.
    (odd,) = state.odd_cards
    holder = state.holder
    assert state.hand(holder) == [odd]
    assert sorted(state.ranking) == list(range(players))
    assert len(set(state.finish_order)) == players - 1
    assert state.loser == (None if options.get("reverse") else holder)
    if NEVER_PAIRS[variant]:
        assert odd == NEVER_PAIRS[variant]
    if state.removed:
        # Jiji-nuki: the jiji is the partner of the card set aside; Old Maid: a queen.
        assert odd[:-1] == state.removed[0][:-1]
    # Every other card left the table in a pair with a card it pairs with.
    for a, b in state.discards:
        assert pair_by_the_rules(variant, options["same_colour_pairs"], a, b), (a, b)
    assert sum(len(p) for p in state.discards) == len(dealt) - 1


def test_thousands_of_plain_rounds_of_every_setup():
    rng = random.Random(20261130)
    played = 0
    for variant, players in SETUPS:
        for _ in range(150):
            state = RoundState.deal(variant, players, rng.randrange(players), rng)
            while not state.over:
                state.draw(choose_position(state, rng))
            (odd,) = state.odd_cards
            assert state.hand(state.loser) == [odd]
            played += 1
    assert played == 150 * len(SETUPS)


def test_the_pairing_oracle_says_what_the_rules_say():
    assert pair_by_the_rules("babanuki", False, "10H", "10S")  # suit and colour do not matter
    assert not pair_by_the_rules("babanuki", False, "10H", "9H")
    assert not pair_by_the_rules("babanuki", False, "JK", "JD")  # the joker never pairs
    assert pair_by_the_rules("babanuki", True, "10H", "10D")  # both red
    assert not pair_by_the_rules("babanuki", True, "10H", "10S")  # red and black
    assert not pair_by_the_rules("schwarzer_peter", False, "JC", "JH")  # the Black Peter
    assert pair_by_the_rules("old_maid", False, "JC", "JH")
