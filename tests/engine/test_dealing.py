"""Fair and traditional deals, and what each variant sets aside (RULES.md section 4)."""

import random
from collections import Counter

import pytest

from games.engine import RoundState, dealt_counts, get_variant, rank


@pytest.mark.parametrize(
    ("players", "dealer", "expected"),
    [
        (4, 0, [14, 13, 13, 13]),  # the dealer gets the extra card
        (4, 2, [13, 13, 14, 13]),
        (3, 0, [17, 18, 18]),  # the dealer is the one seat short
        (3, 1, [18, 17, 18]),
        (2, 0, [27, 26]),
        (2, 1, [26, 27]),
    ],
)
def test_babanuki_fair_deal_matches_the_reference_counts(players, dealer, expected):
    assert dealt_counts(get_variant("babanuki"), players, dealer) == expected


@pytest.mark.parametrize("players", range(2, 9))
def test_fair_deal_makes_the_dealer_the_odd_one_out_where_one_differs(players):
    for key in ("babanuki", "jijinuki"):
        variant = get_variant(key)
        if players < variant.min_players:
            continue
        counts = dealt_counts(variant, players, 0, "fair")
        tally = Counter(counts)
        if len(tally) == 2 and min(tally.values()) == 1:
            lone = next(c for c, k in tally.items() if k == 1)
            assert counts[0] == lone, (key, players, counts)


def test_traditional_deal_starts_on_the_dealers_left():
    variant = get_variant("schwarzer_peter")
    # 31 cards to 3 players from the dealer's left: P2 gets 11, P3 and the dealer 10.
    assert dealt_counts(variant, 3, 0, "traditional") == [10, 11, 10]
    assert dealt_counts(get_variant("old_maid"), 4, 1, "traditional") == [13, 12, 13, 13]


@pytest.mark.parametrize(
    ("variant", "size"),
    [("babanuki", 53), ("jijinuki", 51), ("old_maid", 51), ("schwarzer_peter", 31)],
)
def test_deck_sizes(variant, size):
    state = RoundState.deal(variant, 4, 0, random.Random(1))
    dealt = [c for h in state.dealt for c in h]
    assert len(dealt) == size == get_variant(variant).deck_size
    assert len(set(dealt)) == size


def test_jiji_nuki_sets_one_card_aside_unseen_and_its_rank_holds_the_odd_card():
    for seed in range(30):
        rng = random.Random(seed)
        state = RoundState.deal("jijinuki", 4, 0, rng)
        (removed,) = state.removed
        assert removed not in [c for h in state.dealt for c in h]
        while not state.over:
            state.draw(rng.randrange(state.count(state.giver)))
        (odd,) = state.odd_cards
        assert rank(odd) == rank(removed)


def test_old_maid_sets_a_queen_aside():
    removed = {RoundState.deal("old_maid", 3, 0, random.Random(s)).removed for s in range(40)}
    assert all(len(r) == 1 and rank(r[0]) == "Q" for r in removed)
    assert len(removed) > 1  # any queen may go


def test_schwarzer_peter_plays_without_the_jack_of_spades():
    state = RoundState.deal("schwarzer_peter", 3, 0, random.Random(2))
    assert "JS" not in [c for h in state.dealt for c in h]
    assert state.removed == ()


def test_the_deal_is_deterministic_for_a_given_random():
    a = RoundState.deal("babanuki", 5, 3, random.Random(42))
    b = RoundState.deal("babanuki", 5, 3, random.Random(42))
    c = RoundState.deal("babanuki", 5, 3, random.Random(43))
    assert a == b
    assert a.dealt != c.dealt


def test_unknown_deal_is_refused():
    with pytest.raises(ValueError, match="fair or traditional"):
        RoundState.deal("babanuki", 4, 0, random.Random(1), deal="generous")
