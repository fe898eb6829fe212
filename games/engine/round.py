"""One round of any variant: the deal's discard, the draws, the turn flows, the result.

A ``RoundState`` is plain data plus the rules; it does no I/O and draws no randomness of
its own. Randomness (the shuffle before the deal, hand shuffles) comes from the
``random.Random`` that a caller passes in. The site's verifiable deals are built in
``seeded`` on top of ``from_hands``; this module knows nothing of them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .cards import colour, is_card, rank
from .dealing import check_counts, deal_by_counts, deal_cards, deal_start_offset, shuffled_deck
from .errors import BadPosition, RoundOver
from .options import Options
from .variants import FLOW_FROM_PREVIOUS, Variant, get_variant


@dataclass(frozen=True)
class DrawResult:
    """What one draw did, as public and private facts together.

    ``card`` is the drawn card's face: the engine's callers decide who may see it.
    """

    number: int  # 1 for the round's first draw
    drawer: int
    giver: int
    position: int
    card: str
    #: The drawer's card that paired with the drawn one, or None.
    paired_with: str | None
    #: Seats that finished with this draw, best place first.
    finished: tuple[int, ...]
    #: The next giver and drawer (None once the round is over).
    next_giver: int | None
    next_drawer: int | None
    over: bool
    #: The card was the giver's known odd card (``RoundState.known_odd_card``) before the
    #: draw: the joker, the Black Peter, Old Maid's last queen; never in Jiji-nuki. Both
    #: the giver and the drawer can know it; the engine's callers decide who is told.
    odd: bool = False

    @property
    def discarded(self) -> tuple[str, ...]:
        return (self.paired_with, self.card) if self.paired_with else ()

    def as_dict(self) -> dict:
        return {
            "number": self.number,
            "drawer": self.drawer,
            "giver": self.giver,
            "position": self.position,
            "card": self.card,
            "paired_with": self.paired_with,
            "finished": list(self.finished),
            "next_giver": self.next_giver,
            "next_drawer": self.next_drawer,
            "over": self.over,
            "odd": self.odd,
        }


@dataclass
class RoundState:
    """The state of one round. Build it with ``from_hands`` or ``deal``."""

    variant: Variant
    options: Options
    dealer: int
    #: The hands as dealt, before the initial discard.
    dealt: list[list[str]]
    #: Each seat's hand in face-down order as the drawer sees it (index = position).
    hands: list[list[str]]
    #: Face-up pairs in the middle, in the order they were discarded.
    discards: list[tuple[str, str]] = field(default_factory=list)
    finish_order: list[int] = field(default_factory=list)
    giver: int | None = None
    drawer: int | None = None
    draws: int = 0
    #: Cards set aside unseen before the deal (Jiji-nuki's card, Old Maid's queen).
    removed: tuple[str, ...] = ()

    # -- construction -------------------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        variant: str | Variant,
        hands: list[list[str]],
        dealer: int,
        options: dict | Options | None = None,
        *,
        removed: tuple[str, ...] | list[str] = (),
    ) -> RoundState:
        """A round from explicit dealt hands (seat ``i`` gets ``hands[i]``).

        Applies the initial discard, ranks any seat left empty by it, and sets the first
        giver and drawer. Any cards of the variant's deck may be given; unknown or
        duplicated cards, or a bad seat count or dealer, raise ``ValueError``.
        """
        variant = get_variant(variant)
        options = Options.parse(options, variant)
        if not isinstance(hands, (list, tuple)) or not all(
            isinstance(h, (list, tuple)) for h in hands
        ):
            raise ValueError("hands must be a list of lists of card codes, one list per seat")
        players = len(hands)
        variant.check_players(players)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
            raise ValueError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        removed = tuple(removed)
        _check_cards(variant, [c for h in hands for c in h], removed)

        state = cls(
            variant=variant,
            options=options,
            dealer=dealer,
            dealt=[list(h) for h in hands],
            hands=[],
            removed=removed,
        )
        state.hands = [state._discard_pairs(list(h)) for h in hands]
        # Seats emptied by the initial discard finish at once, in turn order from the
        # seat on the dealer's left (the first to play in every variant).
        for offset in range(1, players + 1):
            seat = (dealer + offset) % players
            if not state.hands[seat]:
                state.finish_order.append(seat)
        state._start()
        return state

    @classmethod
    def deal(
        cls,
        variant: str | Variant,
        players: int,
        dealer: int,
        rng: random.Random,
        options: dict | Options | None = None,
        *,
        deal: str | None = None,
        deal_offset: int | None = None,
        counts: list[int] | tuple[int, ...] | None = None,
    ) -> RoundState:
        """Shuffle the variant's deck with ``rng`` (anything with ``shuffle``), set aside its
        unseen card, and deal.

        ``deal`` picks fair or traditional (default: the variant's); ``deal_offset``
        overrides it with the first seat dealt to, counted clockwise from the dealer.
        ``counts`` (cards per seat, by seat number) deals any other split: one card at a
        time clockwise from that first seat, skipping a seat once it has its count. Counts
        that are not a deal of this deck (wrong length, a seat without cards, a wrong
        total) raise ``ValueError``.
        """
        variant = get_variant(variant)
        variant.check_players(players)
        if counts is not None:
            counts = check_counts(variant, players, counts)
        cards, removed = shuffled_deck(variant, rng)
        if deal_offset is None:
            deal_offset = deal_start_offset(variant, players, deal)
        first = (dealer + deal_offset) % players
        if counts is None:
            hands = deal_cards(cards, players, first)
        else:
            hands = deal_by_counts(cards, counts, first)
        return cls.from_hands(variant, hands, dealer, options, removed=removed)

    # -- what anyone may ask --------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.hands)

    def hand(self, seat: int) -> list[str]:
        """That seat's cards in face-down order as the drawer sees them (a copy)."""
        return list(self.hands[seat])

    def count(self, seat: int) -> int:
        return len(self.hands[seat])

    def is_active(self, seat: int) -> bool:
        return bool(self.hands[seat])

    @property
    def active_seats(self) -> list[int]:
        return [s for s in range(self.players) if self.hands[s]]

    @property
    def over(self) -> bool:
        return len(self.active_seats) <= 1

    @property
    def holder(self) -> int | None:
        """The seat left holding the odd card once the round is over."""
        if not self.over:
            return None
        active = self.active_seats
        return active[0] if active else None

    @property
    def loser(self) -> int | None:
        """The seat that lost the round: the holder, unless the reverse rule is on."""
        return None if self.options.reverse else self.holder

    @property
    def winner(self) -> int | None:
        """Under the reverse rule, the holder wins the round (no single winner otherwise)."""
        return self.holder if self.options.reverse else None

    @property
    def ranking(self) -> list[int]:
        """Finished seats best first, then the holder (the full ranking once over)."""
        holder = self.holder
        return self.finish_order + ([holder] if holder is not None else [])

    @property
    def odd_cards(self) -> list[str]:
        """The cards left once the round is over (normally exactly one)."""
        return [c for h in self.hands for c in h] if self.over else []

    def pairs_with(self, a: str, b: str) -> bool:
        """True when cards ``a`` and ``b`` make a pair under this round's rules."""
        return a != b and self._key(a) == self._key(b)

    def known_odd_card(self, seat: int) -> str | None:
        """The card in ``seat``'s hand that the seat can be sure is the odd card.

        A seat knows when it holds the card that never pairs (the joker, the Black
        Peter), or when every other card of its card's rank but one has been discarded
        face up. In Jiji-nuki nobody can know.
        """
        if self.variant.odd_card_hidden:
            return None
        hand = self.hands[seat]
        never = self.variant.never_pairs
        if never is not None and never in hand:
            return never
        if not self.variant.removed_unseen_ranks:
            return None
        # Old Maid: the ranks a card was set aside from have an odd number of cards.
        in_deck = Counter(rank(c) for c in self.variant.deck)
        discarded = Counter(rank(c) for pair in self.discards for c in pair)
        for card in hand:
            r = rank(card)
            if r in self.variant.removed_unseen_ranks and (
                in_deck[r] - self.variant.removed_unseen - discarded[r] == 1
            ):
                return card
        return None

    # -- the one action ---------------------------------------------------------------

    def draw(self, position: int) -> DrawResult:
        """The current drawer draws the card at ``position`` of the giver's hand.

        If the drawer holds a card that pairs with it, both go face up to the middle;
        otherwise the drawn card joins the right end of the drawer's hand. Raises
        ``RoundOver`` or ``BadPosition`` (both ``ValueError``) and changes nothing when
        the draw is not allowed.
        """
        if self.over or self.giver is None or self.drawer is None:
            raise RoundOver("the round is over: nobody draws any more")
        giver, drawer = self.giver, self.drawer
        giver_hand = self.hands[giver]
        if not isinstance(position, int) or isinstance(position, bool):
            raise BadPosition(f"a position must be a whole number, not {position!r}")
        if not 0 <= position < len(giver_hand):
            raise BadPosition(
                f"position {position} is not in seat {giver}'s hand: "
                f"choose 0 to {len(giver_hand) - 1}"
            )

        odd = self.known_odd_card(giver) == giver_hand[position]
        card = giver_hand.pop(position)
        drawer_hand = self.hands[drawer]
        key = self._key(card)
        paired_with = next((c for c in drawer_hand if self._key(c) == key), None)
        if paired_with is None:
            drawer_hand.append(card)
        else:
            drawer_hand.remove(paired_with)
            self.discards.append((paired_with, card))
        self.draws += 1

        # The giver's last card drawn and paired at once: both finish, the giver first.
        finished = tuple(seat for seat in (giver, drawer) if not self.hands[seat])
        self.finish_order.extend(finished)
        self._advance(drawer)
        return DrawResult(
            number=self.draws,
            drawer=drawer,
            giver=giver,
            position=position,
            card=card,
            paired_with=paired_with,
            finished=finished,
            next_giver=self.giver,
            next_drawer=self.drawer,
            over=self.over,
            odd=odd,
        )

    # -- hand order (no effect on the rules) ----------------------------------------------

    def shuffle_hand(self, seat: int, rng: random.Random) -> None:
        """Shuffle a hand, as after a human seat's own draw."""
        rng.shuffle(self.hands[seat])

    def arrange_hand(self, seat: int, order: list[str]) -> None:
        """Put a hand in the given order; ``order`` must hold exactly the same cards."""
        if sorted(order) != sorted(self.hands[seat]):
            raise ValueError("a new hand order must hold exactly the seat's cards")
        self.hands[seat] = list(order)

    # -- persistence ----------------------------------------------------------------------

    def to_dict(self) -> dict:
        """Plain JSON-able data; ``from_dict`` restores an equal state."""
        return {
            "variant": self.variant.key,
            "options": self.options.as_dict(),
            "dealer": self.dealer,
            "dealt": [list(h) for h in self.dealt],
            "hands": [list(h) for h in self.hands],
            "discards": [list(p) for p in self.discards],
            "finish_order": list(self.finish_order),
            "giver": self.giver,
            "drawer": self.drawer,
            "draws": self.draws,
            "removed": list(self.removed),
        }

    @classmethod
    def from_dict(cls, data: dict) -> RoundState:
        variant = get_variant(data["variant"])
        return cls(
            variant=variant,
            options=Options.parse(data.get("options"), variant),
            dealer=data["dealer"],
            dealt=[list(h) for h in data["dealt"]],
            hands=[list(h) for h in data["hands"]],
            discards=[tuple(p) for p in data["discards"]],
            finish_order=list(data["finish_order"]),
            giver=data["giver"],
            drawer=data["drawer"],
            draws=data["draws"],
            removed=tuple(data.get("removed", ())),
        )

    # -- internals --------------------------------------------------------------------------

    def _key(self, card: str) -> str:
        """Two cards pair when their keys are equal."""
        if card == self.variant.never_pairs:
            return "*" + card  # a key nothing else has
        if self.options.same_colour_pairs:
            return f"{rank(card)}/{colour(card)}"
        return rank(card)

    def _discard_pairs(self, hand: list[str]) -> list[str]:
        """The initial discard: pairs go face up (two of three, both of four)."""
        waiting: dict[str, str] = {}
        for card in hand:
            key = self._key(card)
            if key in waiting:
                self.discards.append((waiting.pop(key), card))
            else:
                waiting[key] = card
        kept = set(waiting.values())
        return [c for c in hand if c in kept]

    def _next_active(self, seat: int) -> int:
        """The first active seat clockwise after ``seat``."""
        n = self.players
        for offset in range(1, n + 1):
            candidate = (seat + offset) % n
            if self.hands[candidate]:
                return candidate
        raise AssertionError("no active seat")  # callers check that two are active

    def _first_active_from(self, seat: int) -> int:
        return seat if self.hands[seat] else self._next_active(seat)

    def _start(self) -> None:
        if self.over:
            self.giver = self.drawer = None
        elif self.variant.flow == FLOW_FROM_PREVIOUS:
            # The dealer is the first seat drawn from.
            self.giver = self._first_active_from(self.dealer)
            self.drawer = self._next_active(self.giver)
        else:
            # The seat on the dealer's left draws first, from its own left neighbour.
            self.drawer = self._first_active_from((self.dealer + 1) % self.players)
            self.giver = self._next_active(self.drawer)

    def _advance(self, last_drawer: int) -> None:
        if self.over:
            self.giver = self.drawer = None
        elif self.variant.flow == FLOW_FROM_PREVIOUS:
            # The last drawer gives next; if it finished, the first active seat after it
            # gives instead, and its own left neighbour's turn is the one skipped.
            self.giver = self._first_active_from(last_drawer)
            self.drawer = self._next_active(self.giver)
        else:
            self.drawer = self._next_active(last_drawer)
            self.giver = self._next_active(self.drawer)


def _check_cards(variant: Variant, cards: list[str], removed: tuple[str, ...]) -> None:
    bad = [c for c in cards if not is_card(c)]
    if bad:
        raise ValueError(f"not card codes: {', '.join(map(repr, bad))}")
    allowed = set(variant.deck)
    foreign = [c for c in cards + list(removed) if c not in allowed]
    if foreign:
        raise ValueError(f"not in the {variant.name} deck: {', '.join(foreign)}")
    seen = Counter(cards + list(removed))
    dupes = sorted(c for c, n in seen.items() if n > 1)
    if dupes:
        raise ValueError(f"cards given more than once: {', '.join(dupes)}")
    # At most the deck less its unseen removal: e.g. Old Maid never has four queens.
    limit = len(variant.deck) - variant.removed_unseen
    if len(cards) > limit:
        raise ValueError(f"{variant.name} deals {limit} cards, but {len(cards)} were given")
    if variant.removed_unseen_ranks:
        in_deck = Counter(rank(c) for c in variant.deck)
        given = Counter(rank(c) for c in cards)
        for r in variant.removed_unseen_ranks:
            most = in_deck[r] - variant.removed_unseen
            if given[r] > most:
                raise ValueError(
                    f"{variant.name} plays with at most {most} cards of rank {r}, "
                    f"but {given[r]} were given"
                )
