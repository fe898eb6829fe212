"""A finished round, step by step, rebuilt from its stored rows (the deal and each Draw).

Each step also carries the marks a replay shows to teach the computer levels
(``games.engine.marks``, RULES.md section 6): where a computer put the odd card after
its own draw, and, before a person's draw from a computer seat, the face it would have
shown at each card. Used by the replay page and by the tests that prove a round replays
exactly.
"""

from __future__ import annotations

from games.engine import LEVELS, RoundState, marks
from games.engine.tells import shows_face
from games.models import Draw, Round


class ReplayMismatch(Exception):
    """The stored rows do not replay to the stored result."""


def replay_steps(rnd: Round) -> list[dict]:
    """One entry per moment: after the deal (step 0), then after each draw, with every
    hand face up, the pairs in the middle, who finished, who draws next and the step's
    marks."""
    room = rnd.match.room
    state = RoundState.from_hands(room.variant, rnd.dealt, rnd.dealer, room.options)
    rows = list(rnd.draws.all())
    marking = _Marking(rnd, rows)
    steps = [_moment(state, None, marking.at(state, 0))]
    for k, row in enumerate(rows, start=1):
        if (state.drawer, state.giver) != (row.drawer, row.giver):
            raise ReplayMismatch(f"draw {row.number}: the turn does not match")
        result = state.draw(row.position)
        if result.card != row.card or (result.paired_with or "") != row.paired_with:
            raise ReplayMismatch(f"draw {row.number}: the card does not match")
        state.arrange_hand(row.drawer, row.hand_after)
        steps.append(_moment(state, result.as_dict(), marking.at(state, k)))
    if rnd.finished_at and (state.ranking != (rnd.ranking or []) or state.holder != rnd.holder):
        raise ReplayMismatch("the result does not match")
    return steps


class _Marking:
    """Which steps get which mark, as the live game would have shown them.

    - "hid": after a draw the computer made (``Draw.by_computer``: a computer seat, or a
      human's seat it played then), which arranged the hand by the room's level.
    - "face": before a draw a person made from a computer seat: the live table sends a
      face only when a person points at a card of a computer seat, never a bot, nor at a
      human's seat the computer covers or plays after they left (``tells.shows_face``,
      the rule ``games.realtime.together.point`` follows): a replay never claims a face
      the table did not show. Faces come from the round's seed, so only once the round
      is over.
    """

    def __init__(self, rnd: Round, rows: list[Draw]):
        room = rnd.match.room
        self.level = room.computer_level if room.computer_level in LEVELS else None
        self.seats = {s.index: {"kind": s.kind, "bot": s.bot} for s in room.seats.all()}
        self.rows = rows
        self.seed = rnd.seed if rnd.finished_at else None
        self.ply = (rnd.match.number, rnd.number)

    def at(self, state: RoundState, k: int) -> list[dict]:
        """The marks of step ``k`` (after ``k`` draws; ``state`` is the round then)."""
        if self.level is None:
            return []
        found = []
        done = self.rows[k - 1] if k else None
        if done is not None and done.by_computer:
            found.append(marks.hid(state, done.drawer, self.level))
        upcoming = self.rows[k] if k < len(self.rows) else None
        if (
            upcoming is not None
            and not upcoming.by_computer
            and shows_face(self.seats[upcoming.drawer], self.seats[upcoming.giver])
            and self.seed is not None
        ):
            found.append(marks.face(state, self.level, self.seed, *self.ply))
        return [m for m in found if m is not None]


def _moment(state: RoundState, draw: dict | None, found: list[dict]) -> dict:
    return {
        "hands": [list(h) for h in state.hands],
        "discards": [list(p) for p in state.discards],
        "finish_order": list(state.finish_order),
        "drawer": state.drawer,
        "giver": state.giver,
        "draw": draw,
        "marks": found,
    }
