"""A finished round, step by step, rebuilt from its stored rows (the deal and each Draw).

Used by the replay page and by the tests that prove a round replays exactly.
"""

from __future__ import annotations

from games.engine import RoundState
from games.models import Round


class ReplayMismatch(Exception):
    """The stored rows do not replay to the stored result."""


def replay_steps(rnd: Round) -> list[dict]:
    """One entry per moment: after the deal (step 0), then after each draw, with every
    hand face up, the pairs in the middle, who finished and who draws next."""
    room = rnd.match.room
    state = RoundState.from_hands(room.variant, rnd.dealt, rnd.dealer, room.options)
    steps = [_moment(state, None)]
    for row in rnd.draws.all():
        if (state.drawer, state.giver) != (row.drawer, row.giver):
            raise ReplayMismatch(f"draw {row.number}: the turn does not match")
        result = state.draw(row.position)
        if result.card != row.card or (result.paired_with or "") != row.paired_with:
            raise ReplayMismatch(f"draw {row.number}: the card does not match")
        state.arrange_hand(row.drawer, row.hand_after)
        steps.append(_moment(state, result.as_dict()))
    if rnd.finished_at and (state.ranking != (rnd.ranking or []) or state.holder != rnd.holder):
        raise ReplayMismatch("the result does not match")
    return steps


def _moment(state: RoundState, draw: dict | None) -> dict:
    return {
        "hands": [list(h) for h in state.hands],
        "discards": [list(p) for p in state.discards],
        "finish_order": list(state.finish_order),
        "drawer": state.drawer,
        "giver": state.giver,
        "draw": draw,
    }
