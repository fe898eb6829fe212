"""Verifiable deals: the documented seed-to-deal algorithm, its versioned deal record,
its commitment and checks."""

import ast
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from games.engine import RoundState, deal_start_offset, dealt_counts, get_variant
from games.engine.dealing import shuffled_deck
from games.engine.seeded import (
    DEAL_VERSION,
    SEED_BYTES,
    DealRecord,
    SeededRandom,
    UnknownDealVersion,
    commitment,
    deal_from_seed,
    new_deal,
    numbers,
    verify,
)

SEED = bytes(range(32))  # the worked example in docs/fairness.md


def test_the_worked_example_in_the_docs():
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    state = deal_from_seed("jijinuki", 3, 0, SEED, version=1, start=1)
    assert state.removed == ("9H",)
    assert [h[:5] for h in state.dealt] == [
        ["9S", "4C", "KS", "10H", "QC"],
        ["KC", "6S", "10S", "2S", "6D"],
        ["6C", "9C", "JS", "AH", "3C"],
    ]


def test_the_version_2_worked_example_in_the_docs():
    counts = (13, 10, 10, 10, 10)
    state = deal_from_seed("babanuki", 5, 0, SEED, version=2, start=1, counts=counts)
    assert [h[:5] for h in state.dealt] == [
        ["9H", "6S", "6H", "AS", "7H"],
        ["AH", "9S", "QS", "KH", "2S"],
        ["5C", "9C", "JS", "5D", "JD"],
        ["JH", "JC", "6D", "KC", "3S"],
        ["AC", "QH", "7S", "7C", "8H"],
    ]
    assert state.dealt[0][-3:] == ["9D", "4S", "3D"]  # the dealer's last three, in a row


# Version 1, once released, never changes: old rounds are verified with it forever. If one
# of these fails, the change belongs in a new version (seeded.DEALS), not in version 1.
@pytest.mark.parametrize(
    ("variant", "players", "start", "digest"),
    [
        ("babanuki", 4, 1, "e0c00d534e275abf514c7bdcfe3435f478ed3a45773bb6394da1cfec867ff2b4"),
        ("jijinuki", 5, 3, "11172498c30f4347ef096da07bb997d4377510f592c26b1f83fc3067d1aa92d2"),
        ("old_maid", 3, 2, "467fec593cd0a65e7e34c4baff37cb591c28f15a19121212a45a55b14f68ce1e"),
        (
            "schwarzer_peter",
            6,
            5,
            "b1498f5d06eb478b950d1415adbff8f23d1b3f0072c8b47f0911801fb54ec8a5",
        ),
    ],
)
def test_version_1_deals_are_pinned(variant, players, start, digest):
    state = deal_from_seed(variant, players, 0, SEED, version=1, start=start)
    dealt = json.dumps([state.dealt, list(state.removed)]).encode()
    assert hashlib.sha256(dealt).hexdigest() == digest


# Version 2 is pinned the same way, with counts no round-robin deal gives.
@pytest.mark.parametrize(
    ("variant", "start", "counts", "digest"),
    [
        (
            "babanuki",
            1,
            (13, 10, 10, 10, 10),
            "3a8955368c26b35f9db5418be4676a870332dd4cb689e7b206728e3526b2ca7d",
        ),
        (
            "jijinuki",
            2,
            (7, 9, 9, 9, 9, 8),
            "af2d5a36300041eb5bfb750b2507c4c9889e32fef6472848ceff415abfcb762f",
        ),
        (
            "old_maid",
            0,
            (9, 7, 7, 7, 7, 7, 7),
            "93c68d7850c5b79a00afcd6fc8cf1538a7d5d918d7844c5c5e070ab7ce840a76",
        ),
        (
            "schwarzer_peter",
            2,
            (7, 9, 7, 8),
            "abcc4b2e8e687d35907f94e52097aa4f431de3600a48a382a8a2894add2b8bc9",
        ),
    ],
)
def test_version_2_deals_are_pinned(variant, start, counts, digest):
    state = deal_from_seed(variant, len(counts), 0, SEED, version=2, start=start, counts=counts)
    assert [len(h) for h in state.dealt] == list(counts)
    dealt = json.dumps([state.dealt, list(state.removed)]).encode()
    assert hashlib.sha256(dealt).hexdigest() == digest


def test_version_2_skips_a_seat_once_it_has_its_count():
    """Version 2 deals the same shuffled cards as version 1, one at a time clockwise from
    the start, passing over full seats: checked card by card against the shuffle."""
    counts = (13, 10, 10, 10, 10)
    state = deal_from_seed("babanuki", 5, 0, SEED, version=2, start=1, counts=counts)
    cards, _removed = shuffled_deck(get_variant("babanuki"), SeededRandom(SEED))
    # Ten full rounds from seat 1 (seats 1, 2, 3, 4, 0), then seat 0 alone takes three.
    expected = [[] for _ in range(5)]
    for i, card in enumerate(cards[:50]):
        expected[(1 + i) % 5].append(card)
    expected[0] += cards[50:]
    assert state.dealt == expected


@pytest.mark.parametrize("variant", ["babanuki", "jijinuki", "old_maid", "schwarzer_peter"])
@pytest.mark.parametrize("players", [3, 4, 7])
def test_version_2_with_round_robin_counts_is_version_1(variant, players):
    for start in range(players):
        counts = dealt_counts(get_variant(variant), players, 0, deal_offset=start)
        one = deal_from_seed(variant, players, 0, SEED, version=1, start=start)
        two = deal_from_seed(variant, players, 0, SEED, version=2, start=start, counts=counts)
        assert one.dealt == two.dealt and one.removed == two.removed


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        (None, "needs the per-seat counts"),
        ((13, 10, 10, 10), "one number per seat"),
        ((13, 10, 10, 10, 9), "add up to the 53 cards"),
        ((43, 10, 0, 0, 0), "at least one card"),
        ((13, 10, 10, 10, 10.0), "whole numbers"),
        ("13,10,10,10,10", "must be a list"),
    ],
)
def test_version_2_counts_that_are_no_deal_are_refused(counts, message):
    with pytest.raises(ValueError, match=message):
        deal_from_seed("babanuki", 5, 0, SEED, version=2, start=1, counts=counts)


def test_version_1_takes_no_counts():
    with pytest.raises(ValueError, match="version 1 deal record has no counts"):
        deal_from_seed("babanuki", 4, 0, SEED, version=1, start=1, counts=(14, 13, 13, 13))


def test_a_version_2_deal_verifies_and_other_counts_do_not():
    counts = [10, 13, 10, 10, 10]  # seat 1 is the dealer
    state = deal_from_seed("babanuki", 5, 1, SEED, version=2, start=2, counts=counts)
    record = {
        "variant": "babanuki",
        "players": 5,
        "dealer": 1,
        "seed_hex": SEED.hex(),
        "commitment_hex": commitment(SEED),
        "dealt": state.dealt,
        "removed": list(state.removed),
        "deal_version": 2,
        "deal_start": 2,
        "deal_counts": counts,
    }
    assert verify(**record)
    assert not verify(**{**record, "deal_counts": [10, 10, 13, 10, 10]})
    assert not verify(**{**record, "deal_counts": None})
    assert not verify(**{**record, "deal_counts": "10,13,10,10,10"})
    assert not verify(**{**record, "deal_version": 1})


@pytest.mark.parametrize("variant", ["babanuki", "jijinuki", "old_maid", "schwarzer_peter"])
@pytest.mark.parametrize("players", [3, 5, 8])
def test_version_1_is_the_deal_the_fairness_simulator_measures(variant, players):
    dealer = players - 1
    for start in range(players):
        offset = (start - dealer) % players
        rng = SeededRandom(SEED)
        simulated = RoundState.deal(variant, players, dealer, rng, deal_offset=offset)
        site = deal_from_seed(variant, players, dealer, SEED, version=1, start=start)
        assert site.dealt == simulated.dealt and site.removed == simulated.removed


@pytest.mark.parametrize(
    ("variant", "players"), [("babanuki", 2), ("jijinuki", 7), ("old_maid", 6)]
)
def test_a_new_deal_records_todays_version_and_start(variant, players):
    dealer = 1
    state, record = new_deal(variant, players, dealer, SEED, {"same_colour_pairs": True})
    offset = deal_start_offset(get_variant(variant), players)
    counts = tuple(dealt_counts(get_variant(variant), players, dealer))
    assert DEAL_VERSION == 2
    assert record == DealRecord(
        version=DEAL_VERSION, start=(dealer + offset) % players, counts=counts
    )
    # Today's deal is a round-robin one (RULES.md 2.1): counts differ by at most one.
    assert max(counts) - min(counts) <= 1
    assert [len(h) for h in state.dealt] == list(counts)
    again = deal_from_seed(variant, players, dealer, SEED, version=1, start=record.start)
    assert state.dealt == again.dealt and state.removed == again.removed
    assert state.options.same_colour_pairs and state.dealer == dealer
    assert sum(map(len, state.dealt)) == get_variant(variant).deck_size


def test_the_number_stream_is_sha256_in_counter_mode():
    first_block = hashlib.sha256(SEED + (0).to_bytes(4, "big")).digest()
    stream = numbers(SEED)
    assert [next(stream) for _ in range(8)] == [
        int.from_bytes(first_block[i : i + 4], "big") for i in range(0, 32, 4)
    ]


def test_draws_below_n_are_uniform():
    rng = SeededRandom(SEED)
    counts = Counter(rng.below(3) for _ in range(30_000))
    assert set(counts) == {0, 1, 2}
    assert all(9_400 < c < 10_600 for c in counts.values())


def good_record(variant="babanuki", players=4, dealer=2, start=3):
    seed = bytes(SEED_BYTES)
    state = deal_from_seed(variant, players, dealer, seed, version=1, start=start)
    return state, {
        "variant": variant,
        "players": players,
        "dealer": dealer,
        "seed_hex": seed.hex(),
        "commitment_hex": commitment(seed),
        "dealt": state.dealt,
        "removed": list(state.removed),
        "deal_version": 1,
        "deal_start": start,
    }


def test_a_deal_verifies_and_tampering_does_not():
    state, good = good_record()
    assert verify(**good)
    seed = bytes.fromhex(good["seed_hex"])
    other = bytes([1]) + seed[1:]
    assert not verify(**{**good, "seed_hex": other.hex()})  # another seed
    assert not verify(**{**good, "seed_hex": other.hex(), "commitment_hex": commitment(other)})
    swapped = [list(h) for h in state.dealt]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]
    assert not verify(**{**good, "dealt": swapped})  # a tampered deal
    assert not verify(**{**good, "seed_hex": "zz"})


def test_verification_uses_the_stored_start_not_todays_table():
    """An old round dealt from another start than today's table gives still verifies with
    its own record, and would not with today's start."""
    dealer, players = 0, 2
    today = (dealer + deal_start_offset(get_variant("babanuki"), players)) % players
    old_start = (today + 1) % players
    _state, old = good_record("babanuki", players, dealer, old_start)
    assert verify(**old)
    assert not verify(**{**old, "deal_start": today})


@pytest.mark.parametrize(
    "change",
    [
        {"deal_version": 2},
        {"deal_version": 3},
        {"deal_version": 0},
        {"deal_version": "1"},
        {"deal_version": None},
        {"deal_version": True},
        {"deal_start": 4},
        {"deal_start": -1},
        {"deal_start": None},
        {"deal_start": "3"},
        {"deal_counts": [14, 13, 13, 13]},
        {"variant": "snap"},
        {"players": 99},
        {"dealer": 9},
        {"seed_hex": None},
        {"commitment_hex": None},
    ],
)
def test_a_record_that_does_not_check_out_is_not_verified_and_never_raises(change):
    _state, good = good_record()
    assert not verify(**{**good, **change})


def test_an_unknown_version_is_a_clear_error_when_dealing():
    with pytest.raises(UnknownDealVersion, match="unknown deal version 7; known: 1, 2"):
        deal_from_seed("babanuki", 4, 0, SEED, version=7, start=0)
    with pytest.raises(ValueError, match="start must be a seat from 0 to 3"):
        deal_from_seed("babanuki", 4, 0, SEED, version=1, start=4)


@pytest.mark.parametrize("seed", [b"short", "a" * 32, bytes(33)])
def test_seeds_are_32_bytes(seed):
    with pytest.raises(ValueError):
        SeededRandom(seed)


def test_the_round_does_not_import_the_seeded_deal():
    """seeded depends on round, never the other way round (no import circle)."""
    source = Path(__file__).resolve().parents[2] / "games" / "engine" / "round.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not {m for m in imported if m and "seeded" in m}
