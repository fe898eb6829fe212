"""Computer faces while a human drawer points at their cards (RULES.md section 6, "Tells").

Pure and deterministic: ``face`` is given a ``random.Random`` seeded by ``tell_rng`` from
the round's secret seed, the move (match, round, draws) and the position pointed at, so
the same point always gets the same face (pointing at a card again cannot re-roll a
Medium computer's face) and a replay, once the seed is revealed, can recompute every face.
A face never changes a draw: it only goes to the room as that seat's reaction.
Who may get a face at all is ``shows_face``'s to say, the one home of that rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from .computer import EASY, HARD, MEDIUM, check_level
from .round import RoundState
from .seats import person

WORRIED = "worried"
CALM = "calm"
#: How often Medium looks worried when the odd card is pointed at.
MEDIUM_TELL_RATE = 0.5
#: How often Medium looks worried at another card (a bluff).
MEDIUM_BLUFF_RATE = 0.15


def shows_face(drawer: Mapping, giver: Mapping) -> bool:
    """Whether the drawer's seat pointing at the giver's hand may bring the giver's face
    (a state's seats: ``kind``, ``bot``; RULES.md section 6, "Tells", decided
    2026-12-03): only a person pointing at a computer seat, one the computer plays from
    the start. A person's seat the computer covers, or plays after they left, holds that
    person's hand and shows no face; a bot pointing gets none (it could read every
    card's face in a second)."""
    return giver["kind"] == "computer" and person(drawer)


def tell_rng(seed: str, match: int, round_number: int, draws: int, position: int) -> random.Random:
    """The random stream of one face: the round's seed, the move and the position."""
    return random.Random(f"tell:{seed}:{match}:{round_number}:{draws}:{position}")


def face(
    level: str, *, knows_odd: bool, at_odd: bool, hidden: bool, rng: random.Random
) -> str | None:
    """The face a computer of ``level`` shows when the card it holds at the pointed
    position is (``at_odd``) or is not its odd card; ``None`` for no face at all: the
    computer does not know it holds the odd card, the variant hides it (``hidden``:
    Jiji-nuki), or the level is Hard."""
    check_level(level)
    if hidden or not knows_odd or level == HARD:
        return None
    if level == EASY:
        return WORRIED if at_odd else CALM
    assert level == MEDIUM
    rate = MEDIUM_TELL_RATE if at_odd else MEDIUM_BLUFF_RATE
    return WORRIED if rng.random() < rate else CALM


def face_at(
    round_state: dict, level: str, seed: str, match: int, round_number: int, position: int
) -> str | None:
    """The giver's face when the drawer points at ``position`` of its hand, from a
    round's stored state (``RoundState.to_dict``); ``None`` for no face."""
    state = RoundState.from_dict(round_state)
    giver = state.giver
    if giver is None or not 0 <= position < state.count(giver):
        return None
    odd = state.known_odd_card(giver)
    return _face(state, level, seed, (match, round_number), position, odd)


def faces_at(
    state: RoundState, level: str, seed: str, match: int, round_number: int
) -> list[str | None]:
    """The giver's face at each position of its hand, as ``face_at`` answers a point at
    it (what a replay shows once the seed is revealed); empty once the round is over."""
    giver = state.giver
    if giver is None:
        return []
    odd = state.known_odd_card(giver)
    return [
        _face(state, level, seed, (match, round_number), p, odd) for p in range(state.count(giver))
    ]


def _face(
    state: RoundState, level: str, seed: str, ply: tuple[int, int], position: int, odd
) -> str | None:
    giver = state.giver
    return face(
        level,
        knows_odd=odd is not None,
        at_odd=odd is not None and giver is not None and state.hands[giver][position] == odd,
        hidden=state.variant.odd_card_hidden,
        rng=tell_rng(seed, *ply, state.draws, position),
    )
