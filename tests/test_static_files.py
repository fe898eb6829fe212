"""collectstatic, as production runs it (hashed names, imports rewritten), settles every
module the pages load: each import names the hashed file of the module it imports."""

import os
import re
import subprocess
import sys

from tests.support import ROOT


def test_collectstatic_rewrites_every_import_to_a_hashed_file(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "collectstatic-test",
        "STATIC_ROOT": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    hashed = [
        p for p in (tmp_path / "js").rglob("*.js") if re.search(r"\.[0-9a-f]{12}\.js$", p.name)
    ]
    assert any(p.parent.name == "table" for p in hashed)
    for script in hashed:
        for name in re.findall(r"""(?:from|import)\s*["'](\.[^"']+)["']""", script.read_text()):
            assert re.search(r"\.[0-9a-f]{12}\.js$", name), (script.name, name)
            assert (script.parent / name).is_file(), (script.name, name)
