"""docs/architecture.md's module tables name every module of the product and of tools/
once: a module without a row, a row naming a file that does not exist, or a module with
two rows fails here."""

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

#: Where the modules live: the Python packages of the product and of tools/, and the
#: page's scripts and styles, with their folders (static/js/table/).
PYTHON_ROOTS = ("config", "games", "lobby", "telemetry", "figures", "tools")
STATIC = (("static/js", "*.js"), ("static/css", "*.css"))


def modules() -> set[str]:
    found = set()
    for top in PYTHON_ROOTS:
        for path in (ROOT / top).rglob("*.py"):
            relative = path.relative_to(ROOT)
            # A tool's node packages (tools/peer_bgio/node_modules, once installed) are not ours.
            skipped = {"migrations", "node_modules"}
            if path.name == "__init__.py" or skipped & set(relative.parts):
                continue
            found.add(relative.as_posix())
    for folder, pattern in STATIC:
        found.update(p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob(pattern))
    return found


def rows() -> list[tuple[int, list[str]]]:
    """Each table row's line number and the files its first cell names, resolved to paths
    from the repository's root: a name is read from the root when it exists there, else
    from the folder the section's heading names (``## The engine (`games/engine/`)``)."""
    bases: list[str] = [""]
    named = []
    for number, line in enumerate(DOC.read_text().splitlines(), start=1):
        if line.startswith("## "):
            bases = re.findall(r"`([^`]+/)`", line) or [""]
            continue
        if not line.startswith("| `"):
            continue
        first_cell = line.split("|")[1]
        paths = []
        for name in re.findall(r"`([^`]+)`", first_cell):
            candidates = [name] + [base + name for base in bases]
            paths.append(next((c for c in candidates if (ROOT / c).is_file()), name))
        named.append((number, paths))
    return named


def test_every_module_has_exactly_one_row():
    counts = Counter(path for _, paths in rows() for path in paths)
    missing = sorted(modules() - set(counts))
    twice = sorted(path for path, count in counts.items() if count > 1)
    assert not missing, f"modules with no row in docs/architecture.md: {missing}"
    assert not twice, f"modules with more than one row in docs/architecture.md: {twice}"


def test_every_row_names_files_that_exist():
    absent = [(n, p) for n, paths in rows() for p in paths if not (ROOT / p).is_file()]
    assert not absent, f"rows naming no file (line, name): {absent}"


def test_each_table_is_unbroken():
    """A blank line inside a table ends it in Markdown: the rows after it show as text."""
    lines = DOC.read_text().splitlines()
    for number, line in enumerate(lines[1:-1], start=2):
        if not line.strip():
            before, after = lines[number - 2], lines[number]
            assert not (before.startswith("|") and after.startswith("|")), (
                f"docs/architecture.md line {number}: a blank line splits a table"
            )
