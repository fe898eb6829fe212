"""The measured fairness figures (games/fairness_data.json, written by
``manage.py fairness_tables --search``), read once per process for the fairness page."""

import json
from functools import lru_cache
from pathlib import Path

DATA_PATH = Path(__file__).resolve().parent / "fairness_data.json"


def dumps(payload: dict) -> str:
    """The data file's text: one line per variant and table size, so that a re-measured
    row shows as one changed line."""
    head = {k: v for k, v in payload.items() if k != "rows"}
    rows = ",\n".join(json.dumps(row, separators=(",", ":")) for row in payload["rows"])
    return json.dumps(head)[:-1] + ', "rows": [\n' + rows + "\n]}\n"


EMPTY = {"rounds": {"screen": 0, "candidate": 0, "final": 0}, "rows": []}


@lru_cache(maxsize=1)
def load() -> dict:
    """The figures, or no rows at all before the first measurement."""
    if not DATA_PATH.exists():
        return EMPTY
    return json.loads(DATA_PATH.read_text())
