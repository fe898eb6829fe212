"""Fair and traditional deals, and what each variant sets aside (RULES.md section 4)."""

import random
from collections import Counter

import pytest

from games.engine import RoundState, dealt_counts, get_variant, rank
from games.engine.dealing import check_counts, deal_by_counts


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


# The engine contract (issue 14): any valid counts, and a clear refusal of the rest.


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("babanuki", [13, 10, 10, 10, 10]),
        ("jijinuki", [9, 7, 7, 7, 7, 7, 7]),
        ("old_maid", [1, 50]),
        ("schwarzer_peter", [7, 9, 7, 8]),
    ],
)
def test_a_round_can_be_dealt_with_any_valid_counts(variant, counts):
    players = len(counts)
    for dealer in range(players):
        state = RoundState.deal(variant, players, dealer, random.Random(dealer), counts=counts)
        assert [len(h) for h in state.dealt] == counts
        # The same hands through from_hands: any split of the deck is a round.
        again = RoundState.from_hands(variant, state.dealt, dealer, removed=state.removed)
        assert again.hands == state.hands
        rng = random.Random(7)
        while not state.over:
            state.draw(rng.randrange(state.count(state.giver)))
        assert state.holder is not None


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([14, 13, 13], "one number per seat \\(4\\), not 3"),
        ([14, 13, 13, 13, 0], "one number per seat \\(4\\), not 5"),
        ([14, 13, 13, 12], "add up to the 53 cards Babanuki deals, not 52"),
        ([27, 26, 0, 0], "every seat must be dealt at least one card"),
        ([28, 26, 0, -1], "every seat must be dealt at least one card"),
        ([14, 13, 13, 13.0], "whole numbers"),
        ([14, 13, 13, True], "whole numbers"),
        ("14,13,13,13", "must be a list"),
        (None, None),
    ],
)
def test_counts_that_are_no_deal_are_refused(counts, message):
    if counts is None:
        assert check_counts(get_variant("babanuki"), 4, (14, 13, 13, 13)) == [14, 13, 13, 13]
        return
    with pytest.raises(ValueError, match=message):
        check_counts(get_variant("babanuki"), 4, counts)
    with pytest.raises(ValueError, match=message):
        RoundState.deal("babanuki", 4, 0, random.Random(1), counts=counts)


def test_deal_by_counts_goes_round_skipping_full_seats():
    cards = [f"c{i}" for i in range(9)]
    hands = deal_by_counts(cards, [1, 5, 3], 2)
    # From seat 2: 2, 0, 1, 2, 1, 2, 1, 1, 1 (seat 0 full after one, seat 2 after three).
    assert hands == [["c1"], ["c2", "c4", "c6", "c7", "c8"], ["c0", "c3", "c5"]]
    with pytest.raises(ValueError, match="add up to 8, but 9 cards"):
        deal_by_counts(cards, [1, 4, 3], 0)
