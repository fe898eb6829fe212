"""Development-only code lives in tools/, which a production install neither has nor
imports; `make bench`, `make bench-load` and `make fairness` run it from there. The
fairness research (tools/fairness) and numpy stay out of the production install."""

import ast
import fnmatch
import os
import tomllib
from pathlib import Path

from tests.support import ROOT, run_python

PRODUCT = ("config", "figures", "games", "lobby", "telemetry")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: The research's modules as they were named in the product before they moved to tools/.
RESEARCH = (
    "fairness_search",
    "fairness_report",
    "fastsim",
    "games.engine.fairness",
    "games.management.commands.fairness",
    "games.management.commands.fairness_tables",
)


def test_a_production_install_leaves_tools_out():
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    # setuptools matches each package name against these patterns (fnmatchcase).
    assert not any(fnmatch.fnmatchcase(name, p) for p in include for name in ("tools", "tools.x"))
    for package in PRODUCT:
        assert any(fnmatch.fnmatchcase(package, p) for p in include), package


def shipped_modules() -> dict[str, Path]:
    """Every module a production install ships, by dotted name: each folder under the
    project whose dotted name matches pyproject's package patterns (setuptools'
    namespace discovery, which matches them with fnmatchcase), and its .py files."""
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    modules = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if "." not in d and d != "__pycache__"]
        package = ".".join(Path(folder).relative_to(ROOT).parts)
        if not package or not any(fnmatch.fnmatchcase(package, p) for p in include):
            continue
        for name in files:
            if name.endswith(".py"):
                stem = name.removesuffix(".py")
                modules[package if stem == "__init__" else f"{package}.{stem}"] = (
                    Path(folder) / name
                )
    return modules


def imported_names(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def test_a_production_install_ships_no_fairness_research():
    modules = shipped_modules()
    assert "games.engine.round" in modules and "lobby.fairness" in modules  # the finder works
    assert "games.fairness_data" in modules and "figures.numbers" in modules
    research = [
        name
        for name in modules
        if any(name == r or name.endswith("." + r) or name.startswith(r + ".") for r in RESEARCH)
    ]
    assert research == []
    assert not any(name == "tools" or name.startswith("tools.") for name in modules)


def test_a_production_install_needs_no_numpy():
    project = PYPROJECT["project"]
    assert not any(dep.lower().startswith("numpy") for dep in project["dependencies"])
    assert any(dep.startswith("numpy") for dep in project["optional-dependencies"]["research"])
    # The tests run the research's tests too.
    assert "oldmaid[research]" in project["optional-dependencies"]["test"]
    importers = [
        name
        for name, path in shipped_modules().items()
        if any(n == "numpy" or n.startswith("numpy.") for n in imported_names(path))
    ]
    assert importers == []


def test_a_production_install_keeps_the_figures_the_fairness_page_shows():
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]
    assert "fairness_data.json" in package_data["games"]
    assert (ROOT / "games" / "fairness_data.json").exists()


def test_the_fairness_research_runs_as_python_m_tools_fairness():
    help_ = run_python("-m", "tools.fairness", "--help")
    assert help_.returncode == 0, help_.stderr
    assert "python -m tools.fairness" in help_.stdout
    assert all(option in help_.stdout for option in ("--variant", "--search", "--write"))
    one = run_python(
        "-m", "tools.fairness", "--variant", "babanuki", "--players", "3", "--rounds", "500"
    )
    assert one.returncode == 0, one.stderr
    assert "babanuki, 3 players" in one.stdout
    bad = run_python("-m", "tools.fairness", "--variant", "babanuki", "--players", "1")
    assert bad.returncode == 2 and "2 to 8 players" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_no_product_module_imports_tools_except_the_guarded_echo_hook():
    importers = []
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            if any(n == "tools" or n.startswith("tools.") for n in imported_names(path)):
                importers.append(str(path.relative_to(ROOT)))
    assert importers == ["config/asgi.py"]


IMPORTED_TOOLS = (
    "import sys, config.asgi; "
    "print(sorted(m for m in sys.modules if m == 'tools' or m.startswith('tools.')))"
)


def test_the_site_imports_tools_only_for_the_echo_table():
    plain = run_python("-c", IMPORTED_TOOLS)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.strip() == "[]"
    echo = run_python("-c", IMPORTED_TOOLS, BENCH_ECHO="1")
    assert echo.returncode == 0, echo.stderr
    assert "'tools.echo'" in echo.stdout


def test_the_load_benchmark_starts_and_refuses_bad_arguments_clearly():
    help_ = run_python("-m", "tools.bench_load", "--help")
    assert help_.returncode == 0, help_.stderr
    assert "python -m tools.bench_load" in help_.stdout and "--url" in help_.stdout
    bad = run_python("-m", "tools.bench_load", "--url", "ftp://127.0.0.1:1")
    assert bad.returncode == 1
    assert "--url must be http(s)://host:port" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_engine_benchmark_writes_its_section(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\nkept\n")
    done = run_python(
        "-m", "tools.bench_engine", "--rounds", "2000", "--full-rounds", "20", "--write", str(doc)
    )
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert text.startswith("# Performance\n\nkept\n")
    assert "| babanuki, 4 players |" in text and "<!-- bench_engine:end -->" in text
    bad = run_python("-m", "tools.bench_engine", "--rounds", "0")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
