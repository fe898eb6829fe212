"""``python -m tools.fairness``: simulate one deal, or search every deal and write the
figures (games/fairness_data.json) and docs/fairness.md's tables.

    python -m tools.fairness --variant V --players N [--rounds R] [--deal D] [--json]
    python -m tools.fairness --search --write docs/fairness.md   # measure (make fairness)
    python -m tools.fairness --write docs/fairness.md            # tables from the data file
    python -m tools.fairness --balanced                          # measure the balanced deals

``--deal`` is ``default`` (the deal a new room uses by default: the balanced deal where
it is offered, ``games.fairness_data.balanced_deal``, else the variant's own),
``balanced``, ``fair``, ``traditional`` or the cards per seat, dealer first, like
``13,10,10,10,10`` (dealt one at a time clockwise from the dealer's left, skipping a seat
once it has its count).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from games import fairness_data
from games.engine import VARIANTS, get_variant
from games.engine.dealing import BALANCED_DEALS
from games.fairness_data import DATA_PATH
from tools.fairness import report
from tools.fairness import search as deal_search
from tools.fairness.simulator import ENGINES, parse_deal, simulate

MAX_ROUNDS = 100_000_000
SIMULATE = ("variant", "players", "rounds", "deal", "seed", "engine", "same_colour_pairs", "json")
TABLES = ("search", "balanced", "jobs", "data", "write")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tools.fairness",
        description="Measure how often each seat loses: one deal (--variant, --players), "
        "or every deal of every game and table size (--search) and the docs' tables "
        "(--write).",
    )
    one = p.add_argument_group(
        "one deal", "simulate many rounds and print each seat's loss rate (seat 0 is the dealer)"
    )
    one.add_argument("--variant", choices=sorted(VARIANTS), default=None)
    one.add_argument("--players", type=int, default=None)
    one.add_argument("--rounds", type=int, default=None, help="default 100,000")
    one.add_argument(
        "--deal",
        default=None,
        metavar="default|balanced|fair|traditional|COUNTS",
        help="default (what a new room deals by default), balanced, fair, traditional, "
        "or cards per seat, dealer first (e.g. 13,10,10,10,10)",
    )
    one.add_argument("--seed", type=int, default=None)
    one.add_argument("--engine", choices=ENGINES, default=None, help="default fast")
    one.add_argument("--same-colour-pairs", action="store_true", default=None)
    one.add_argument("--json", action="store_true", default=None, help="print one JSON object")
    every = p.add_argument_group(
        "every deal", "search deals for every variant and player count; write the data and docs"
    )
    every.add_argument("--search", action="store_true", default=None, help="measure (slow)")
    every.add_argument(
        "--balanced",
        action="store_true",
        default=None,
        help="choose and measure each row's balanced deal again (a million rounds each)",
    )
    every.add_argument("--jobs", type=int, default=None, help="processes (default 2)")
    every.add_argument(
        "--data", default=None, help="the JSON data file (default games/fairness_data.json)"
    )
    every.add_argument("--write", default=None, help="the Markdown file to update")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    opts = vars(p.parse_args(argv))
    one = [name for name in SIMULATE if opts[name] is not None]
    every = [name for name in TABLES if opts[name] is not None]
    if one and every:
        p.error(
            f"--{one[0].replace('_', '-')} simulates one deal and --{every[0]} works on every "
            "deal: give one or the other"
        )
    if one:
        if opts["variant"] is None or opts["players"] is None:
            p.error("simulating one deal needs --variant and --players")
        try:
            simulate_one(opts)
        except ValueError as exc:
            p.error(str(exc))
        return 0
    if not (opts["search"] or opts["balanced"] or opts["write"]):
        p.error(
            "say what to measure: --variant and --players, or --search, --balanced and/or --write"
        )
    tables(
        search=bool(opts["search"]),
        balanced=bool(opts["balanced"]),
        jobs=opts["jobs"] or 2,
        data=Path(opts["data"] or DATA_PATH),
        write=opts["write"],
    )
    return 0


def simulate_one(opts: dict) -> None:
    rounds = 100_000 if opts["rounds"] is None else opts["rounds"]
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"--rounds must be from 1 to {MAX_ROUNDS:,}")
    started = time.perf_counter()
    deal = parse_deal(opts["deal"])
    offset, name = None, None
    if deal == "default":
        offered = fairness_data.balanced_deal(opts["variant"], opts["players"])
        deal = "balanced" if offered else None
    if deal == "balanced":
        key = (opts["variant"], opts["players"])
        if key not in BALANCED_DEALS:
            raise ValueError(
                f"{get_variant(opts['variant']).name} with {opts['players']} players has no "
                "balanced deal: its own deal is already fair there"
            )
        deal, offset = BALANCED_DEALS[key]
        name = "balanced"
    counts = deal if isinstance(deal, tuple) else None
    report = simulate(
        opts["variant"],
        opts["players"],
        rounds,
        deal=None if counts else deal,
        deal_offset=offset,
        counts=counts,
        seed=opts["seed"],
        engine=opts["engine"] or "fast",
        options={"same_colour_pairs": bool(opts["same_colour_pairs"])},
    )
    seconds = time.perf_counter() - started
    data = report.as_dict()
    data["deal"] = name or report.deal
    data["seconds"] = seconds
    data["rounds_per_second"] = report.rounds / seconds if seconds > 0 else None
    if opts["json"]:
        print(json.dumps(data))
        return
    print(
        f"{report.variant}, {report.players} players, {data['deal']} deal "
        f"(first card to dealer+{report.deal_offset}), cards dealt "
        f"{'-'.join(map(str, report.counts))} (dealer first), {report.rounds:,} rounds, "
        f"{report.engine} engine"
    )
    print("seat (0 = dealer, then clockwise)   lose rate   95% interval")
    for seat, (rate, (low, high)) in enumerate(
        zip(report.lose_rate, report.lose_rate_interval, strict=True)
    ):
        print(f"{seat:>4}{rate:>40.4f}   {low:.4f} - {high:.4f}")
    print(f"spread (highest - lowest): {report.spread:.4f}")
    print(f"mean draws per round: {report.mean_draws:.2f}")
    print(f"{data['rounds_per_second']:,.0f} rounds per second ({seconds:.2f} s)")


def tables(*, search: bool, balanced: bool, jobs: int, data: Path, write: str | None) -> None:
    if search:
        payload = deal_search.measure_all(jobs)
        data.write_text(deal_search.dumps(payload))
        print(f"wrote {data} in {payload['wall_seconds']} s", file=sys.stderr)
    elif balanced:
        payload = deal_search.add_balanced(json.loads(data.read_text()), jobs)
        data.write_text(deal_search.dumps(payload))
        print(f"wrote {data} in {payload['balanced_wall_seconds']} s", file=sys.stderr)
    if write:
        report.write_tables(data, Path(write))
        print(f"wrote {write}", file=sys.stderr)
