"""The table page fetches its scripts at once: every module static/js/table.js imports,
directly or through another module (static/js/table/ and the shared ones), has a
modulepreload link in templates/lobby/_table_labels.html, so none waits for the module
that imports it to arrive first."""

import re

from tests.support import ROOT

STATIC = ROOT / "static"
TEMPLATE = ROOT / "templates" / "lobby" / "_table_labels.html"
IMPORT = re.compile(r"""^import\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']""", re.M | re.S)


def imported_by(entry):
    """Every module the entry imports, however deep, as paths under static/."""
    found, todo = set(), [entry]
    while todo:
        module = todo.pop()
        for name in IMPORT.findall(module.read_text()):
            path = (module.parent / name).resolve()
            if path not in found:
                found.add(path)
                todo.append(path)
    return {p.relative_to(STATIC).as_posix() for p in found}


def preloads(template) -> set[str]:
    found = re.findall(
        r"""rel="modulepreload" href="\{% static '([^']+)' %\}""", template.read_text()
    )
    return set(found)


def test_every_module_the_table_imports_is_preloaded():
    preloaded = preloads(TEMPLATE)
    imported = imported_by(STATIC / "js" / "table.js")
    assert "js/table/render.js" in imported and "js/cards.js" in imported
    assert imported - preloaded == set(), "imported by the table but not preloaded"
    assert preloaded - imported == set(), "preloaded but never imported by the table"


def test_every_module_the_room_page_imports_is_preloaded():
    """The room page's own script (room.js) and what it imports besides the table's (the
    computer's speed): preloaded by the room page or the table's labels."""
    preloaded = preloads(ROOT / "templates" / "lobby" / "room.html") | preloads(TEMPLATE)
    imported = imported_by(STATIC / "js" / "room.js")
    assert "js/speed.js" in imported
    assert imported - preloaded == set(), "imported by the room page but not preloaded"
