"""Verifiable deals: the documented seed-to-deal algorithm, its commitment and checks."""

from collections import Counter

import pytest

from games.engine import RoundState
from games.engine.seeded import SEED_BYTES, SeededRandom, commitment, numbers, verify

SEED = bytes(range(32))  # the worked example in docs/fairness.md


def test_the_worked_example_in_the_docs():
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    state = RoundState.deal_from_seed("jijinuki", 3, 0, SEED)
    assert state.removed == ("9H",)
    assert [h[:5] for h in state.dealt] == [
        ["9S", "4C", "KS", "10H", "QC"],
        ["KC", "6S", "10S", "2S", "6D"],
        ["6C", "9C", "JS", "AH", "3C"],
    ]


def test_the_number_stream_is_sha256_in_counter_mode():
    import hashlib

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


def test_a_deal_verifies_and_tampering_does_not():
    seed = bytes(SEED_BYTES)
    state = RoundState.deal_from_seed("babanuki", 4, 2, seed)
    good = {
        "variant": "babanuki",
        "players": 4,
        "dealer": 2,
        "seed_hex": seed.hex(),
        "commitment_hex": commitment(seed),
        "dealt": state.dealt,
        "removed": [],
    }
    assert verify(**good)
    other = bytes([1]) + seed[1:]
    assert not verify(**{**good, "seed_hex": other.hex()})  # another seed
    assert not verify(**{**good, "seed_hex": other.hex(), "commitment_hex": commitment(other)})
    swapped = [list(h) for h in state.dealt]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]
    assert not verify(**{**good, "dealt": swapped})  # a tampered deal
    assert not verify(**{**good, "seed_hex": "zz"})


@pytest.mark.parametrize("seed", [b"short", "a" * 32, bytes(33)])
def test_seeds_are_32_bytes(seed):
    with pytest.raises(ValueError):
        SeededRandom(seed)
