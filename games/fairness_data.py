"""The measured fairness figures (games/fairness_data.json, written by
``manage.py fairness_tables --search``), read once per process for the fairness page."""

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
