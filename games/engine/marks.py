"""What a replay marks so that players can learn to read the computer levels (RULES.md
section 6): where a computer put the odd card after its own draw ("hid"), and the face
it would have shown at each card of its hand when a human was about to draw from it
("face").

Pure: each mark is read from the round's state at one step, the room's level and the
round's seed (revealed once the round is over). Which steps get a mark (who drew, who
plays the giver) is ``games.replay``'s to say.
"""

from __future__ import annotations

from .computer import HABIT_POSITION, HARD, check_level
from .round import RoundState
from .tells import faces_at


def hid(state: RoundState, seat: int, level: str) -> dict | None:
    """Where ``seat``, just arranged by a computer of ``level`` after its own draw, holds
    the odd card it knows: its position as the next drawer sees the hand, and whether
    that is its habit's place (Easy always, Medium when it showed the habit or its
    shuffle happened to put the card there; Hard has no habit). None when the seat does
    not know it holds the odd card (Jiji-nuki: never), or holds it alone: one card has
    nowhere to be hidden."""
    check_level(level)
    odd = state.known_odd_card(seat)
    if odd is None or state.count(seat) < 2:
        return None
    position = state.hand(seat).index(odd)
    return {
        "kind": "hid",
        "seat": seat,
        "card": odd,
        "position": position,
        "habit": level != HARD and position == HABIT_POSITION,
    }


def face(state: RoundState, level: str, seed: str, match: int, round_number: int) -> dict | None:
    """The faces the giver, a computer of ``level``, would show as the drawer points at
    each card of its hand (``tells.face_at`` for every position: "worried", "calm", or
    None for Hard), with where its odd card is. None when the giver does not know it
    holds the odd card: then no level shows a face."""
    check_level(level)
    giver = state.giver
    odd = state.known_odd_card(giver) if giver is not None else None
    if giver is None or odd is None:
        return None
    return {
        "kind": "face",
        "seat": giver,
        "card": odd,
        "position": state.hand(giver).index(odd),
        "faces": faces_at(state, level, seed, match, round_number),
    }
