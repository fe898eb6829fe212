"""The table page's weight and how soon it can be played, in a real browser:
``python -m tools.page_weight [--write docs/performance.md]`` (``make bench-page``).

Starts a server of its own on a fresh SQLite database (production static files:
collected, hashed, no debug toolbar), opens a game versus the computer in Debian's
Chromium with an empty cache, and records every response the page loads. The weight is
what a first visit transfers with gzip (each text body compressed as nginx does; images
and already-compressed bodies counted as they are). "Playable" is the time from the
start of navigation until the giver's cards can be clicked on the player's turn, or the
table shows whose turn it is (the computer may play first).
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = "<!-- page_weight:start (written by python -m tools.page_weight) -->"
END = "<!-- page_weight:end -->"
TEXT = ("text/", "application/javascript", "application/json", "image/svg+xml")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workdir: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "REDIS_URL": "",
        "STATIC_ROOT": str(workdir / "static"),
        "COMPUTER_DELAY_SECONDS": "0.9",
    }
    python = sys.executable
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [python, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return server, port
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("page_weight: the server did not start")


def weigh(site: str, runs: int, viewport: dict) -> dict:
    from playwright.sync_api import sync_playwright

    # The browser tests' browser (tests/browser/conftest.py): Debian's headless shell.
    chromium = shutil.which("chromium-headless-shell")
    if not chromium:
        raise SystemExit("page_weight: needs Debian's chromium-headless-shell (scripts/browser.sh)")
    weights, playable = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for _ in range(runs):
            context = browser.new_context(viewport=viewport)  # an empty cache every time
            page = context.new_page()
            page.goto(f"{site}/new/")
            page.locator("input[name=mode][value=computer]").check()
            responses: list = []

            def keep(response, responses=responses):
                responses.append(response)

            page.on("response", keep)
            started = time.monotonic()
            page.locator("form.new-game button[type=submit]").click()
            page.wait_for_function(
                "() => document.querySelector('#giver-hand .card') || "
                "(document.querySelector('#status-line')?.textContent || '').length > 0",
                timeout=30_000,
            )
            playable.append(time.monotonic() - started)
            page.wait_for_load_state("networkidle")
            total = files = 0
            for response in responses:
                if response.status != 200:
                    continue
                body, kind = response.body(), response.headers.get("content-type", "")
                total += len(gzip.compress(body, 6)) if kind.startswith(TEXT) else len(body)
                files += 1
            weights.append(total)
            context.close()
        browser.close()
    return {
        "kb": statistics.median(weights) / 1024,
        "files": files,
        "playable_ms": statistics.median(playable) * 1000,
        "worst_ms": max(playable) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", type=Path, help="record the figures in this file")
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    with tempfile.TemporaryDirectory() as tmp:
        server, port = start_server(Path(tmp))
        try:
            site = f"http://127.0.0.1:{port}"
            laptop = weigh(site, options.runs, {"width": 1366, "height": 768})
            phone = weigh(site, options.runs, {"width": 360, "height": 740})
        finally:
            server.terminate()
            server.wait(10)
    rows = [
        f"| {name} | {r['kb']:.1f} KB in {r['files']} files | "
        f"{r['playable_ms']:.0f} ms (worst {r['worst_ms']:.0f} ms) |"
        for name, r in (("1366x768", laptop), ("360x740", phone))
    ]
    block = "\n".join(
        [
            START,
            f"Measured {time.strftime('%Y-%m-%d')} by `python -m tools.page_weight`, median of "
            f"{options.runs} first visits each (empty cache), on this 2-core machine.",
            "",
            "| viewport | table page transferred (gzip) | navigation to playable |",
            "|---|---|---|",
            *rows,
            END,
        ]
    )
    print(block)
    if options.write:
        from tools.bench_engine import write_section

        write_section(options.write, START, END, block)


if __name__ == "__main__":
    main()
