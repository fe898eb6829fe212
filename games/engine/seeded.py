"""Deals anyone can recompute from a seed (documented in docs/fairness.md).

A deal's randomness is a stream of 32-bit numbers: block ``i`` (counting from 0) is
SHA-256(seed || i as 4 bytes big-endian), read as eight big-endian 32-bit numbers. A
number below ``n`` is drawn by rejection: take the next number ``x`` until
``x < 2**32 - 2**32 % n``, then use ``x % n``. The deck, in its canonical order, is
shuffled by Fisher-Yates from the last position down: for ``i`` from ``len - 1`` to 1,
swap positions ``i`` and ``uniform(i + 1)``. Nothing else is random, so the same seed
always gives the same deal, in Python here and in the browser with Web Crypto.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

SEED_BYTES = 32
#: The seed-to-deal algorithm dealt today (stored on every round with its start).
DEAL_VERSION = 1


@dataclass(frozen=True)
class DealRecord:
    """What verifying a deal needs besides the seed: the algorithm's version and the seat
    that received the first card."""

    version: int
    start: int


def new_deal(variant, players: int, dealer: int, seed: bytes, options=None):
    """Today's deal for a new round, and its record."""
    from .dealing import deal_start_offset
    from .round import RoundState
    from .variants import get_variant

    v = get_variant(variant) if isinstance(variant, str) else variant
    offset = deal_start_offset(v, players)
    state = RoundState.deal(v, players, dealer, SeededRandom(seed), options, deal_offset=offset)
    return state, DealRecord(DEAL_VERSION, (dealer + offset) % players)


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


def verify(
    *,
    variant: str,
    players: int,
    dealer: int,
    seed_hex: str,
    commitment_hex: str,
    dealt: list[list[str]],
    removed: list[str],
    options: dict | None = None,
) -> bool:
    """True when the revealed seed matches the commitment and recomputes this deal."""
    from .round import RoundState

    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return False
    if len(seed) != SEED_BYTES or commitment(seed) != commitment_hex:
        return False
    again = RoundState.deal_from_seed(variant, players, dealer, seed, options)
    return again.dealt == dealt and list(again.removed) == list(removed)
