"""Measure every variant, player count and deal, and write the tables in docs/fairness.md.

Where the remainder rule leaves the fair deal's start open, every start is measured and
the one with the smallest spread between seats is reported as the fair deal; the command
prints those starts for ``games/engine/dealing.py`` (MEASURED_FAIR_STARTS).
"""

import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.core.management.base import BaseCommand

from games.engine import VARIANTS, dealt_counts
from games.engine.dealing import deal_start_offset
from games.engine.fairness import simulate

START = "<!-- tables:start (written by manage.py fairness_tables) -->"
END = "<!-- tables:end -->"


def fair_start_is_open(deck_size: int, players: int) -> bool:
    return deck_size % players not in (0, 1, players - 1)


def _measure(job):
    variant, players, offset, rounds = job
    seed = zlib.crc32(f"{variant}/{players}/{offset}".encode())
    return job, simulate(variant, players, rounds, deal_offset=offset, seed=seed)


class Command(BaseCommand):
    help = "Measure loss rates for every variant, player count and deal; write docs/fairness.md."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=1_000_000)
        parser.add_argument("--jobs", type=int, default=2)
        parser.add_argument("--write", default=None, help="the Markdown file to update")

    def handle(self, *args, rounds, jobs, write, **opts):
        jobs_list = []
        for variant in VARIANTS.values():
            for n in range(variant.min_players, variant.max_players + 1):
                offsets = (
                    range(n)
                    if fair_start_is_open(variant.deck_size, n)
                    else {deal_start_offset(variant, n, d) for d in ("fair", "traditional")}
                )
                jobs_list += [(variant.key, n, off, rounds) for off in sorted(offsets)]
        started = time.perf_counter()
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = {job[:3]: report for job, report in pool.map(_measure, jobs_list)}
        seconds = time.perf_counter() - started
        total = sum(r.rounds for r in results.values())
        self.stderr.write(f"{total:,} rounds in {seconds:.0f} s")

        measured_starts = {}
        lines = [START, ""]
        for variant in VARIANTS.values():
            lines += [
                f"### {variant.name} (`{variant.key}`, {variant.deck_size} cards)",
                "",
                "| players | deal | first card to | cards dealt | lose rate by seat "
                "(dealer first) | spread | mean draws |",
                "|---|---|---|---|---|---|---|",
            ]
            appendix = []
            for n in range(variant.min_players, variant.max_players + 1):
                if fair_start_is_open(variant.deck_size, n):
                    by_offset = {off: results[(variant.key, n, off)] for off in range(n)}
                    fair = min(by_offset, key=lambda off: (by_offset[off].spread, off))
                    measured_starts[(variant.key, n)] = fair
                    appendix.append(
                        f"- {n} players: "
                        + ", ".join(
                            f"dealer+{off}: spread {r.spread:.4f}" for off, r in by_offset.items()
                        )
                        + f" → the fair deal starts at dealer+{fair}"
                    )
                else:
                    fair = deal_start_offset(variant, n, "fair")
                for deal, offset in (("fair", fair), ("traditional", 1 % n)):
                    report = results[(variant.key, n, offset)]
                    counts = "-".join(map(str, dealt_counts(variant, n, 0, deal_offset=offset)))
                    rates = " ".join(f"{x:.3f}" for x in report.lose_rate)
                    lines.append(
                        f"| {n} | {deal} | dealer+{offset} | {counts} | {rates} | "
                        f"{report.spread:.3f} | {report.mean_draws:.1f} |"
                    )
            lines.append("")
            if appendix:
                lines += ["Fair-deal starts measured (every start, smallest spread wins):", ""]
                lines += appendix + [""]
        lines += [
            f"Each row: {rounds:,} rounds, fast engine. Measured in {seconds:.0f} s "
            f"({total / seconds:,.0f} rounds per second with {jobs} processes).",
            "",
            END,
        ]
        block = "\n".join(lines)
        if write:
            path = Path(write)
            text = path.read_text() if path.exists() else ""
            if START in text and END in text:
                text = text[: text.index(START)] + block + text[text.index(END) + len(END) :]
            else:
                text = text + "\n" + block + "\n"
            path.write_text(text)
            self.stderr.write(f"wrote {path}")
        else:
            self.stdout.write(block)
        self.stdout.write("MEASURED_FAIR_STARTS = {")
        for (key, n), off in sorted(measured_starts.items()):
            self.stdout.write(f'    ("{key}", {n}): {off},')
        self.stdout.write("}")
