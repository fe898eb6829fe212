"""The vectorised simulator agrees with the full engine, statistically."""

import math
import random

import pytest

from games.engine import RoundState, play_out
from tools.fairness.fastsim import simulate_many
from tools.fairness.simulator import simulate, wilson_interval

pytestmark = pytest.mark.slow

FULL_ROUNDS = 4000
FAST_ROUNDS = 400_000
#: |z| above this flags a difference; with ~40 comparisons, chance alone gets there
#: with probability ~1e-4, and the seeds are fixed, so the test is not flaky.
Z_LIMIT = 4.5


def full_engine_rounds(variant, players, rounds, seed, deal_offset, options, counts=None):
    rng = random.Random(seed)
    losses, draws = [0] * players, []
    for _ in range(rounds):
        state = play_out(
            RoundState.deal(
                variant, players, 0, rng, options, deal_offset=deal_offset, counts=counts
            ),
            rng,
        )
        losses[state.holder] += 1
        draws.append(state.draws)
    return losses, draws


def worst_z(full_losses, full_draws, fast):
    n = len(full_draws)
    zs = []
    for seat, x in enumerate(full_losses):
        p_full, p_fast = x / n, fast.lose_rate[seat]
        pooled = (x + fast.losses[seat]) / (n + fast.rounds)
        se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / fast.rounds))
        zs.append(abs(p_full - p_fast) / se if se else 0.0)
    mean = sum(full_draws) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in full_draws) / (n - 1))
    zs.append(abs(mean - fast.mean_draws) / (sd * math.sqrt(1 / n + 1 / fast.rounds)))
    return max(zs)


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("babanuki", 4, {}),
        ("babanuki", 2, {}),
        ("jijinuki", 5, {}),
        ("old_maid", 3, {}),
        ("schwarzer_peter", 4, {}),
        ("schwarzer_peter", 6, {}),
        ("babanuki", 3, {"same_colour_pairs": True}),
    ],
)
def test_fast_path_agrees_with_the_full_engine(variant, players, options):
    fast = simulate(variant, players, FAST_ROUNDS, seed=11, options=options)
    losses, draws = full_engine_rounds(variant, players, FULL_ROUNDS, 5, fast.deal_offset, options)
    assert worst_z(losses, draws, fast) < Z_LIMIT


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("babanuki", (13, 10, 10, 10, 10)),
        ("schwarzer_peter", (7, 9, 7, 8)),
        ("jijinuki", (9, 14, 14, 14)),
    ],
)
def test_fast_path_agrees_with_the_full_engine_for_any_counts(variant, counts):
    players = len(counts)
    fast = simulate(variant, players, FAST_ROUNDS, seed=12, counts=counts)
    assert fast.counts == counts
    losses, draws = full_engine_rounds(variant, players, FULL_ROUNDS, 6, 1, {}, counts)
    assert worst_z(losses, draws, fast) < Z_LIMIT


def test_many_deals_side_by_side_agree_with_one_at_a_time():
    deals = [[13, 10, 10, 10, 10], [10, 11, 11, 11, 10], [11, 10, 10, 11, 11]]
    many = simulate_many("babanuki", 5, deals, 100_000, seed=1, chunk=70_000)
    for counts, together in zip(deals, many, strict=True):
        alone = simulate("babanuki", 5, FAST_ROUNDS, seed=2, counts=counts)
        assert together.rounds == 100_000 and sum(together.losses) == 100_000
        for seat in range(5):
            p, q = together.losses[seat] / 100_000, alone.lose_rate[seat]
            se = math.sqrt(q * (1 - q) * (1 / 100_000 + 1 / FAST_ROUNDS))
            assert abs(p - q) / se < Z_LIMIT, (counts, seat)
        mean = together.total_draws / 100_000
        assert abs(mean - alone.mean_draws) < 0.3


def test_the_comparison_notices_a_real_difference():
    # 5-player Babanuki: dealing first to the dealer's left rather than to the dealer
    # moves the seats' loss rates by several points (docs/fairness.md).
    fast = simulate("babanuki", 5, FAST_ROUNDS, seed=11, deal_offset=0)
    losses, draws = full_engine_rounds("babanuki", 5, FULL_ROUNDS, 5, 1, {})
    assert worst_z(losses, draws, fast) > Z_LIMIT


def test_fast_path_is_deterministic_for_a_seed():
    a = simulate("old_maid", 4, 20_000, seed=3)
    b = simulate("old_maid", 4, 20_000, seed=3)
    assert a == b
    assert a != simulate("old_maid", 4, 20_000, seed=4)
    assert sum(a.losses) == 20_000


def test_wilson_interval_contains_the_rate():
    low, high = wilson_interval(250, 1000)
    assert low < 0.25 < high
    assert round(high - low, 3) == 0.054
