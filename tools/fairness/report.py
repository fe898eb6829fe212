"""docs/fairness.md's measured tables, written from games/fairness_data.json
(``python -m tools.fairness --write docs/fairness.md``)."""

from __future__ import annotations

import json
from pathlib import Path

from games.engine import VARIANTS
from games.engine.dealing import MEASURED_FAIR_STARTS
from games.fairness_data import BALANCED_MIN_GAIN, balanced_deal, balanced_gain, fairer_than
from tools.bench_engine import write_section

START = "<!-- tables:start (written by python -m tools.fairness) -->"
END = "<!-- tables:end -->"

FLOW_NAMES = {"P": "flow P (draw from the player before you)", "N": "flow N (draw from your left)"}


def _counts(counts) -> str:
    return "-".join(map(str, counts))


def _rates(report) -> str:
    return " ".join(f"{x:.3f}" for x in report["lose_rate"])


def _spread(report) -> str:
    low, high = report["spread_95"]
    return f"{report['spread']:.3f} ({low:.3f}–{high:.3f})"


def _offset(offset) -> str:
    return f"dealer+{offset}"


def _line(label, first, report) -> str:
    return (
        f"| {label} | {first} | {_counts(report['counts'])} | {_rates(report)} | "
        f"{_spread(report)} | {report['mean_draws']:.1f} |"
    )


def start_checks(data: dict) -> list[dict]:
    """For every row where the fair deal's start is measured (MEASURED_FAIR_STARTS): the
    chosen start, the fairest start at 200,000 rounds, and whether a million rounds show
    the latter meaningfully fairer."""
    checks = []
    for row in data["rows"]:
        key = (row["variant"], row["players"])
        if key not in MEASURED_FAIR_STARTS:
            continue
        chosen, best = row["fair"], row["best_start"]
        checks.append(
            {
                "variant": row["variant"],
                "players": row["players"],
                "chosen": MEASURED_FAIR_STARTS[key],
                "best": best["offset"],
                "chosen_spread": chosen,
                "best_spread": best,
                "meaningfully_fairer": best["offset"] != chosen["offset"]
                and fairer_than(best, chosen),
            }
        )
    return checks


def balanced_table(data: dict, rows: dict, rounds: dict) -> list[str]:
    """The balanced deal (RULES.md section 7) of every row: its counts and first card,
    its spread beside the game's own deal's, and whether a new room deals it by default
    (``games.fairness_data.balanced_deal``)."""
    out = [
        "### The balanced deal",
        "",
        "Chosen by `python -m tools.fairness --balanced` among the measured candidates "
        f'(see "The balanced deal" above), then played {rounds["final"]:,} fresh rounds. '
        f"Offered, and on by default, where the game's own deal's spread is larger by at "
        f"least {BALANCED_MIN_GAIN}.",
        "",
        "| variant | players | balanced deal | first card to | spread (95%) | own deal's spread "
        "| gain | new rooms deal |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for variant in VARIANTS.values():
        for n in range(variant.min_players, variant.max_players + 1):
            row = rows.get((variant.key, n))
            if row is None or not row.get("balanced"):
                continue
            balanced, own = row["balanced"], row[row["default_deal"]]
            offered = balanced_deal(variant.key, n, data) is not None
            deals = "the balanced deal" if offered else "the game's own deal (not offered)"
            out.append(
                f"| {variant.name} | {n} | {_counts(balanced['counts'])} | "
                f"{_offset(balanced['offset'])} | {_spread(balanced)} | {_spread(own)} | "
                f"{balanced_gain(row):.3f} | "
                f"{deals} |"
            )
    out.append("")
    return out


def write_tables(data_path: Path, target: Path) -> None:
    """Put the tables measured in ``data_path`` in place of those in ``target``."""
    block = render_tables(json.loads(data_path.read_text()), START, END)
    write_section(target, START, END, block, heading="")


def render_tables(data: dict, start: str, end: str) -> str:
    rows = {(r["variant"], r["players"]): r for r in data["rows"]}
    rounds = data["rounds"]
    out = [start, ""]
    out += [
        "### Summary: each game's own deal and the best deal measured",
        "",
        "Spread = highest seat's lose rate minus the lowest's, with its 95% interval; "
        f"{rounds['final']:,} rounds each.",
        "",
        "| variant | players | own deal (RULES.md section 4) | cards dealt | spread (95%) "
        "| best measured | spread (95%) |",
        "|---|---|---|---|---|---|---|",
    ]
    for variant in VARIANTS.values():
        for n in range(variant.min_players, variant.max_players + 1):
            row = rows.get((variant.key, n))
            if row is None:
                continue
            default = row[row["default_deal"]]
            outside = row["outside_best"]
            out.append(
                f"| {variant.name} | {n} | {row['default_deal']}, first card to "
                f"{_offset(row['default_offset'])} | {_counts(default['counts'])} | "
                f"{_spread(default)} | {_counts(outside['counts']) if outside else '–'} | "
                f"{_spread(outside) if outside else '–'} |"
            )
    out.append("")
    out += balanced_table(data, rows, rounds)

    for variant in VARIANTS.values():
        variant_rows = [
            rows[(variant.key, n)]
            for n in range(variant.min_players, variant.max_players + 1)
            if (variant.key, n) in rows
        ]
        if not variant_rows:
            continue
        flow = FLOW_NAMES[variant.flow]
        out += [
            f"### {variant.name} (`{variant.key}`, {variant.deck_size} cards, {flow}; "
            f"default deal: {variant.dealing})",
            "",
            f"{rounds['final']:,} rounds per row.",
            "",
            "| players | deal | first card to | cards dealt | lose rate by seat (dealer first) "
            "| spread (95%) | mean draws |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in variant_rows:
            n = row["players"]
            shown = set()
            for name in ("fair", "traditional"):
                report = row[name]
                label = f"{name}{' (default)' if name == row['default_deal'] else ''}"
                out.append(f"| {n} | {_line(label, _offset(report['offset']), report)[2:]}")
                shown.add(tuple(report["counts"]))
            best = row["best_start"]
            if tuple(best["counts"]) not in shown:
                out.append(f"| {n} | {_line('fairest start', _offset(best['offset']), best)[2:]}")
            if row["outside_best"]:
                out.append(
                    f"| {n} | {_line('best outside the rules', '–', row['outside_best'])[2:]}"
                )
        out += [
            "",
            f"Every round-robin start ({rounds['candidate']:,} rounds each; spread):",
            "",
        ]
        for row in variant_rows:
            seen = {}
            for r in row["round_robin"]:
                seen.setdefault(tuple(r["counts"]), []).append(r)
            parts = []
            for counts, same in seen.items():
                offs = "/".join(_offset(r["offset"]) for r in same)
                parts.append(f"{offs} ({_counts(counts)}): {same[0]['spread']:.3f}")
            out.append(f"- {row['players']} players: " + "; ".join(parts))
        out += [
            "",
            f"Outside the rules: the parity family searched ({rounds['screen']:,} rounds "
            f"each to screen, then the best {rounds['candidate']:,}; the five fairest shown):",
            "",
        ]
        for row in variant_rows:
            top = "; ".join(
                f"{_counts(r['counts'])}: {r['spread']:.3f}" for r in row["outside_top"][:5]
            )
            out.append(
                f"- {row['players']} players, {row['screened']} count vectors screened: {top}"
            )
        width = max(r["players"] for r in variant_rows)
        out += [
            "",
            "Which seat is special: the fairest deal found with the other parity at each seat "
            f"({rounds['candidate']:,} rounds each):",
            "",
            "| players | " + " | ".join(f"special seat {_offset(i)}" for i in range(width)) + " |",
            "|---|" + "---|" * width,
        ]
        for row in variant_rows:
            cells = {b["special"]: b for b in row["by_special"]}
            out.append(
                f"| {row['players']} | "
                + " | ".join(
                    (
                        f"{_counts(cells[i]['counts'])}: {cells[i]['spread']:.3f}"
                        if i in cells
                        else ""
                    )
                    for i in range(width)
                )
                + " |"
            )
        out.append("")

    checks = start_checks(data)
    if checks:
        out += [
            "### The measured fair-deal starts, checked again",
            "",
            "| variant | players | chosen start | spread (95%) | fairest start measured "
            "| spread (95%) | meaningfully fairer? |",
            "|---|---|---|---|---|---|---|",
        ]
        for c in checks:
            out.append(
                f"| {c['variant']} | {c['players']} | {_offset(c['chosen'])} | "
                f"{_spread(c['chosen_spread'])} | {_offset(c['best'])} | "
                f"{_spread(c['best_spread'])} | {'yes' if c['meaningfully_fairer'] else 'no'} |"
            )
        out.append("")
    out += [
        f"Measured in {data.get('wall_seconds', 0) / 60:.0f} minutes "
        f"({data.get('cpu_seconds', 0) / 60:.0f} CPU minutes) by "
        "`python -m tools.fairness --search`, fast engine, at the lowest CPU priority.",
        "",
        end,
    ]
    return "\n".join(out)
