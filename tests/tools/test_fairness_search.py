"""The deal search behind docs/fairness.md: its candidate families, its spread interval,
and the tables it writes, which must match the committed data file."""

import itertools
import math
from pathlib import Path

import pytest

from games import fairness_data
from tools.fairness import search as fairness_search
from tools.fairness.cli import main
from tools.fairness.report import END, START, render_tables

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


@pytest.mark.parametrize(("deck", "players"), [(53, 5), (51, 3), (31, 4), (53, 8)])
@pytest.mark.parametrize("special", [0, 1])
def test_the_parity_family_is_what_it_says(deck, players, special):
    family = fairness_search.parity_family(deck, players, special, 3)
    assert family and len(set(family)) == len(family)
    share = deck / players
    for counts in family:
        assert len(counts) == players and sum(counts) == deck and min(counts) >= 1
        assert all(abs(c - share) <= 3 for c in counts)
        odd = counts[special] % 2
        assert all(c % 2 != odd for i, c in enumerate(counts) if i != special)
    # Nothing that qualifies is missing (checked by brute force for small tables).
    if players <= 4:
        lo, hi = math.ceil(share - 3), math.floor(share + 3)
        every = {
            c
            for c in itertools.product(range(max(1, lo), hi + 1), repeat=players)
            if sum(c) == deck
            and all(x % 2 != c[special] % 2 for i, x in enumerate(c) if i != special)
        }
        assert every == set(family)


def test_the_issues_example_is_in_the_family():
    assert (13, 10, 10, 10, 10) in fairness_search.parity_family(53, 5, 0, 3)


def test_the_spread_interval():
    spread, low, high = fairness_search.spread_interval([250_000, 250_000, 300_000, 200_000], 10**6)
    assert spread == pytest.approx(0.1)
    assert low < 0.1 < high and high - low < 0.003
    assert fairness_search.spread_interval([50, 50], 100)[1] == 0.0  # clipped at 0


def test_the_docs_tables_are_the_data_files():
    block = render_tables(fairness_data.load(), START, END)
    assert block in DOCS.read_text(), "run: python -m tools.fairness --write docs/fairness.md"


def test_the_command_writes_the_tables_into_a_file(tmp_path, capsys):
    target = tmp_path / "fairness.md"
    target.write_text(f"# Title\n\n{START}\nSTALE-TABLE\n{END}\n\nafter\n")
    assert main(["--write", str(target)]) == 0
    assert f"wrote {target}" in capsys.readouterr().err
    text = target.read_text()
    assert text.startswith("# Title") and text.endswith("after\n") and "STALE-TABLE" not in text
    assert "| Babanuki | 4 | fair, first card to dealer+0 | 14-13-13-13 |" in text
