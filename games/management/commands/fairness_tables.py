"""Search and measure deals for every variant and table size (games/fairness_search.py),
write the figures to games/fairness_data.json, and the tables in docs/fairness.md.

    manage.py fairness_tables --search              # measure (about 20 minutes, 2 processes)
    manage.py fairness_tables --write docs/fairness.md   # tables from the data file
"""

import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.core.management.base import BaseCommand

from games import fairness_data, fairness_search
from games.fairness_data import DATA_PATH

START = "<!-- tables:start (written by manage.py fairness_tables) -->"
END = "<!-- tables:end -->"


def _row(job):
    started = time.process_time()
    row = fairness_search.search_row(*job)
    row["cpu_seconds"] = round(time.process_time() - started, 1)
    return row


class Command(BaseCommand):
    help = "Search deals for every variant and player count; write the data file and docs."

    def add_arguments(self, parser):
        parser.add_argument("--search", action="store_true", help="measure (slow)")
        parser.add_argument("--jobs", type=int, default=2)
        parser.add_argument("--data", default=str(DATA_PATH), help="the JSON data file")
        parser.add_argument("--write", default=None, help="the Markdown file to update")

    def handle(self, *args, search, jobs, data, write, **opts):
        data_path = Path(data)
        if search:
            started = time.perf_counter()
            jobs_list = sorted(fairness_search.rows(), key=lambda r: -r[1])  # big tables first
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                found = list(pool.map(_row, jobs_list))
            found.sort(key=lambda r: (r["variant"], r["players"]))
            payload = {
                "rounds": {
                    "screen": fairness_search.SCREEN_ROUNDS,
                    "candidate": fairness_search.CANDIDATE_ROUNDS,
                    "final": fairness_search.FINAL_ROUNDS,
                },
                "wall_seconds": round(time.perf_counter() - started),
                "cpu_seconds": round(sum(r["cpu_seconds"] for r in found)),
                "rows": found,
            }
            data_path.write_text(fairness_data.dumps(payload))
            self.stderr.write(f"wrote {data_path} in {payload['wall_seconds']} s")
        if write:
            from games.fairness_report import render_tables

            block = render_tables(json.loads(data_path.read_text()), START, END)
            path = Path(write)
            text = path.read_text() if path.exists() else ""
            if START in text and END in text:
                text = text[: text.index(START)] + block + text[text.index(END) + len(END) :]
            else:
                text = text + "\n" + block + "\n"
            path.write_text(text)
            self.stderr.write(f"wrote {path}")
