"""Development-only code lives in tools/, which a production install neither has nor
imports; `make bench` and `make bench-load` run it from there."""

import ast
import fnmatch
import os
import subprocess
import sys
import tomllib

from tests.support import ROOT

PRODUCT = ("config", "figures", "games", "lobby", "telemetry")


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "BENCH_ECHO"}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_production_install_leaves_tools_out():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    # setuptools matches each package name against these patterns (fnmatchcase).
    assert not any(fnmatch.fnmatchcase(name, p) for p in include for name in ("tools", "tools.x"))
    for package in PRODUCT:
        assert any(fnmatch.fnmatchcase(package, p) for p in include), package


def test_no_product_module_imports_tools_except_the_guarded_echo_hook():
    importers = []
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                if any(n == "tools" or n.startswith("tools.") for n in names):
                    importers.append(str(path.relative_to(ROOT)))
    assert importers == ["config/asgi.py"]


IMPORTED_TOOLS = (
    "import sys, config.asgi; "
    "print(sorted(m for m in sys.modules if m == 'tools' or m.startswith('tools.')))"
)


def test_the_site_imports_tools_only_for_the_echo_table():
    plain = run("-c", IMPORTED_TOOLS)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.strip() == "[]"
    echo = run("-c", IMPORTED_TOOLS, BENCH_ECHO="1")
    assert echo.returncode == 0, echo.stderr
    assert "'tools.echo'" in echo.stdout


def test_the_load_benchmark_starts_and_refuses_bad_arguments_clearly():
    help_ = run("-m", "tools.bench_load", "--help")
    assert help_.returncode == 0, help_.stderr
    assert "python -m tools.bench_load" in help_.stdout and "--url" in help_.stdout
    bad = run("-m", "tools.bench_load", "--url", "ftp://127.0.0.1:1")
    assert bad.returncode == 1
    assert "--url must be http(s)://host:port" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_engine_benchmark_writes_its_section(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\nkept\n")
    done = run(
        "-m", "tools.bench_engine", "--rounds", "2000", "--full-rounds", "20", "--write", str(doc)
    )
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert text.startswith("# Performance\n\nkept\n")
    assert "| babanuki, 4 players |" in text and "<!-- bench_engine:end -->" in text
    bad = run("-m", "tools.bench_engine", "--rounds", "0")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
