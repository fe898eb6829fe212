"""The fairness simulator: how often each seat loses, by variant, player count and deal.

Two ways to play the rounds: ``engine="full"`` plays every round through the site's own
rules engine (``RoundState``, hand shuffles included), ``engine="fast"`` uses the
vectorised path in ``fastsim`` (numpy).
Both assume every seat draws a uniformly random position, which is how computer seats
draw and what hand shuffling makes any human choice amount to.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from games.engine.computer import play_out
from games.engine.dealing import check_counts, deal_start_offset, dealt_counts
from games.engine.round import RoundState
from games.engine.variants import get_variant

ENGINES = ("fast", "full")
Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class FairnessReport:
    variant: str
    players: int
    deal: str
    #: The first seat dealt to, counted clockwise from the dealer.
    deal_offset: int
    #: Cards dealt to each seat, dealer first.
    counts: tuple[int, ...]
    rounds: int
    #: losses[i]: rounds lost by the seat i places clockwise from the dealer.
    losses: tuple[int, ...]
    total_draws: int
    engine: str

    @property
    def lose_rate(self) -> list[float]:
        return [x / self.rounds for x in self.losses]

    @property
    def lose_rate_interval(self) -> list[tuple[float, float]]:
        return [wilson_interval(x, self.rounds) for x in self.losses]

    @property
    def mean_draws(self) -> float:
        return self.total_draws / self.rounds

    @property
    def spread(self) -> float:
        """The highest seat's loss rate minus the lowest's: 0 is perfectly fair."""
        rates = self.lose_rate
        return max(rates) - min(rates)

    def as_dict(self) -> dict:
        return {
            "variant": self.variant,
            "players": self.players,
            "deal": self.deal,
            "deal_offset": self.deal_offset,
            "counts": list(self.counts),
            "engine": self.engine,
            "rounds": self.rounds,
            "lose_rate": self.lose_rate,
            "lose_rate_95": [list(i) for i in self.lose_rate_interval],
            "mean_draws": self.mean_draws,
            "spread": self.spread,
        }


def parse_deal(text: str | None) -> str | tuple[int, ...] | None:
    """A deal as named on the command line: ``fair``, ``traditional``, or per-seat counts,
    dealer first, like ``13,10,10,10,10``. Anything else raises ``ValueError``."""
    if text is None or text in ("fair", "traditional", "default", "balanced"):
        return text
    parts = text.split(",")
    if not all(p.strip().isdigit() for p in parts):
        raise ValueError(
            f"--deal must be default, balanced, fair, traditional or cards per seat, "
            f"dealer first, "
            f"like 13,10,10,10,10; not {text!r}"
        )
    return tuple(int(p) for p in parts)


def simulate(
    variant: str,
    players: int,
    rounds: int,
    *,
    deal: str | None = None,
    deal_offset: int | None = None,
    counts: list[int] | tuple[int, ...] | None = None,
    seed: int | None = None,
    engine: str = "fast",
    options: dict | None = None,
) -> FairnessReport:
    """Play ``rounds`` rounds with the dealer at seat 0 and report each seat's losses.

    The deal is ``counts`` (cards per seat, dealer first; dealt one at a time clockwise
    from ``deal_offset``, default the dealer's left, skipping full seats), else the start
    ``deal_offset``, else the named ``deal`` (default: the variant's).
    """
    v = get_variant(variant)
    v.check_players(players)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"the number of rounds must be a positive whole number, not {rounds!r}")
    if counts is not None:
        counts = tuple(check_counts(v, players, counts))
        deal = "counts"
        if deal_offset is None:
            deal_offset = 1 % players
    else:
        deal = deal or v.dealing
        if deal_offset is None:
            deal_offset = deal_start_offset(v, players, deal)
        counts = tuple(dealt_counts(v, players, 0, deal_offset=deal_offset))
    options = options or {}
    if engine == "fast":
        from tools.fairness import fastsim  # numpy is only needed here

        result = fastsim.simulate(
            v,
            players,
            rounds,
            counts=counts,
            seed=seed,
            same_colour_pairs=bool(options.get("same_colour_pairs")),
        )
        losses, total_draws = tuple(int(x) for x in result.losses), result.total_draws
    elif engine == "full":
        losses, total_draws = _simulate_full(
            v.key, players, rounds, deal_offset, counts, seed, options
        )
    else:
        raise ValueError(f"unknown engine {engine!r}; choose fast or full")
    return FairnessReport(
        variant=v.key,
        players=players,
        deal=deal,
        deal_offset=deal_offset,
        counts=counts,
        rounds=rounds,
        losses=losses,
        total_draws=total_draws,
        engine=engine,
    )


def _simulate_full(
    variant: str,
    players: int,
    rounds: int,
    deal_offset: int,
    counts: tuple[int, ...],
    seed: int | None,
    options: dict,
) -> tuple[tuple[int, ...], int]:
    rng = random.Random(seed)
    losses = [0] * players
    total_draws = 0
    for _ in range(rounds):
        state = RoundState.deal(
            variant, players, 0, rng, options, deal_offset=deal_offset, counts=counts
        )
        play_out(state, rng)
        total_draws += state.draws
        if state.holder is not None:
            losses[state.holder] += 1
    return tuple(losses), total_draws
