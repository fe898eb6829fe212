"""Measure the simulator on one core and record the figures in docs/performance.md:
``python -m tools.bench_engine [--write docs/performance.md]`` (``make bench``).

The full rules engine is measured in the same run as the baseline for the fast path, so
the ratio means something on a noisy shared machine.
"""

import argparse
import datetime
import os
import platform
import time
from pathlib import Path

import numpy as np

from tools.fairness.simulator import simulate

START = "<!-- bench_engine:start (written by python -m tools.bench_engine) -->"
END = "<!-- bench_engine:end -->"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def write_section(
    path: Path, start: str, end: str, block: str, heading: str = "# Performance\n"
) -> None:
    """Put ``block`` (which begins with ``start`` and ends with ``end``) in place of the
    section between those markers in ``path``, or at its end the first time (after
    ``heading`` when there is no file yet)."""
    text = path.read_text() if path.exists() else heading
    if start in text and end in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


def timed(**kwargs):
    started = time.perf_counter()
    report = simulate(**kwargs)
    return report, time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_engine",
        description="Benchmark the fairness simulator (fast path and full engine) on one core.",
    )
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--full-rounds", type=int, default=20_000)
    parser.add_argument("--write", default=None, help="the Markdown file to update")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.full_rounds < 1:
        parser.error("--rounds and --full-rounds must be at least 1")
    rounds, full_rounds = args.rounds, args.full_rounds

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    simulate("babanuki", 4, 10_000, seed=0)  # warm the lookup tables
    rows = []
    for variant, players in (("babanuki", 4), ("babanuki", 8), ("schwarzer_peter", 4)):
        fast, fast_s = timed(variant=variant, players=players, rounds=rounds, seed=1)
        full, full_s = timed(
            variant=variant, players=players, rounds=full_rounds, seed=1, engine="full"
        )
        rows.append((variant, players, rounds / fast_s, full_rounds / full_s, fast.mean_draws))
    lines = [
        START,
        "",
        f"Measured {datetime.date.today().isoformat()} on one core of a "
        f"{os.cpu_count()}-core {cpu_model()}, Python {platform.python_version()}, "
        f"numpy {np.__version__} (`make bench`).",
        "",
        "| rounds of | fast path, rounds/s | full engine, rounds/s | ratio | draws/round |",
        "|---|---|---|---|---|",
    ]
    for variant, players, fast_rate, full_rate, draws in rows:
        lines.append(
            f"| {variant}, {players} players | {fast_rate:,.0f} | {full_rate:,.0f} | "
            f"{fast_rate / full_rate:.0f}x | {draws:.1f} |"
        )
    lines += ["", END]
    block = "\n".join(lines)
    print(block)
    if args.write:
        write_section(Path(args.write), START, END, block)


if __name__ == "__main__":
    main()
