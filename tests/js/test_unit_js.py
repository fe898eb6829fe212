"""The table's pure client modules have unit tests under node's own test runner
(tests/js/unit/*.test.mjs): the socket's reconnect and back-off with a fake WebSocket and
fake timers, and the ply; the ending's words; scene.js's geometry (every seat of 2 to 8
on the felt and on the stage, yours at the near edge, hands clear of each other, the fit
into any stage from a phone to a laptop, the giver's hand settled and shrunk clear,
separate() leaving name tags apart); view.js's questions (the near seat, whose hand shows
face up, your turn, the odd card, the same device's curtain and hold) on states shaped
as the server sends them; the words (fill, seat names, counted words by plural rules,
card names per variant and language, a pair, strikes); and the name tags (presence
notes, cards, score or strike marks, places, the odd card's holder); and the odd card's
moment (whose it is on this page, its words per variant). This runs them, so
`make test` does, and fails with node's report when one of them fails."""

import re
import subprocess

from tests.support import ROOT

UNIT = ROOT / "tests" / "js" / "unit"


def test_the_node_unit_tests_of_the_client_modules_all_pass(node):
    files = sorted(UNIT.glob("*.test.mjs"))
    assert files, "no node unit test found"
    run = subprocess.run(
        [node, "--test", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    passed = re.search(r"^# pass (\d+)$", report, re.M)
    failed = re.search(r"^# fail (\d+)$", report, re.M)
    assert passed and int(passed.group(1)) >= 74, report
    assert failed and failed.group(1) == "0", report
