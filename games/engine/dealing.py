"""Who gets the first card (RULES.md section 4: fair and traditional deals), and the
balanced deal's counts (RULES.md section 7).

Cards are dealt one at a time clockwise, starting with one seat, until none are left;
the seats dealt first get the extra cards. A deal is therefore fixed by its *start*,
given here as an offset from the dealer. The balanced deal is fixed by per-seat counts
and a start: one card at a time clockwise, skipping a seat once it has its count.
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


#: The balanced deal (RULES.md section 7) where it is offered: (variant, players) ->
#: (cards per seat counted clockwise from the dealer, dealer first; offset from the dealer
#: of the seat that receives the first card). Chosen and measured by the fairness research
#: (``python -m tools.fairness --balanced``) and copied from games/fairness_data.json's
#: ``balanced`` entries where ``games.fairness_data.balanced_deal`` offers them
#: (tests/engine/test_balanced_deal.py checks the two agree).
BALANCED_DEALS: dict[tuple[str, int], tuple[tuple[int, ...], int]] = {
    ("babanuki", 5): ((13, 10, 10, 10, 10), 1),
    ("babanuki", 7): ((9, 8, 8, 8, 8, 6, 6), 1),
    ("babanuki", 8): ((8, 9, 5, 7, 5, 7, 5, 7), 1),
    ("jijinuki", 3): ((19, 16, 16), 1),
    ("jijinuki", 6): ((10, 9, 9, 7, 9, 7), 1),
    ("jijinuki", 7): ((9, 8, 8, 8, 6, 6, 6), 1),
    ("jijinuki", 8): ((6, 9, 5, 7, 5, 7, 5, 7), 1),
    ("old_maid", 3): ((19, 18, 14), 1),
    ("old_maid", 5): ((13, 12, 10, 8, 8), 1),
    ("old_maid", 6): ((10, 9, 9, 7, 9, 7), 1),
    ("old_maid", 7): ((9, 8, 8, 6, 8, 6, 6), 1),
    ("old_maid", 8): ((8, 9, 5, 7, 5, 7, 5, 5), 1),
    ("schwarzer_peter", 2): ((17, 14), 1),
    ("schwarzer_peter", 4): ((8, 5, 10, 8), 1),
    ("schwarzer_peter", 6): ((4, 3, 8, 6, 6, 4), 1),
    ("schwarzer_peter", 7): ((4, 3, 6, 6, 4, 4, 4), 1),
    ("schwarzer_peter", 8): ((4, 3, 4, 4, 4, 4, 4, 4), 2),
}


def balanced_deal(variant: Variant, players: int, dealer: int) -> tuple[list[int], int]:
    """The balanced deal for this table, by seat number: (cards per seat, the seat that
    receives the first card). ``ValueError`` where the site offers no balanced deal."""
    try:
        by_offset, offset = BALANCED_DEALS[(variant.key, players)]
    except KeyError:
        raise ValueError(
            f"{variant.name} with {players} players has no balanced deal: "
            "its own deal is already fair there"
        ) from None
    counts = [0] * players
    for off, count in enumerate(by_offset):
        counts[(dealer + off) % players] = count
    return counts, (dealer + offset) % players


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


def check_counts(variant: Variant, players: int, counts) -> list[int]:
    """``counts`` (cards per seat) as a list, if it is a deal of this variant's deck to
    ``players`` seats: one whole number per seat, each at least 1, summing to the number
    of cards dealt. Anything else raises ``ValueError`` saying what is wrong."""
    if isinstance(counts, (str, bytes)) or not isinstance(counts, (list, tuple)):
        raise ValueError(
            f"the counts must be a list of whole numbers, one per seat, not {counts!r}"
        )
    if len(counts) != players:
        raise ValueError(f"the counts must give one number per seat ({players}), not {len(counts)}")
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
        raise ValueError(f"the counts must be whole numbers, not {list(counts)!r}")
    if min(counts) < 1:
        raise ValueError(f"every seat must be dealt at least one card, not {list(counts)!r}")
    if sum(counts) != variant.deck_size:
        raise ValueError(
            f"the counts must add up to the {variant.deck_size} cards {variant.name} deals, "
            f"not {sum(counts)} ({'+'.join(map(str, counts))})"
        )
    return list(counts)


def deal_by_counts(cards: list[str], counts: list[int], first_seat: int) -> list[list[str]]:
    """Deal ``cards`` in order, one at a time clockwise from ``first_seat``, skipping a seat
    once it holds its count (``counts[seat]``). With round-robin counts from the same
    start this is exactly ``deal_cards``."""
    players = len(counts)
    if sum(counts) != len(cards):
        raise ValueError(f"the counts add up to {sum(counts)}, but {len(cards)} cards are dealt")
    hands: list[list[str]] = [[] for _ in range(players)]
    seat = first_seat % players
    for card in cards:
        while len(hands[seat]) >= counts[seat]:
            seat = (seat + 1) % players
        hands[seat].append(card)
        seat = (seat + 1) % players
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
