"""The Japanese and Chinese catalogues are complete, keep every placeholder, and the
compiled .mo files that the site loads match them (they are committed, so that a fresh
machine needs no gettext tools)."""

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parents[1] / "locale"
LANGUAGES = ["ja", "zh_Hans"]
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_complete_and_keeps_placeholders(language):
    po = polib.pofile(LOCALE / language / "LC_MESSAGES" / "django.po")
    assert po.percent_translated() == 100
    assert not po.fuzzy_entries()
    for entry in po:
        translations = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
        for text in translations:
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(entry.msgid)), (
                entry.msgid
            )


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_the_source(language):
    folder = LOCALE / language / "LC_MESSAGES"
    po = {e.msgid: e.msgstr or dict(e.msgstr_plural) for e in polib.pofile(folder / "django.po")}
    mo = {e.msgid: e.msgstr or dict(e.msgstr_plural) for e in polib.mofile(folder / "django.mo")}
    po.pop("", None)
    mo.pop("", None)
    assert mo == po, "run: make messages"


@pytest.mark.parametrize(("language", "expected"), [("ja", "ババ抜き"), ("zh-hans", "黑彼得")])
def test_the_site_speaks_each_language(client, language, expected):
    with translation.override(language):
        from games.labels import VARIANT_NAMES

        names = [str(v) for v in VARIANT_NAMES.values()]
    assert any(expected in name for name in names)
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert f'lang="{language}"' in response.content.decode()
