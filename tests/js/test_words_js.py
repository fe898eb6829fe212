"""static/js/words.js, run under node on the words of templates/lobby/_seat_labels.html,
names computer seats exactly as the server does (a short name, and "computer · easy" on
its second line) and picks the singular or the plural sentence of a count as Django's
ngettext does, in every language."""

import json
import re
import subprocess
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import ngettext

from games.labels import computer_first_name, computer_what

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "words_cases.mjs"
COUNTS = [0, 1, 2, 5, 21]


def dataset(html: str) -> dict:
    """The <template>'s data-* attributes as the page's script sees them (dataset)."""
    return {
        re.sub(r"-([a-z])", lambda m: m.group(1).upper(), name): value
        for name, value in re.findall(r'data-([a-z-]+)="([^"]*)"', html)
    }


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
def test_the_table_says_what_the_server_says(node, tmp_path, language):
    with translation.override(language):
        labels = dataset(render_to_string("lobby/_seat_labels.html"))
        names = {
            lvl: [[computer_first_name(s), computer_what(lvl)] for s in range(8)]
            for lvl in ("easy", "medium", "hard")
        }
        cards = [ngettext("{n} card", "{n} cards", n).format(n=n) for n in COUNTS]
        strikes = [ngettext("{n} strike", "{n} strikes", n).format(n=n) for n in COUNTS]
        short = computer_first_name(3)
    case = tmp_path / "case.json"
    case.write_text(
        json.dumps({"labels": labels, "lang": language, "seats": list(range(8)), "counts": COUNTS})
    )
    out = subprocess.run([node, str(RUNNER), str(case)], capture_output=True, text=True, check=True)
    shown = json.loads(out.stdout)
    assert shown["names"] == names
    # A seat's one short name: the level is its second line, never nested in the name.
    assert shown["seats"] == ["Mia", short]
    assert shown["counts"]["cards"] == cards
    assert shown["counts"]["strikes"] == strikes
    assert all("Ann" in s and "{" not in s for s in shown["counts"]["yourTurn"])
    if language == "en":
        assert shown["counts"]["cards"][:3] == ["0 cards", "1 card", "2 cards"]
        assert shown["counts"]["spectators"][1] == "1 spectator watching"
