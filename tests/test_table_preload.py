"""The table page fetches its scripts at once: every module static/js/table.js imports,
directly or through another module (static/js/table/ and the shared ones), has a
modulepreload link in templates/lobby/_table_modules.html, so none waits for the module
that imports it to arrive first; and the pages with a table load its entry script from
their own template, not from a partial of labels."""

import re

from tests.support import ROOT

STATIC = ROOT / "static"
TEMPLATE = ROOT / "templates" / "lobby" / "_table_modules.html"
LOBBY = ROOT / "templates" / "lobby"
ENTRY = """<script type="module" src="{% static 'js/table.js' %}"></script>"""
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
    computer's speed): preloaded by the room page or the table's modules."""
    preloaded = preloads(ROOT / "templates" / "lobby" / "room.html") | preloads(TEMPLATE)
    imported = imported_by(STATIC / "js" / "room.js")
    assert "js/speed.js" in imported
    assert imported - preloaded == set(), "imported by the room page but not preloaded"


def test_the_room_and_the_replay_templates_load_the_table_entry_script_after_its_modules():
    for page in ("room.html", "replay.html"):
        text = (LOBBY / page).read_text()
        assert text.count(ENTRY) == 1, page
        modules = text.index('{% include "lobby/_table_modules.html" %}')
        assert modules < text.index(ENTRY) > text.index('{% include "lobby/_table_labels.html" %}')
    room = (LOBBY / "room.html").read_text()
    # The table's listeners are in before room.js opens the socket.
    assert room.index(ENTRY) < room.index("js/room.js")


def test_no_partial_loads_a_script():
    for partial in LOBBY.glob("_*.html"):
        assert "<script" not in partial.read_text(), partial.name
