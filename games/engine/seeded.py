"""Deals anyone can recompute from a seed (documented in docs/fairness.md).

A deal's randomness is a stream of 32-bit numbers: block ``i`` (counting from 0) is
SHA-256(seed || i as 4 bytes big-endian), read as eight big-endian 32-bit numbers. A
number below ``n`` is drawn by rejection: take the next number ``x`` until
``x < 2**32 - 2**32 % n``, then use ``x % n``. Nothing else is random, so the same seed
always gives the same deal, in Python here and in the browser with Web Crypto
(``static/js/verify.js``).

How a seed becomes hands is versioned. Every round stores its **deal record**: the
algorithm's version and the seat that received the first card. A deal is recomputed
from that record, never from today's dealing tables (``dealing.MEASURED_FAIR_STARTS``),
so changing those tables, or adding a new version, never turns an old round into "not
verified". A version, once released, never changes: ``tests/engine/test_seeded.py`` pins
each variant's version-1 deal of one seed.

Version 1: shuffle the variant's deck in its canonical order by Fisher-Yates from the
last position down (for ``i`` from ``len - 1`` to 1, swap positions ``i`` and
``below(i + 1)``); set aside the unseen card (Jiji-nuki: the last card; Old Maid: the
last queen); deal the rest one card at a time clockwise from the record's start seat.

Version 2: the same shuffle and set-aside as version 1; then deal one card at a time
clockwise from the record's start seat, skipping a seat once it holds its count from the
record's ``counts`` (cards per seat, by seat number). With the counts of a round-robin
deal from the same start it gives exactly version 1's hands.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .dealing import (
    balanced_deal,
    check_counts,
    deal_by_counts,
    deal_cards,
    deal_start_offset,
    dealt_counts,
    shuffled_deck,
)
from .options import Options
from .round import RoundState
from .variants import Variant, get_variant

SEED_BYTES = 32

#: The version new rounds are dealt with (stored on each round as ``deal_version``).
DEAL_VERSION = 2


def commitment(seed: bytes) -> str:
    """What players are shown before the first draw: the SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def numbers(seed: bytes) -> Iterator[int]:
    """The seed's stream of 32-bit numbers."""
    block = 0
    while True:
        digest = hashlib.sha256(seed + block.to_bytes(4, "big")).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(digest[offset : offset + 4], "big")
        block += 1


class SeededRandom:
    """Just what a deal needs from randomness, drawn from the seed's stream."""

    def __init__(self, seed: bytes):
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise ValueError(f"a deal seed is {SEED_BYTES} bytes")
        self._numbers = numbers(seed)

    def below(self, n: int) -> int:
        """A uniform whole number from 0 to n - 1."""
        limit = 2**32 - 2**32 % n
        while True:
            x = next(self._numbers)
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass(frozen=True)
class DealRecord:
    """What a round stores so that its deal can be recomputed forever.

    ``version``: the seed-to-deal algorithm (``DEAL_VERSION`` when dealt). ``start``: the
    seat that received the first card (a seat number, not an offset from the dealer).
    ``counts``: how many cards each seat was dealt, by seat number (version 2; ``None``
    for version 1, whose counts follow from the start).
    """

    version: int
    start: int
    counts: tuple[int, ...] | None = None


class UnknownDealVersion(ValueError):
    """A deal record names a version this code does not know."""


def _deal_v1(variant: Variant, players: int, seed: bytes, record: DealRecord):
    """Version 1 (module docstring): returns the dealt hands and the cards set aside."""
    cards, removed = shuffled_deck(variant, SeededRandom(seed))
    return deal_cards(cards, players, record.start), removed


def _deal_v2(variant: Variant, players: int, seed: bytes, record: DealRecord):
    """Version 2 (module docstring): version 1's shuffle, dealt by the record's counts."""
    cards, removed = shuffled_deck(variant, SeededRandom(seed))
    assert record.counts is not None  # a version 2 record has its counts
    return deal_by_counts(cards, list(record.counts), record.start), removed


#: Every version this code can recompute: version -> (variant, players, seed, record) ->
#: (dealt hands, cards set aside). Never change an entry; add a new version instead.
DEALS: dict[int, Callable[[Variant, int, bytes, DealRecord], tuple[list, list]]] = {
    1: _deal_v1,
    2: _deal_v2,
}

#: The versions whose record carries per-seat counts.
VERSIONS_WITH_COUNTS = frozenset({2})


def _check_record(record: DealRecord, variant: Variant, players: int) -> None:
    version, start = record.version, record.start
    if not isinstance(version, int) or isinstance(version, bool) or version not in DEALS:
        known = ", ".join(map(str, DEALS))
        raise UnknownDealVersion(f"unknown deal version {version!r}; known: {known}")
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < players:
        raise ValueError(f"the deal's start must be a seat from 0 to {players - 1}, not {start!r}")
    if version in VERSIONS_WITH_COUNTS:
        if record.counts is None:
            raise ValueError(f"a version {version} deal record needs the per-seat counts")
        check_counts(variant, players, record.counts)
    elif record.counts is not None:
        raise ValueError(f"a version {version} deal record has no counts")


def deal_from_seed(
    variant: str | Variant,
    players: int,
    dealer: int,
    seed: bytes,
    options: dict | Options | None = None,
    *,
    version: int,
    start: int,
    counts: list[int] | tuple[int, ...] | None = None,
) -> RoundState:
    """The round dealt from ``seed`` by the deal record (``version``, ``start``, and for
    version 2 ``counts``, by seat number).

    An unknown version raises ``UnknownDealVersion``; a bad seed, start, counts, variant,
    player count or dealer raises ``ValueError``.
    """
    variant = get_variant(variant)
    variant.check_players(players)
    if isinstance(counts, list):
        counts = tuple(counts)
    record = DealRecord(version=version, start=start, counts=counts)
    _check_record(record, variant, players)
    hands, removed = DEALS[version](variant, players, seed, record)
    return RoundState.from_hands(variant, hands, dealer, options, removed=removed)


def new_deal(
    variant: str | Variant,
    players: int,
    dealer: int,
    seed: bytes,
    options: dict | Options | None = None,
) -> tuple[RoundState, DealRecord]:
    """A new round's deal by today's rules, and the record to store with it.

    Today's rules: ``DEAL_VERSION`` (2), starting at the seat that the variant's deal
    (``dealing.deal_start_offset``) gives, counted clockwise from the dealer, with the
    counts of that round-robin deal (RULES.md 2.1: hands differ by at most one card).
    With the ``balanced_deal`` option, the balanced deal's counts and start instead
    (``dealing.balanced_deal``, RULES.md section 7); ``ValueError`` where there is none.
    """
    variant = get_variant(variant)
    variant.check_players(players)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if Options.parse(options, variant).balanced_deal:
        balanced_counts, start = balanced_deal(variant, players, dealer)
        counts = tuple(balanced_counts)
    else:
        counts = tuple(dealt_counts(variant, players, dealer))
        start = (dealer + deal_start_offset(variant, players)) % players
    record = DealRecord(version=DEAL_VERSION, start=start, counts=counts)
    state = deal_from_seed(
        variant,
        players,
        dealer,
        seed,
        options,
        version=record.version,
        start=record.start,
        counts=record.counts,
    )
    return state, record


def verify(
    *,
    variant: str,
    players: int,
    dealer: int,
    seed_hex: str,
    commitment_hex: str,
    dealt: list[list[str]],
    removed: list[str],
    deal_version: int,
    deal_start: int,
    deal_counts: list[int] | None = None,
    options: dict | None = None,
) -> bool:
    """True when the revealed seed matches the commitment and, dealt by the round's stored
    deal record (``deal_version``, ``deal_start``, ``deal_counts``), recomputes this deal.

    Never raises: anything that does not check out (an unknown version, a bad seed or
    start, an unknown variant) is simply not verified.
    """
    if not isinstance(seed_hex, str):
        return False
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return False
    if len(seed) != SEED_BYTES or commitment(seed) != commitment_hex:
        return False
    try:
        again = deal_from_seed(
            variant,
            players,
            dealer,
            seed,
            options,
            version=deal_version,
            start=deal_start,
            counts=deal_counts,
        )
    except (ValueError, TypeError):
        return False
    return again.dealt == dealt and list(again.removed) == list(removed)
