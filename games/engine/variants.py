"""The four variants of RULES.md section 4, as data.

Everything that differs between variants lives here; the round and match code read it
and never test a variant's name.
"""

from dataclasses import dataclass

from .cards import JOKER, skat_deck, standard_deck

FLOW_FROM_PREVIOUS = "P"  # draw from the player before you (Japanese, Western)
FLOW_FROM_NEXT = "N"  # draw from your left neighbour (Schwarzer Peter)

FAIR_DEAL = "fair"
TRADITIONAL_DEAL = "traditional"

FULL_RANKING = "full"
LOSER_ONLY = "loser_only"

POINTS = "points"
STRIKES = "strikes"


@dataclass(frozen=True)
class Variant:
    key: str
    name: str
    #: Every card a round of this variant may contain, before any removal.
    cards: tuple[str, ...]
    min_players: int
    max_players: int
    flow: str
    dealing: str
    ranking: str
    scoring: str
    #: A card that never pairs with anything (the joker, the Black Peter), if any.
    never_pairs: str | None = None
    #: Cards removed from the deck before every deal, known to all.
    removed_openly: tuple[str, ...] = ()
    #: How many cards are set aside unseen before the deal, chosen at random ...
    removed_unseen: int = 0
    #: ... from these ranks (empty: from any card).
    removed_unseen_ranks: tuple[str, ...] = ()
    #: True when nobody can know which card is the odd card during play (Jiji-nuki).
    odd_card_hidden: bool = False

    @property
    def deck(self) -> tuple[str, ...]:
        """The cards available before the unseen removal."""
        return tuple(c for c in self.cards if c not in self.removed_openly)

    @property
    def deck_size(self) -> int:
        """How many cards are dealt."""
        return len(self.deck) - self.removed_unseen

    def check_players(self, players: object) -> None:
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )


BABANUKI = Variant(
    key="babanuki",
    name="Babanuki",
    cards=(*standard_deck(), JOKER),
    min_players=2,
    max_players=8,
    flow=FLOW_FROM_PREVIOUS,
    dealing=FAIR_DEAL,
    ranking=FULL_RANKING,
    scoring=POINTS,
    never_pairs=JOKER,
)

JIJINUKI = Variant(
    key="jijinuki",
    name="Jiji-nuki",
    cards=tuple(standard_deck()),
    # Never 2 players: a drawn card that pairs with nothing would betray the jiji.
    min_players=3,
    max_players=8,
    flow=FLOW_FROM_PREVIOUS,
    dealing=FAIR_DEAL,
    ranking=FULL_RANKING,
    scoring=POINTS,
    removed_unseen=1,
    odd_card_hidden=True,
)

OLD_MAID = Variant(
    key="old_maid",
    name="Old Maid",
    cards=tuple(standard_deck()),
    min_players=2,
    max_players=8,
    flow=FLOW_FROM_PREVIOUS,
    dealing=TRADITIONAL_DEAL,
    ranking=LOSER_ONLY,
    scoring=STRIKES,
    # Which queen goes does not matter to play; it is set aside face down.
    removed_unseen=1,
    removed_unseen_ranks=("Q",),
)

SCHWARZER_PETER = Variant(
    key="schwarzer_peter",
    name="Schwarzer Peter",
    cards=tuple(skat_deck()),
    min_players=2,
    max_players=8,
    flow=FLOW_FROM_NEXT,
    dealing=TRADITIONAL_DEAL,
    ranking=LOSER_ONLY,
    scoring=STRIKES,
    never_pairs="JC",
    removed_openly=("JS",),
)

VARIANTS: dict[str, Variant] = {v.key: v for v in (BABANUKI, JIJINUKI, OLD_MAID, SCHWARZER_PETER)}


def get_variant(key: object) -> Variant:
    """The variant called ``key``; ValueError naming the known ones otherwise."""
    if isinstance(key, Variant):
        return key
    try:
        return VARIANTS[key]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(VARIANTS)
        raise ValueError(f"unknown variant {key!r}; choose one of {known}") from None
