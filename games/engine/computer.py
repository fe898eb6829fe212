"""Computer seats (RULES.md section 6) and the hand order after a seat's own draw.

Every level draws a uniformly random position. Levels differ only in where a computer
puts the odd card after its own draw while it knows it holds it: Easy always puts it in
the same place (its habit), Medium shows the habit about half the time, Hard never.
"""

import random

from .round import RoundState

EASY = "easy"
MEDIUM = "medium"
HARD = "hard"
LEVELS = (EASY, MEDIUM, HARD)

#: Where the habit puts the odd card: the leftmost card as the next drawer sees the hand.
HABIT_POSITION = 0
#: How often Medium shows the habit.
MEDIUM_HABIT_RATE = 0.5


def check_level(level: object) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; choose easy, medium or hard")
    return str(level)


def choose_position(state: RoundState, rng: random.Random) -> int:
    """A computer's draw: a uniformly random position of the giver's hand."""
    if state.giver is None:
        raise ValueError("the round is over: nobody draws any more")
    return rng.randrange(state.count(state.giver))


def arrange_after_own_draw(
    state: RoundState, seat: int, rng: random.Random, level: str | None = None
) -> None:
    """Order ``seat``'s hand after its own draw.

    A human's hand (``level`` None) is shuffled. A computer's is shuffled too, then, if
    it knows it holds the odd card and its level shows the habit this time, the odd card
    goes to the habit position.
    """
    if not state.hands[seat]:
        return
    state.shuffle_hand(seat, rng)
    if level is None:
        return
    check_level(level)
    odd = state.known_odd_card(seat)
    if odd is None or level == HARD:
        return
    if level == EASY or rng.random() < MEDIUM_HABIT_RATE:
        hand = state.hand(seat)
        hand.remove(odd)
        hand.insert(HABIT_POSITION, odd)
        state.arrange_hand(seat, hand)


def play_out(state: RoundState, rng: random.Random, level: str | None = None) -> RoundState:
    """Play the round to its end with every seat drawing a random position, arranging
    hands as a human (``level`` None) or a computer of ``level`` would."""
    while not state.over:
        drawer = state.drawer
        assert drawer is not None  # a round not over has a drawer
        state.draw(choose_position(state, rng))
        arrange_after_own_draw(state, drawer, rng, level)
    return state
