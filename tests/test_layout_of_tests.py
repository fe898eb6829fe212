"""No test module imports from another: a helper two test modules share lives in a module
of its own (a conftest.py, tests/rooms.py, tests/support.py, tests/lobby/replays.py, ...),
which every one of them imports, the module that first needed it too. Read from the
import lines themselves (the ast module), wherever they stand in a file."""

import ast
from pathlib import Path

from tests.support import ROOT

TESTS = ROOT / "tests"


def _is_test_module(dotted: str) -> bool:
    return dotted.rpartition(".")[2].startswith("test_")


def _package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])


def imports_of_test_modules(source: str, path: Path) -> list[str]:
    """The modules whose file name starts with ``test_`` that ``source`` (the file at
    ``path``) imports from, or imports: a name from such a module, such a module from its
    package, the module itself, and the relative forms of each."""
    found = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                package = _package_of(path).split(".")
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            if _is_test_module(module):
                found.append(module)
            found += [
                f"{module}.{alias.name}" for alias in node.names if alias.name.startswith("test_")
            ]
    return found


def test_the_check_finds_every_form_of_import_from_a_test_module():
    # Written in pieces, so that a search of tests/ for such imports does not find these.
    source = (
        "from tests.lobby.test_replay"
        " import finished_round\n"
        "from tests.browser import test_accessibility as light\n"
        "import tests.test_layout\n"
        "from .test_events import event_is\n"
        "def helper():\n"
        "    from tests.games.test_error_codes"
        " import round_one_over\n"
        "from tests.lobby.replays import finished_round\n"
        "from tests.games.conftest import Player\n"
        "import test\n"
    )
    assert imports_of_test_modules(source, TESTS / "games" / "test_x.py") == [
        "tests.lobby.test_replay",
        "tests.browser.test_accessibility",
        "tests.test_layout",
        "tests.games.test_events",
        "tests.games.test_error_codes",
    ]


def test_no_file_under_tests_imports_from_a_test_module():
    found = {
        str(path.relative_to(ROOT)): imported
        for path in sorted(TESTS.rglob("*.py"))
        if (imported := imports_of_test_modules(path.read_text(), path))
    }
    assert found == {}, f"move the helpers these files import to a module of their own: {found}"
