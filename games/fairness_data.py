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
