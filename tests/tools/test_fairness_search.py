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


def _measured(counts, spread, half=0.002, rounds=200_000, **extra):
    return {
        "counts": list(counts),
        "rounds": rounds,
        "spread": spread,
        "spread_95": [spread - half, spread + half],
        **extra,
    }


def _row(candidates, **named):
    base = {"variant": "babanuki", "players": 5, "deck": 53, "flow": "P"}
    return {
        **base,
        "outside_top": candidates,
        "by_special": [],
        "round_robin": [],
        "fair": None,
        "traditional": None,
        "best_start": None,
        "outside_best": None,
        **named,
    }


def test_the_balanced_deal_prefers_one_seat_different_within_the_best_ones_interval():
    from tools.fairness.search import choose_balanced

    best = _measured((13, 12, 10, 10, 8), 0.009)
    simple = _measured((13, 10, 10, 10, 10), 0.012)  # intervals meet: the simple one
    row = _row([best, simple, _measured((11, 12, 10, 10, 10), 0.2)])
    assert choose_balanced(row) == {"counts": [13, 10, 10, 10, 10], "offset": 1, "special": 0}
    far = _measured((13, 10, 10, 10, 10), 0.020)  # well outside: the fairest one
    assert choose_balanced(_row([best, far]))["counts"] == [13, 12, 10, 10, 8]


def test_the_balanced_deal_takes_a_million_round_figure_and_a_flow_n_first_recipient():
    from tools.fairness.search import balanced_candidates, choose_balanced

    rr = _measured((4, 3, 4, 4, 4, 4, 4, 4), 0.0105, offset=2)
    final = _measured((4, 3, 4, 4, 4, 4, 4, 4), 0.0104, half=0.001, rounds=1_000_000)
    other = _measured((4, 1, 6, 4, 4, 4, 4, 4), 0.023)
    row = {
        **_row([other], best_start=final),
        "variant": "schwarzer_peter",
        "players": 8,
        "deck": 31,
        "flow": "N",
        "round_robin": [rr],
    }
    found = {tuple(c["counts"]): c["rounds"] for c in balanced_candidates(row)}
    assert found[(4, 3, 4, 4, 4, 4, 4, 4)] == 1_000_000
    # Dealt round-robin from dealer+2, nobody is skipped.
    assert choose_balanced(row) == {
        "counts": [4, 3, 4, 4, 4, 4, 4, 4],
        "offset": 2,
        "special": 1,
    }
