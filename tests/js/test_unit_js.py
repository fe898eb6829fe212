"""The table's pure client modules have unit tests under node's own test runner
(tests/js/unit/*.test.mjs: the socket's reconnect and back-off with a fake WebSocket and
fake timers, the ply, the ending's words); this runs them, so `make test` does, and fails
with node's report when one of them fails."""

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
    assert passed and int(passed.group(1)) >= 19, report
    assert failed and failed.group(1) == "0", report
