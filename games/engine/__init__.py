"""The rules of the Old Maid family as pure Python (no Django, no I/O, no clocks).

Randomness comes only from a ``random.Random`` passed in, so every result is
reproducible from its seed.
"""

from .cards import JOKER, RANKS, SUITS, colour, is_card, rank, suit
from .computer import (
    EASY,
    HARD,
    LEVELS,
    MEDIUM,
    arrange_after_own_draw,
    check_level,
    choose_position,
    play_out,
)
from .dealing import BALANCED_DEALS, balanced_deal, deal_cards, deal_start_offset, dealt_counts
from .errors import BadPosition, RoundOver, RulesError
from .match import MatchRules, MatchScore, RoundResult
from .options import Options
from .round import DrawResult, RoundState
from .variants import VARIANTS, Variant, get_variant

__all__ = [
    "BALANCED_DEALS",
    "EASY",
    "HARD",
    "JOKER",
    "LEVELS",
    "MEDIUM",
    "RANKS",
    "SUITS",
    "VARIANTS",
    "BadPosition",
    "DrawResult",
    "MatchRules",
    "MatchScore",
    "Options",
    "RoundOver",
    "RoundResult",
    "RoundState",
    "RulesError",
    "Variant",
    "arrange_after_own_draw",
    "balanced_deal",
    "check_level",
    "choose_position",
    "colour",
    "deal_cards",
    "deal_start_offset",
    "dealt_counts",
    "get_variant",
    "play_out",
    "is_card",
    "rank",
    "suit",
]
