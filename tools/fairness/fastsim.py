"""A vectorised simulator of whole rounds, for the fairness figures.

It plays many rounds at once with numpy, under the simulator's assumption that every
seat draws a uniformly random position. Then a hand's order never matters, and a hand is
just the set of pairing keys it holds: after the initial discard a hand holds at most
one card of each key, so a hand is a bitmask, the initial discard is the XOR of the dealt
cards' bits, and a draw moves one random set bit from the giver's mask to the drawer's by
XOR (a pair, if the drawer had that key, cancels out). ``tests/tools/test_fastsim.py``
checks it against the full engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from games.engine.cards import colour, rank
from games.engine.dealing import check_counts, deal_start_offset, dealt_counts
from games.engine.variants import FLOW_FROM_PREVIOUS, Variant, get_variant


@dataclass
class FastResult:
    #: losses[i]: rounds lost by the seat at offset i clockwise from the dealer.
    losses: np.ndarray
    total_draws: int
    rounds: int


def card_keys(variant: Variant, same_colour_pairs: bool = False) -> tuple[list[str], list[int]]:
    """The variant's playing deck (fixed removal) and each card's pairing-key index."""
    cards = list(variant.deck)
    if variant.removed_unseen and variant.removed_unseen_ranks:
        # Which queen is set aside does not change the game's statistics.
        for _ in range(variant.removed_unseen):
            cards.remove(
                next(c for c in reversed(cards) if rank(c) in variant.removed_unseen_ranks)
            )
    keys: dict[str, int] = {}
    indexes = []
    for card in cards:
        if card == variant.never_pairs:
            key = "*"
        elif same_colour_pairs:
            key = f"{rank(card)}/{colour(card)}"
        else:
            key = rank(card)
        indexes.append(keys.setdefault(key, len(keys)))
    if len(keys) > 32:
        raise ValueError("too many pairing keys for a 32-bit hand")
    return cards, indexes


@lru_cache(maxsize=1)
def _bit_tables() -> tuple[np.ndarray, np.ndarray]:
    """popcount and select tables for 16-bit halves: select[v * 16 + k] = k-th set bit."""
    values = np.arange(1 << 16, dtype=np.uint32)
    bits = ((values[:, None] >> np.arange(16, dtype=np.uint32)) & 1).astype(np.int64)
    popcount = bits.sum(axis=1)
    # A stable sort that puts set bits first lists their indexes in ascending order.
    select = np.argsort(-bits, axis=1, kind="stable").astype(np.int64)
    return popcount, select.reshape(-1)


@lru_cache(maxsize=8)
def _seat_tables(players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each set of active seats (a bitmask) and seat s: the first active seat
    clockwise after s, the first from s inclusive, and the number of active seats."""
    size = 1 << players
    after = np.full((size, players), -1, dtype=np.int64)
    from_ = np.full((size, players), -1, dtype=np.int64)
    for alive in range(size):
        for s in range(players):
            for off in range(1, players + 1):
                t = (s + off) % players
                if alive >> t & 1:
                    after[alive, s] = t
                    break
            from_[alive, s] = s if alive >> s & 1 else after[alive, s]
    count = np.array([bin(a).count("1") for a in range(size)], dtype=np.int64)
    return after.reshape(-1), from_.reshape(-1), count


def simulate(
    variant: str | Variant,
    players: int,
    rounds: int,
    *,
    deal_offset: int | None = None,
    deal: str | None = None,
    counts: list[int] | tuple[int, ...] | None = None,
    seed: int | None = None,
    same_colour_pairs: bool = False,
    chunk: int = 200_000,
) -> FastResult:
    """Play ``rounds`` rounds with the dealer at seat 0 and count losses per seat.

    ``deal_offset`` (the first seat dealt to) defaults to the variant's deal. ``counts``
    (cards per seat, dealer first) names any other deal instead: the deck is shuffled
    uniformly, so which positions of it a seat receives does not matter, only how many.
    """
    variant = get_variant(variant)
    variant.check_players(players)
    if counts is None:
        if deal_offset is None:
            deal_offset = deal_start_offset(variant, players, deal)
        counts = dealt_counts(variant, players, 0, deal_offset=deal_offset)
    counts = check_counts(variant, players, counts)
    bounds = np.concatenate([[0], np.cumsum(counts)])
    rng = np.random.default_rng(seed)
    cards, key_index = card_keys(variant, same_colour_pairs)
    card_bits = np.array([1 << k for k in key_index], dtype=np.uint32)
    dealt = variant.deck_size  # Jiji-nuki: the last shuffled card is set aside unseen
    losses = np.zeros(players, dtype=np.int64)
    total_draws = 0
    done = 0
    while done < rounds:
        size = min(chunk, rounds - done)
        decks = rng.permuted(np.broadcast_to(card_bits, (size, len(cards))), axis=1)[:, :dealt]
        hands = np.empty((size, players), dtype=np.uint32)
        for seat in range(players):
            hand = decks[:, bounds[seat] : bounds[seat + 1]]
            hands[:, seat] = np.bitwise_xor.reduce(hand, axis=1)
        chunk_losses, chunk_draws = _play(variant, players, hands, rng)
        losses += chunk_losses[0]
        total_draws += int(chunk_draws[0])
        done += size
    return FastResult(losses=losses, total_draws=total_draws, rounds=rounds)


def simulate_many(
    variant: str | Variant,
    players: int,
    deals: list[list[int]],
    rounds: int,
    *,
    seed: int | None = None,
    same_colour_pairs: bool = False,
    chunk: int = 200_000,
) -> list[FastResult]:
    """``simulate`` for many deals at once (each a count vector, dealer first), ``rounds``
    rounds each, played side by side in the same arrays: much faster than one call per
    deal when each deal gets few rounds (a search's first screening)."""
    variant = get_variant(variant)
    variant.check_players(players)
    deals = [check_counts(variant, players, c) for c in deals]
    rng = np.random.default_rng(seed)
    cards, key_index = card_keys(variant, same_colour_pairs)
    card_bits = np.array([1 << k for k in key_index], dtype=np.uint32)
    dealt = variant.deck_size
    # Each lane plays one round of one deal: lane -> deal index, rounds lanes per deal.
    lanes = len(deals) * rounds
    starts = np.array([np.concatenate([[0], np.cumsum(c)])[:-1] for c in deals])
    ends = starts + np.array(deals)
    losses = np.zeros((len(deals), players), dtype=np.int64)
    draws = np.zeros(len(deals), dtype=np.int64)
    for at in range(0, lanes, chunk):
        groups = np.arange(at, min(at + chunk, lanes), dtype=np.int64) // rounds
        size = groups.size
        decks = rng.permuted(np.broadcast_to(card_bits, (size, len(cards))), axis=1)[:, :dealt]
        hands = np.empty((size, players), dtype=np.uint32)
        # The lanes of one deal are side by side: deal each run of lanes by slicing.
        cuts = np.flatnonzero(np.diff(groups)) + 1
        for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, size], strict=True):
            g = groups[lo]
            for seat in range(players):
                hand = decks[lo:hi, starts[g, seat] : ends[g, seat]]
                hands[lo:hi, seat] = np.bitwise_xor.reduce(hand, axis=1)
        chunk_losses, chunk_draws = _play(variant, players, hands, rng, groups, len(deals))
        losses += chunk_losses
        draws += chunk_draws
    return [
        FastResult(losses=losses[i], total_draws=int(draws[i]), rounds=rounds)
        for i in range(len(deals))
    ]


def _play(
    variant: Variant,
    players: int,
    hands: np.ndarray,
    rng: np.random.Generator,
    groups: np.ndarray | None = None,
    ngroups: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Play every lane's round to the end: (losses[group, seat], draws[group])."""
    popcount16, select16 = _bit_tables()
    after, from_, alive_count = _seat_tables(players)
    n = players
    lanes = hands.shape[0]
    masks = hands.reshape(-1).copy()  # lane * n + seat
    seat_bits = (masks.reshape(lanes, n) != 0) << np.arange(n)
    alive = seat_bits.sum(axis=1).astype(np.int64)
    lane = np.arange(lanes, dtype=np.int64)
    base = lane * n
    if variant.flow == FLOW_FROM_PREVIOUS:
        giver = from_[alive * n + 0]
        drawer = after[alive * n + np.maximum(giver, 0)]
    else:
        drawer = from_[alive * n + 1 % n]
        giver = after[alive * n + np.maximum(drawer, 0)]
    if groups is None:
        groups = np.zeros(lanes, dtype=np.int64)
    losses = np.zeros(ngroups * n, dtype=np.int64)
    total_draws = np.zeros(ngroups, dtype=np.int64)

    step = 0  # draws made so far by every lane still playing

    def finish(stop: np.ndarray) -> None:
        total_draws[:] += step * np.bincount(groups[stop], minlength=ngroups)
        holders = alive[stop]
        which = groups[stop][holders != 0]
        holders = holders[holders != 0]
        # The one seat left: its index is log2 of its bit.
        seats = np.log2(holders).astype(np.int64)
        losses[:] += np.bincount(which * n + seats, minlength=ngroups * n)

    stop = alive_count[alive] <= 1
    finish(stop)
    keep = ~stop
    masks = masks.reshape(lanes, n)[keep].reshape(-1)
    alive, giver, drawer, groups = alive[keep], giver[keep], drawer[keep], groups[keep]
    while alive.size:
        live = alive.size
        base = np.arange(live, dtype=np.int64) * n
        gi = base + giver
        di = base + drawer
        g = masks[gi]
        low = (g & 0xFFFF).astype(np.int64)
        high = (g >> 16).astype(np.int64)
        low_count = popcount16[low]
        count = low_count + popcount16[high]
        k = (rng.random(live) * count).astype(np.int64)
        in_low = k < low_count
        half = np.where(in_low, low, high)
        kk = np.where(in_low, k, k - low_count)
        bit_index = select16[half * 16 + kk] + np.where(in_low, 0, 16)
        bit = (np.uint32(1) << bit_index.astype(np.uint32)).astype(np.uint32)
        g ^= bit
        masks[gi] = g
        d = masks[di] ^ bit
        masks[di] = d
        step += 1
        alive &= ~(((g == 0).astype(np.int64) << giver) | ((d == 0).astype(np.int64) << drawer))
        stop = alive_count[alive] <= 1
        if variant.flow == FLOW_FROM_PREVIOUS:
            giver = from_[alive * n + drawer]
            drawer = after[alive * n + np.maximum(giver, 0)]
        else:
            drawer = after[alive * n + drawer]
            giver = after[alive * n + np.maximum(drawer, 0)]
        if stop.any():
            finish(stop)
            keep = ~stop
            masks = masks.reshape(live, n)[keep].reshape(-1)
            alive, giver, drawer, groups = alive[keep], giver[keep], drawer[keep], groups[keep]
    return losses.reshape(ngroups, n), total_draws
