"""The balanced deal (RULES.md section 7): dealt by the per-seat counts the fairness
measurements chose, one card at a time clockwise, skipping a seat once it has its count;
its special seat holds the other parity from every other seat; the same seed always
deals the same hands, and the deal verifies from its stored record like any other."""

import random

import pytest

from games import fairness_data
from games.engine import BALANCED_DEALS, Options, get_variant
from games.engine.dealing import balanced_deal, deal_by_counts, shuffled_deck
from games.engine.seeded import DEAL_VERSION, commitment, new_deal, verify
from games.engine.variants import FLOW_FROM_PREVIOUS

SEED = bytes(range(32))
TABLES = sorted(BALANCED_DEALS)


def test_the_engine_deals_exactly_the_balanced_deals_the_fairness_data_offers():
    offered = fairness_data.balanced_tables()
    assert set(BALANCED_DEALS) == set(offered)
    for key, (counts, offset) in BALANCED_DEALS.items():
        assert list(counts) == offered[key]["counts"], key
        assert offset == offered[key]["offset"], key


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_special_seat_holds_the_other_parity_from_every_other_seat(variant, players):
    """RULES.md section 7's parity property: the dealer (flow P) or the first drawer, the
    seat on the dealer's left (flow N), is odd where every other seat is even, or the
    other way round; and the counts deal the whole deck, at least one card each."""
    v = get_variant(variant)
    counts, _ = BALANCED_DEALS[(variant, players)]
    special = 0 if v.flow == FLOW_FROM_PREVIOUS else 1 % players
    assert sum(counts) == v.deck_size and min(counts) >= 1
    for seat, count in enumerate(counts):
        if seat != special:
            assert count % 2 != counts[special] % 2, (counts, seat)


@pytest.mark.parametrize("dealer", range(5))
def test_five_player_babanuki_deals_13_to_the_dealer_and_10_to_every_other_seat(dealer):
    state, record = new_deal("babanuki", 5, dealer, SEED, {"balanced_deal": True})
    assert record.version == DEAL_VERSION == 2
    assert record.start == (dealer + 1) % 5  # the seat on the dealer's left
    expected = [10] * 5
    expected[dealer] = 13
    assert list(record.counts) == expected
    assert [len(h) for h in state.dealt] == expected


def test_the_cards_go_round_clockwise_skipping_a_seat_once_it_has_its_count():
    """Five-player Babanuki from the dealer's left: ten times round seats 1, 2, 3, 4, 0;
    then seats 1 to 4 are full and the dealer (seat 0) takes the last three in a row."""
    v = get_variant("babanuki")
    counts, start = balanced_deal(v, 5, 0)
    assert (counts, start) == ([13, 10, 10, 10, 10], 1)
    cards = [f"c{i}" for i in range(53)]
    hands = deal_by_counts(cards, counts, start)
    order = [1, 2, 3, 4, 0] * 10 + [0, 0, 0]
    for i, seat in enumerate(order):
        assert cards[i] in hands[seat]
    # Within a hand, cards keep the order they were dealt in.
    assert hands[0] == [f"c{i}" for i in range(4, 50, 5)] + ["c50", "c51", "c52"]


def test_a_flow_n_balanced_deal_starts_with_its_first_recipient():
    """Eight-player Schwarzer Peter: 4-3-4-4-4-4-4-4 from dealer+2, a plain round-robin
    deal that leaves the first drawer (dealer+1) the one seat short, without skipping."""
    v = get_variant("schwarzer_peter")
    counts, start = balanced_deal(v, 8, 3)
    assert start == 5
    assert counts == [4, 4, 4, 4, 3, 4, 4, 4]
    cards = [f"c{i}" for i in range(31)]
    hands = deal_by_counts(cards, counts, start)
    assert hands[5][:2] == ["c0", "c8"] and hands[4] == ["c7", "c15", "c23"]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_a_balanced_deal_is_deterministic_and_verifies_from_its_record(variant, players):
    dealer = players - 1
    options = {"balanced_deal": True}
    state, record = new_deal(variant, players, dealer, SEED, options)
    again, record_again = new_deal(variant, players, dealer, SEED, options)
    assert state.dealt == again.dealt and record == record_again
    counts, start = balanced_deal(get_variant(variant), players, dealer)
    assert (list(record.counts), record.start) == (counts, start)
    assert [len(h) for h in state.dealt] == counts
    check = dict(
        variant=variant,
        players=players,
        dealer=dealer,
        seed_hex=SEED.hex(),
        commitment_hex=commitment(SEED),
        dealt=state.dealt,
        removed=list(state.removed),
        deal_version=record.version,
        deal_start=record.start,
        deal_counts=list(record.counts),
    )
    assert verify(**check)
    assert not verify(**{**check, "deal_counts": list(dealt_counts_round_robin(variant, players))})


def dealt_counts_round_robin(variant, players):
    from games.engine import dealt_counts

    return dealt_counts(get_variant(variant), players, players - 1)


def test_the_same_shuffle_then_the_balanced_counts():
    """A balanced deal is version 2 with other counts: the shuffle is version 1's."""
    v = get_variant("jijinuki")
    state, record = new_deal(v, 3, 0, SEED, {"balanced_deal": True})
    from games.engine.seeded import SeededRandom

    cards, removed = shuffled_deck(v, SeededRandom(SEED))
    assert state.dealt == deal_by_counts(cards, list(record.counts), record.start)
    assert list(state.removed) == removed


def test_without_the_option_the_deal_is_the_games_own():
    state, record = new_deal("babanuki", 5, 0, SEED, {})
    assert sorted(len(h) for h in state.dealt) == [10, 10, 11, 11, 11]
    old_room = {"same_colour_pairs": False, "reverse": False}  # stored before the option
    assert new_deal("babanuki", 5, 0, SEED, old_room)[1] == record
    assert Options.parse(old_room, get_variant("babanuki")).balanced_deal is False


@pytest.mark.parametrize(("variant", "players"), [("babanuki", 4), ("schwarzer_peter", 3)])
def test_a_balanced_deal_where_none_is_offered_is_refused(variant, players):
    with pytest.raises(ValueError, match="has no balanced deal"):
        new_deal(variant, players, 0, SEED, {"balanced_deal": True})


def test_the_balanced_option_is_a_boolean_like_the_other_house_rules():
    with pytest.raises(ValueError, match="must be true or false"):
        Options.parse({"balanced_deal": "yes"}, get_variant("babanuki"))


def test_a_random_balanced_round_plays_to_an_end():
    from games.engine import RoundState, play_out

    rng = random.Random(5)
    counts, start = balanced_deal(get_variant("old_maid"), 3, 0)
    state = RoundState.deal("old_maid", 3, 0, rng, deal_offset=1, counts=counts)
    play_out(state, rng)
    assert state.holder is not None
