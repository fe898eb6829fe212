"""The measured fairness figures (games/fairness_data.json), read once per process for the
fairness page. They are measured beforehand, never per request, by the research tools
(``python -m tools.fairness --search``, development only), which write this file."""

import json
from functools import lru_cache
from pathlib import Path

DATA_PATH = Path(__file__).resolve().parent / "fairness_data.json"

EMPTY = {"rounds": {"screen": 0, "candidate": 0, "final": 0}, "rows": []}


@lru_cache(maxsize=1)
def load() -> dict:
    """The figures, or no rows at all before the first measurement."""
    if not DATA_PATH.exists():
        return EMPTY
    return json.loads(DATA_PATH.read_text())


def fairer_than(a: dict, b: dict) -> bool:
    """Deal ``a``'s spread is meaningfully smaller than ``b``'s: their 95% intervals
    (``spread_95``) do not meet."""
    return a["spread_95"][1] < b["spread_95"][0]


#: The balanced deal (RULES.md section 7) is offered, and on by default, where its
#: measured spread is smaller than the variant's own deal's by at least this much.
BALANCED_MIN_GAIN = 0.03


def row(variant: str, players: int, data: dict | None = None) -> dict | None:
    """The measured row of this game and table size, if any."""
    for found in (data or load())["rows"]:
        if found["variant"] == variant and found["players"] == players:
            return found
    return None


def balanced_gain(found: dict) -> float | None:
    """How much smaller the balanced deal's spread is than the variant's own deal's
    (RULES.md section 4), or None where the row has no balanced deal."""
    balanced, own = found.get("balanced"), found.get(found["default_deal"])
    if not balanced or not own:
        return None
    return own["spread"] - balanced["spread"]


def balanced_deal(variant: str, players: int, data: dict | None = None) -> dict | None:
    """The one home of the decision (RULES.md section 7): the balanced deal's figures
    (``counts`` dealer first, ``offset`` of the first card, ``spread``...) with ``gain``
    and ``own`` (the variant's own deal's figures) where it is offered, that is where its
    spread is smaller than the own deal's by at least ``BALANCED_MIN_GAIN``; there it is
    on by default. None where the own deal is already fair: there it is not offered."""
    found = row(variant, players, data)
    if found is None:
        return None
    gain = balanced_gain(found)
    # A hair's tolerance, so that a gain of exactly 0.03 in decimal counts as 0.03.
    if gain is None or gain < BALANCED_MIN_GAIN - 1e-9:
        return None
    return {**found["balanced"], "gain": gain, "own": found[found["default_deal"]]}


def balanced_tables(data: dict | None = None) -> dict[tuple[str, int], dict]:
    """Every table where the balanced deal is offered: (variant, players) -> its figures."""
    found = {}
    for r in (data or load())["rows"]:
        deal = balanced_deal(r["variant"], r["players"], data)
        if deal is not None:
            found[(r["variant"], r["players"])] = deal
    return found
