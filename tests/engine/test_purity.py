"""The engine is pure: no Django, no clocks, no I/O; the same seed gives the same round."""

import ast
import pathlib
import random
import subprocess
import sys

from games.engine import RoundState, play_out

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN = {"django", "time", "datetime", "os", "socket", "requests", "games.models"}


def test_engine_modules_import_nothing_impure():
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_django():
    code = "import sys, games.engine; print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def play_round(seed):
    rng = random.Random(seed)
    return play_out(RoundState.deal("babanuki", 4, 1, rng), rng, "medium").to_dict()


def test_same_random_same_round():
    assert play_round(5) == play_round(5)
    assert play_round(5) != play_round(6)
