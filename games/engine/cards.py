"""Card codes: rank then suit ("10H", "QS"), and "JK" for the joker.

Ranks are A 2 3 4 5 6 7 8 9 10 J Q K; suits S H D C. Hearts and diamonds are red,
spades and clubs black. The joker has no suit and no colour.
"""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SKAT_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
JOKER = "JK"

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def is_card(code: object) -> bool:
    """True when ``code`` is a well-formed card code."""
    if code == JOKER:
        return True
    return isinstance(code, str) and len(code) >= 2 and code[:-1] in RANKS and code[-1] in SUITS


def rank(code: str) -> str:
    """The rank of a card ("JK" for the joker)."""
    return JOKER if code == JOKER else code[:-1]


def suit(code: str) -> str | None:
    return None if code == JOKER else code[-1]


def colour(code: str) -> str | None:
    """ "red", "black", or None for the joker."""
    if code == JOKER:
        return None
    return "red" if code[-1] in RED_SUITS else "black"


def standard_deck() -> list[str]:
    """The 52 cards, in a fixed order (suit by suit)."""
    return [r + s for s in SUITS for r in RANKS]


def skat_deck() -> list[str]:
    """The 32-card Skat deck: 7 8 9 10 J Q K A in four suits."""
    return [r + s for s in SUITS for r in SKAT_RANKS]
