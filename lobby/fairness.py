"""The fairness page: the measured figures (games/fairness_data.json, written by
``python -m tools.fairness --search``) turned into charts and tables in the reader's
language. Nothing is simulated when a page is served."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from figures import charts
from figures.numbers import percent, percentage_points
from games import fairness_data
from games.engine import VARIANTS, deal_start_offset, dealt_counts
from games.fairness_data import fairer_than
from games.labels import VARIANT_NAMES


def seat_label(offset: int) -> str:
    if offset == 0:
        return _("Dealer")
    return ngettext("%(n)s seat left of the dealer", "%(n)s seats left of the dealer", offset) % {
        "n": offset
    }


def short_seat_label(offset: int) -> str:
    """A seat as the chart names it: the dealer, then +1, +2 ... going left."""
    return _("Dealer") if offset == 0 else f"+{offset}"


def counts_text(counts: list[int]) -> str:
    return "-".join(map(str, counts))


def _deal(key: str, label: str, short: str, report: dict) -> dict:
    low, high = report["spread_95"]
    return {
        "key": key,
        "label": label,
        "short": short,
        "counts": counts_text(report["counts"]),
        "rates": [percent(r) for r in report["lose_rate"]],
        "values": report["lose_rate"],
        "spread": percentage_points(report["spread"]),
        "spread_low": percentage_points(low),
        "spread_high": percentage_points(high),
        "rounds": report["rounds"],
    }


def deals_for(row: dict) -> list[dict]:
    """The deals a table size shows: the game's own deal (RULES.md section 4), the other
    deal section 4 names where it differs, a fairer first card section 4 allows, the
    balanced deal where it is offered (``fairness_data.balanced_deal``), and the best
    deal measured where it is not the balanced one."""
    default = row["default_deal"]
    other = "traditional" if default == "fair" else "fair"
    same = row[default]["counts"] == row[other]["counts"]
    names = {"fair": _("fair deal"), "traditional": _("traditional deal")}
    if same:
        label = _("The game's own deal (fair and traditional are the same here)")
    else:
        label = _("The game's own deal (%(name)s)") % {"name": names[default]}
    deals = [_deal("default", label, _("Own deal"), row[default])]
    if not same:
        label = _("The other deal the rules allow (%(name)s)") % {"name": names[other]}
        deals.append(_deal("other", label, _("The other deal"), row[other]))
    best = row.get("best_start")
    if best and all(fairer_than(best, row[name]) for name in (default, other)):
        # A start the rules allow, though not the one this game's rules prescribe.
        label = _("Fairest first card the rules allow: %(seat)s") % {
            "seat": first_card_to(best["offset"])
        }
        deals.append(_deal("start", label, _("Fairest start"), best))
    balanced = fairness_data.balanced_deal(row["variant"], row["players"])
    if balanced:
        label = _("The balanced deal (a house rule, on by default here)")
        deals.append(_deal("balanced", label, _("Balanced"), balanced))
    best = row.get("outside_best")
    if best and not (balanced and best["counts"] == balanced["counts"]):
        label = _("Best deal measured, for comparison")
        deals.append(_deal("outside", label, _("Best measured"), best))
    return deals


def table_for(variant, row: dict) -> dict:
    n = row["players"]
    deals = deals_for(row)
    name = VARIANT_NAMES[variant.key]
    chart_id = f"fair-{variant.key}-{n}"
    players = ngettext("%(n)s player", "%(n)s players", n) % {"n": n}
    labels = [seat_label(i) for i in range(n)]
    short_labels = [short_seat_label(i) for i in range(n)]
    title = _("%(game)s, %(players)s: how often each seat loses") % {
        "game": name,
        "players": players,
    }
    description = " ".join(
        [_("Seats are counted from the dealer, going left.")]
        + [
            _("%(deal)s: %(rates)s (dealer first).")
            % {"deal": d["label"], "rates": ", ".join(d["rates"])}
            for d in deals
        ]
    )
    chart = charts.grouped_bars(
        chart_id,
        title,
        description,
        short_labels,
        [charts.Series(d["label"], d["values"]) for d in deals],
        formatted=[d["rates"] for d in deals],
        reference=1 / n,
        reference_label=_("fair share %(share)s") % {"share": percent(1 / n)},
    )
    return {
        "id": chart_id,
        "players": n,
        "players_label": players,
        "title": title,
        "chart": chart,
        "deals": deals,
        "seats": [
            {"label": label, "rates": [d["rates"][i] for d in deals]}
            for i, label in enumerate(labels)
        ],
        "default": deals[0],
        "balanced": next((d for d in deals if d["key"] == "balanced"), None),
    }


def page_context() -> dict:
    data = fairness_data.load()
    rows = {(r["variant"], r["players"]): r for r in data["rows"]}
    variants = []
    for variant in VARIANTS.values():
        tables = [
            table_for(variant, rows[(variant.key, n)])
            for n in range(variant.min_players, variant.max_players + 1)
            if (variant.key, n) in rows
        ]
        variants.append(
            {
                "key": variant.key,
                "name": VARIANT_NAMES[variant.key],
                "fair_by_default": variant.dealing == "fair",
                "flow_n": variant.flow == "N",
                "tables": tables,
            }
        )
    final = data["rounds"]["final"]
    return {
        "variants": variants,
        "final_rounds": final,
        "final_rounds_text": number_format(final, force_grouping=True),
    }


def first_card_to(offset: int) -> str:
    """Who receives the first card, in words a dealer at a real table can follow."""
    if offset == 0:
        return _("the dealer")
    if offset == 1:
        return _("the player on the dealer's left")
    return ngettext(
        "the player %(n)s seat left of the dealer",
        "the player %(n)s seats left of the dealer",
        offset,
    ) % {"n": offset}


def balanced_rows() -> list[dict]:
    """For the rules page, by game: every table where the balanced deal is offered, with
    who gets the first card and the counts, dealer first (``fairness_data.balanced_deal``)."""
    games = []
    for variant in VARIANTS.values():
        rows = []
        for n in range(variant.min_players, variant.max_players + 1):
            deal = fairness_data.balanced_deal(variant.key, n)
            if deal is not None:
                rows.append(
                    {
                        "players": n,
                        "first": first_card_to(deal["offset"]),
                        "counts": counts_text(deal["counts"]),
                    }
                )
        if rows:
            games.append({"game": VARIANT_NAMES[variant.key], "rows": rows})
    return games


def dealing_rows() -> dict:
    """For the rules page: who gets the first card, and the counts that follow, for each
    game and table size, as the engine deals them (dealing.deal_start_offset)."""
    variants = list(VARIANTS.values())
    rows = []
    for n in range(2, 9):
        cells = []
        for variant in variants:
            # Each cell names its game: a phone shows the rows as cards, no column heads.
            game = VARIANT_NAMES[variant.key]
            if not variant.min_players <= n <= variant.max_players:
                cells.append({"game": game})
                continue
            offset = deal_start_offset(variant, n)
            cells.append(
                {
                    "game": game,
                    "first": first_card_to(offset),
                    "counts": counts_text(dealt_counts(variant, n, 0)),
                }
            )
        rows.append({"players": n, "cells": cells})
    return {
        "dealing_variants": [VARIANT_NAMES[v.key] for v in variants],
        "dealing_rows": rows,
        "balanced_rows": balanced_rows(),
    }
