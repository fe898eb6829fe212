"""The fairness page: charts and tables for every game and table size, in each language,
from the measured data file; linked from the rules and the new-game form. The data file
itself matches today's deals and was measured with enough rounds.

The page's figures are checked against oracles of their own, not against the page's
code: each seat's share worked out from the rounds it lost (exact fractions, rounded half
up by hand), the site's deal named by the engine's dealing, and the loss rates played
again by the simulator."""

import copy
import math
import re
from fractions import Fraction

import pytest

from games import fairness_data
from games.engine import VARIANTS, deal_start_offset, dealt_counts
from games.fairness_data import fairer_than
from tools.fairness.simulator import simulate

pytestmark = pytest.mark.django_db

ROWS = [(v.key, n) for v in VARIANTS.values() for n in range(v.min_players, v.max_players + 1)]
NBSP = "\u00a0"
#: The column headings of a table size's table, and the data file's deal under each.
COLUMNS = {
    "Own deal": "default",
    "The other deal": "other",
    "Fairest start": "best_start",
    "Balanced": "balanced",
    "Best measured": "outside_best",
}


def page(client, language="en", path="/fairness/") -> str:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def table_block(html: str, key: str, n: int) -> str:
    return html.split(f'id="fair-{key}-{n}"', 1)[1].split("</details>", 1)[0]


def shown_table(block: str) -> dict:
    """The table under a chart as the reader sees it: its column headings, each seat's
    row of cells (dealer first), the cards dealt and the spreads, one cell per column."""
    head = block.split("<thead>", 1)[1].split("</thead>", 1)[0]
    body = block.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    foot = block.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    cells = re.compile(r'<td class="num">(.*?)</td>')
    feet = [cells.findall(row) for row in foot.split("</tr>") if "<td" in row]
    return {
        "columns": re.findall(r'<th scope="col">(.*?)</th>', head)[1:],
        "seats": [cells.findall(row) for row in body.split("</tr>") if "<td" in row],
        "counts": feet[0],
        "spreads": feet[1],
    }


def half_up_tenths(fraction: Fraction) -> str:
    """A non-negative number to one decimal, rounded half up, worked out by hand."""
    tenths = math.floor(fraction * 10 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}"


def share_of_losses(losses: int, rounds: int) -> str:
    """The share of rounds a seat lost, as the English page should print it."""
    return f"{half_up_tenths(Fraction(100 * losses, rounds))}{NBSP}%"


def spread_of_losses(losses: list[int], rounds: int) -> str:
    """The highest seat's share minus the lowest's, in percentage points."""
    return half_up_tenths(Fraction(100 * (max(losses) - min(losses)), rounds))


def measured(row: dict, column: str) -> dict:
    if column == "default":
        return row[row["default_deal"]]
    if column == "other":
        return row["traditional" if row["default_deal"] == "fair" else "fair"]
    return row[column]


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "How fair is the deal?"), ("ja", "配り方は公平？"), ("zh-hans", "发牌公平吗？")],
)
def test_every_game_and_table_size_has_a_chart_and_a_table(client, language, heading):
    html = page(client, language)
    assert f'lang="{language}"' in html and f">{heading}</h1>" in html
    for key, n in ROWS:
        block = table_block(html, key, n)
        # The chart: an image with a title and a description, one bar per seat and deal.
        assert '<svg class="chart"' in block and 'role="img"' in block
        assert f'aria-labelledby="fair-{key}-{n}-t fair-{key}-{n}-d"' in block
        assert f'<title id="fair-{key}-{n}-t">' in block
        assert f'<desc id="fair-{key}-{n}-d">' in block
        deals = len(re.findall(r'<th scope="col">', block)) - 1
        assert deals in (2, 3, 4)
        assert block.count('<rect class="series-') == n * deals
        # The same numbers in a table that scrolls in its own box, with a caption.
        assert 'class="table-scroll" tabindex="0" role="region"' in block
        assert f'<caption id="fair-{key}-{n}-caption">' in block
        assert block.count('<th scope="row">') == n + 2  # seats, cards dealt, spread


def test_each_seats_share_is_the_rounds_it_lost_over_the_rounds_played(client):
    """Every cell of every table, worked out again from the raw loss counts; the first
    column is the deal the engine deals today."""
    html = page(client)
    data = {(r["variant"], r["players"]): r for r in fairness_data.load()["rows"]}
    for key, n in ROWS:
        row, shown = data[(key, n)], shown_table(table_block(html, key, n))
        assert shown["columns"][0] == "Own deal", (key, n)
        offered = fairness_data.balanced_deal(key, n) is not None
        assert ("Balanced" in shown["columns"]) is offered, (key, n)
        assert shown["counts"][0] == "-".join(map(str, dealt_counts(VARIANTS[key], n, 0)))
        assert len(shown["seats"]) == n
        for i, heading in enumerate(shown["columns"]):
            report = measured(row, COLUMNS[heading])
            losses, rounds = report["losses"], report["rounds"]
            assert sum(losses) == rounds, (key, n, heading)
            assert shown["counts"][i] == "-".join(map(str, report["counts"]))
            column = [seat[i] for seat in shown["seats"]]
            assert column == [share_of_losses(x, rounds) for x in losses], (key, n, heading)
            assert shown["spreads"][i].startswith(f"{spread_of_losses(losses, rounds)} (")


@pytest.mark.parametrize(("key", "n"), [("jijinuki", 3), ("schwarzer_peter", 4)])
def test_the_sites_deal_loses_as_often_as_a_fresh_simulation_says(client, key, n):
    """The shares printed for the site's deal, seat by seat, agree with rounds played
    again now (another seed, the engine's deal of today) within chance. At these tables
    the seats' shares differ by about 20 points, so a seat out of place cannot pass."""
    rounds = 50_000
    fresh = simulate(key, n, rounds, seed=20_261_201)
    shown = shown_table(table_block(page(client), key, n))
    for seat, cells in enumerate(shown["seats"]):
        printed = float(cells[0].removesuffix(f"{NBSP}%")) / 100
        p = fresh.lose_rate[seat]
        # 4.5 standard errors of the fresh run and of the million measured rounds, plus
        # the half tenth of a point the page rounds away.
        se = math.sqrt(p * (1 - p) * (1 / rounds + 1 / 1_000_000))
        assert abs(printed - p) < 4.5 * se + 0.0005, (key, n, seat)
    assert shown["counts"][0] == "-".join(map(str, fresh.counts))


@pytest.mark.parametrize(("language", "sign"), [("en", f"{NBSP}%"), ("ja", "%"), ("zh-hans", "%")])
def test_shares_are_rounded_half_up_in_the_readers_way(client, monkeypatch, language, sign):
    """1.25 % is shown as 1.3 (half up, not to the even 1.2) and 98.75 % as 98.8, with the
    language's own percent sign."""
    data = copy.deepcopy(fairness_data.load())
    row = next(r for r in data["rows"] if (r["variant"], r["players"]) == ("babanuki", 2))
    row["fair"]["lose_rate"] = [0.0125, 0.9875]
    monkeypatch.setattr(fairness_data, "load", lambda: data)
    shown = shown_table(table_block(page(client, language), "babanuki", 2))
    assert [seat[0] for seat in shown["seats"]] == [f"1.3{sign}", f"98.8{sign}"]


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
def test_the_rules_and_the_new_game_form_link_to_it(client, language):
    for path in ("/rules/", "/new/"):
        assert 'href="/fairness/"' in page(client, language, path)
    assert 'href="/rules/#dealing"' in page(client, language)


def test_the_rules_page_says_who_gets_the_first_card(client):
    html = page(client, "en", "/rules/")
    table = html.split('id="dealing-title"', 1)[1].split("</table>", 1)[0]
    assert "the dealer<br>" in table and "the player on the dealer&#x27;s left<br>" in table
    assert "the player 4 seats left of the dealer" in table  # Babanuki, 7 players
    for variant in VARIANTS.values():
        for n in range(variant.min_players, variant.max_players + 1):
            assert "-".join(map(str, dealt_counts(variant, n, 0))) in table


def test_the_data_file_matches_todays_deals_and_is_measured_enough():
    data = fairness_data.load()
    rows = {(r["variant"], r["players"]): r for r in data["rows"]}
    assert set(rows) == set(ROWS)
    for (key, n), row in rows.items():
        variant = VARIANTS[key]
        default = row[row["default_deal"]]
        assert row["default_deal"] == variant.dealing
        assert default["counts"] == dealt_counts(variant, n, 0)
        assert row["default_offset"] == deal_start_offset(variant, n)
        assert default["rounds"] >= 1_000_000
        assert row["outside_best"]["rounds"] >= 1_000_000
        # The default stays within RULES.md 2.1; the comparison lies outside it.
        assert max(default["counts"]) - min(default["counts"]) <= 1
        outside = row["outside_best"]["counts"]
        assert max(outside) - min(outside) >= 2 and sum(outside) == variant.deck_size
        assert all(r["rounds"] >= 200_000 for r in row["round_robin"])
        if variant.dealing == "fair":
            # No round-robin start is meaningfully fairer than the one the site uses.
            assert not fairer_than(row["best_start"], default), (key, n)
