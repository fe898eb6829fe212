"""Scoring a match over several rounds (RULES.md section 5) and dealer rotation.

Points (Japanese variants): each round's place earns n-1, n-2, ..., 0; the highest total
wins, ties broken by the better place in the final round. Strikes (Western, German):
each round's loser gets a strike; the first seat to the limit loses the match (under the
reverse rule the holder's strikes count wins, and the first to the limit wins).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .round import RoundState
from .variants import POINTS, STRIKES, Variant, get_variant

ROUND_CHOICES = (1, 3, 5)
DEFAULT_STRIKE_LIMIT = 3
MAX_STRIKE_LIMIT = 10


@dataclass(frozen=True)
class MatchRules:
    """How long a match lasts and how it is scored."""

    scoring: str
    #: Points: how many rounds (1, 3 or 5).
    rounds: int = 1
    #: Strikes: the limit that ends the match.
    strike_limit: int = DEFAULT_STRIKE_LIMIT
    #: One round, no match scoring beyond it.
    single_round: bool = False
    reverse: bool = False

    @classmethod
    def for_variant(
        cls,
        variant: str | Variant,
        *,
        rounds: int | None = None,
        strike_limit: int | None = None,
        single_round: bool = False,
        reverse: bool = False,
    ) -> MatchRules:
        """The rules for a variant, checking every choice; ValueError says what is wrong."""
        variant = get_variant(variant)
        if variant.scoring == POINTS:
            if reverse:
                raise ValueError(
                    f"the reverse rule needs strikes scoring; {variant.name} scores points"
                )
            if single_round:
                rounds = 1
            rounds = 3 if rounds is None else rounds
            if rounds not in ROUND_CHOICES:
                raise ValueError(f"a {variant.name} match is 1, 3 or 5 rounds, not {rounds!r}")
            if strike_limit is not None:
                raise ValueError(f"{variant.name} scores points, not strikes")
            return cls(scoring=POINTS, rounds=rounds, single_round=rounds == 1)
        if rounds is not None:
            raise ValueError(f"{variant.name} is played to a strike limit, not a number of rounds")
        limit = DEFAULT_STRIKE_LIMIT if strike_limit is None else strike_limit
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise ValueError(f"the strike limit must be a whole number, not {limit!r}")
        if not 1 <= limit <= MAX_STRIKE_LIMIT:
            raise ValueError(f"the strike limit must be from 1 to {MAX_STRIKE_LIMIT}, not {limit}")
        return cls(scoring=STRIKES, strike_limit=limit, single_round=single_round, reverse=reverse)

    def as_dict(self) -> dict:
        return {
            "scoring": self.scoring,
            "rounds": self.rounds,
            "strike_limit": self.strike_limit,
            "single_round": self.single_round,
            "reverse": self.reverse,
        }


@dataclass(frozen=True)
class RoundResult:
    """What a finished round counts for in the match."""

    #: Best first; the holder of the odd card last.
    ranking: tuple[int, ...]
    holder: int | None

    @classmethod
    def of(cls, state: RoundState) -> RoundResult:
        if not state.over:
            raise ValueError("the round is still being played")
        return cls(ranking=tuple(state.ranking), holder=state.holder)


@dataclass
class MatchScore:
    """The running score of a match; feed it each finished round with ``record``."""

    variant: Variant
    players: int
    rules: MatchRules
    first_dealer: int
    results: list[RoundResult] = field(default_factory=list)

    @classmethod
    def start(
        cls, variant: str | Variant, players: int, rules: MatchRules, first_dealer: int
    ) -> MatchScore:
        variant = get_variant(variant)
        variant.check_players(players)
        if not 0 <= first_dealer < players:
            raise ValueError(f"the first dealer must be a seat from 0 to {players - 1}")
        return cls(variant=variant, players=players, rules=rules, first_dealer=first_dealer)

    def dealer_for_round(self, number: int) -> int:
        """The dealer of round ``number`` (1-based): one seat clockwise each round."""
        return (self.first_dealer + number - 1) % self.players

    @property
    def next_dealer(self) -> int:
        return self.dealer_for_round(len(self.results) + 1)

    def record(self, result: RoundResult) -> None:
        if self.over:
            raise ValueError("the match is over")
        self.results.append(result)

    # -- standings ----------------------------------------------------------------------

    def points(self) -> list[int]:
        """Each seat's points total (points scoring)."""
        totals = [0] * self.players
        for result in self.results:
            for place, seat in enumerate(result.ranking):
                totals[seat] += self.players - 1 - place
        return totals

    def strikes(self) -> list[int]:
        """Each seat's strikes (under the reverse rule: its wins)."""
        marks = [0] * self.players
        for result in self.results:
            if result.holder is not None:
                marks[result.holder] += 1
        return marks

    def scores(self) -> list[int]:
        return self.points() if self.rules.scoring == POINTS else self.strikes()

    @property
    def over(self) -> bool:
        played = len(self.results)
        if played == 0:
            return False
        if self.rules.single_round:
            return True
        if self.rules.scoring == POINTS:
            return played >= self.rules.rounds
        return max(self.strikes()) >= self.rules.strike_limit

    def standings(self) -> list[int]:
        """Seats best first.

        Points: total, then the better place in the final round. Strikes: fewest strikes
        first (most first under the reverse rule), then seat order.
        """
        last = self.results[-1].ranking if self.results else ()

        def final_place(seat: int) -> int:
            return last.index(seat) if seat in last else self.players

        if self.rules.scoring == POINTS:
            totals = self.points()
            return sorted(range(self.players), key=lambda s: (-totals[s], final_place(s)))
        marks = self.strikes()
        sign = -1 if self.rules.reverse else 1
        return sorted(range(self.players), key=lambda s: (sign * marks[s], s))

    def winners(self) -> list[int]:
        """The seats that won the match (empty until it is over)."""
        if not self.over:
            return []
        if self.rules.scoring == POINTS:
            return [self.standings()[0]]
        decider = self.match_decider()
        if self.rules.reverse:
            return [decider]
        return [s for s in range(self.players) if s != decider]

    def losers(self) -> list[int]:
        if not self.over:
            return []
        winners = set(self.winners())
        return [s for s in range(self.players) if s not in winners]

    def match_decider(self) -> int:
        """Strikes: the seat whose strike ended the match (the last round's holder)."""
        return self.results[-1].holder  # type: ignore[return-value]
