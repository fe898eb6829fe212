"""python manage.py fairness --variant V --players N --rounds R [--deal D] [--json]

``--deal`` is ``fair``, ``traditional`` or the cards per seat, dealer first, like
``13,10,10,10,10`` (dealt one at a time clockwise from the dealer's left, skipping a seat
once it has its count).
"""

import json
import time

from django.core.management.base import BaseCommand, CommandError

from games.engine import VARIANTS
from games.engine.fairness import ENGINES, parse_deal, simulate

MAX_ROUNDS = 100_000_000


class Command(BaseCommand):
    help = "Simulate many rounds and print each seat's loss rate (seat 0 is the dealer)."

    def add_arguments(self, parser):
        parser.add_argument("--variant", required=True, choices=sorted(VARIANTS))
        parser.add_argument("--players", required=True, type=int)
        parser.add_argument("--rounds", type=int, default=100_000)
        parser.add_argument(
            "--deal",
            default=None,
            metavar="fair|traditional|COUNTS",
            help="fair, traditional, or cards per seat, dealer first (e.g. 13,10,10,10,10)",
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--engine", choices=ENGINES, default="fast")
        parser.add_argument("--same-colour-pairs", action="store_true")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        if not 1 <= opts["rounds"] <= MAX_ROUNDS:
            raise CommandError(f"--rounds must be from 1 to {MAX_ROUNDS:,}")
        started = time.perf_counter()
        try:
            deal = parse_deal(opts["deal"])
            counts = deal if isinstance(deal, tuple) else None
            report = simulate(
                opts["variant"],
                opts["players"],
                opts["rounds"],
                deal=None if counts else deal,
                counts=counts,
                seed=opts["seed"],
                engine=opts["engine"],
                options={"same_colour_pairs": opts["same_colour_pairs"]},
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        seconds = time.perf_counter() - started
        data = report.as_dict()
        data["seconds"] = seconds
        data["rounds_per_second"] = report.rounds / seconds if seconds > 0 else None
        if opts["json"]:
            self.stdout.write(json.dumps(data))
            return
        self.stdout.write(
            f"{report.variant}, {report.players} players, {report.deal} deal "
            f"(first card to dealer+{report.deal_offset}), cards dealt "
            f"{'-'.join(map(str, report.counts))} (dealer first), {report.rounds:,} rounds, "
            f"{report.engine} engine"
        )
        self.stdout.write("seat (0 = dealer, then clockwise)   lose rate   95% interval")
        for seat, (rate, (low, high)) in enumerate(
            zip(report.lose_rate, report.lose_rate_interval, strict=True)
        ):
            self.stdout.write(f"{seat:>4}{rate:>40.4f}   {low:.4f} - {high:.4f}")
        self.stdout.write(f"spread (highest - lowest): {report.spread:.4f}")
        self.stdout.write(f"mean draws per round: {report.mean_draws:.2f}")
        self.stdout.write(f"{data['rounds_per_second']:,.0f} rounds per second ({seconds:.2f} s)")
