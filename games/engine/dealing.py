"""Who gets the first card (RULES.md section 4: fair and traditional deals).

Cards are dealt one at a time clockwise, starting with one seat, until none are left;
the seats dealt first get the extra cards. A deal is therefore fixed by its *start*,
given here as an offset from the dealer.
"""

from .cards import rank
from .variants import FAIR_DEAL, TRADITIONAL_DEAL, Variant

#: Fair-deal starts that the remainder rule leaves open, measured by the fairness
#: simulator (docs/fairness.md): (variant, players) -> offset of the first seat dealt to,
#: counted clockwise from the dealer.
MEASURED_FAIR_STARTS: dict[tuple[str, int], int] = {
    ("babanuki", 5): 1,
    ("babanuki", 7): 4,
    ("babanuki", 8): 2,
    ("jijinuki", 6): 2,
    ("jijinuki", 7): 6,
    ("jijinuki", 8): 1,
    ("old_maid", 6): 2,
    ("old_maid", 7): 6,
    ("old_maid", 8): 1,
    ("schwarzer_peter", 7): 4,
}


def deal_start_offset(variant: Variant, players: int, deal: str | None = None) -> int:
    """Offset from the dealer of the seat that receives the first card.

    Traditional: the seat on the dealer's left. Fair: arranged so that, where exactly
    one seat's count differs from the others, that seat is the dealer; otherwise the
    start measured fairest.
    """
    deal = deal or variant.dealing
    if deal == TRADITIONAL_DEAL:
        return 1 % players
    if deal != FAIR_DEAL:
        raise ValueError(f"unknown deal {deal!r}; choose fair or traditional")
    remainder = variant.deck_size % players
    if remainder == 1:
        return 0  # the dealer gets the one extra card
    if remainder == players - 1:
        return 1 % players  # every seat but the dealer gets an extra card
    if remainder == 0:
        return 1 % players  # everyone gets the same: the start changes nothing
    return MEASURED_FAIR_STARTS.get((variant.key, players), 1 % players)


def shuffled_deck(variant: Variant, rng) -> tuple[list[str], list[str]]:
    """The variant's deck shuffled by ``rng`` (anything with ``shuffle``), with its unseen
    card(s) set aside: (the cards to deal, the cards set aside). The card set aside is the
    last one of the shuffled deck that may be removed (for Old Maid: the last queen), so
    it needs no randomness beyond the shuffle."""
    cards = list(variant.deck)
    rng.shuffle(cards)
    removed: list[str] = []
    for _ in range(variant.removed_unseen):
        pool = [
            i
            for i, c in enumerate(cards)
            if not variant.removed_unseen_ranks or rank(c) in variant.removed_unseen_ranks
        ]
        removed.append(cards.pop(pool[-1]))
    return cards, removed


def deal_cards(cards: list[str], players: int, first_seat: int) -> list[list[str]]:
    """Deal ``cards`` in order, one at a time clockwise, starting at ``first_seat``."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        hands[(first_seat + i) % players].append(card)
    return hands


def dealt_counts(
    variant: Variant,
    players: int,
    dealer: int,
    deal: str | None = None,
    *,
    deal_offset: int | None = None,
) -> list[int]:
    """How many cards each seat is dealt (by deal name, or by an explicit start)."""
    if deal_offset is None:
        deal_offset = deal_start_offset(variant, players, deal)
    first = (dealer + deal_offset) % players
    counts = [0] * players
    for i in range(variant.deck_size):
        counts[(first + i) % players] += 1
    return counts
