"""Every catalogue holds exactly the site's messages, each translated, keeping every
placeholder; the compiled .mo files that the site loads match them (they are committed,
so that a fresh machine needs no gettext tools); and a browser's language picks its
catalogue on a first visit."""

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
#: The catalogues' folders: every language the site speaks but English.
CATALOGUES = [translation.to_locale(code) for code, _ in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
#: Folders with no message of the site (what ``make messages`` ignores, and what holds
#: no Python or template).
NOT_SOURCE = {"tests", "tools", "staticfiles", "locale", "static", "docs", "scripts"}


def key(entry) -> tuple:
    return entry.msgctxt, entry.msgid


@pytest.fixture(scope="module")
def site_messages(tmp_path_factory) -> set[tuple]:
    """The messages the site's code and templates hold now, as ``make messages`` extracts
    them (xgettext over a copy of the source folders)."""
    if shutil.which("xgettext") is None:
        pytest.fail("xgettext is missing: bash scripts/browser.sh installs gettext")
    copy = tmp_path_factory.mktemp("messages")
    for folder in ROOT.iterdir():
        hidden = folder.name.startswith(".") or folder.name.endswith(".egg-info")
        if folder.is_dir() and not hidden and folder.name not in NOT_SOURCE:
            shutil.copytree(folder, copy / folder.name, ignore=shutil.ignore_patterns("*.pyc"))
    (copy / "locale").mkdir()
    here = os.getcwd()
    os.chdir(copy)
    try:
        with override_settings(LOCALE_PATHS=[copy / "locale"]):
            call_command("makemessages", locale=["xx"], no_obsolete=True, verbosity=0)
    finally:
        os.chdir(here)
    po = polib.pofile(copy / "locale" / "xx" / "LC_MESSAGES" / "django.po")
    return {key(e) for e in po if e.msgid}


def test_the_site_speaks_each_catalogue_in_settings():
    folders = sorted(p.name for p in LOCALE.iterdir() if p.is_dir())
    assert folders == sorted(CATALOGUES)


@pytest.mark.parametrize("language", CATALOGUES)
def test_every_message_of_the_site_has_a_translation(language, site_messages):
    po = polib.pofile(LOCALE / language / "LC_MESSAGES" / "django.po")
    translated = {key(e) for e in po if e.translated() and "fuzzy" not in e.flags}
    missing = sorted(str(m) for m in site_messages - translated)
    assert not missing, f"{len(missing)} untranslated in {language} (make messages): {missing}"
    stale = sorted(str(m) for m in {key(e) for e in po if not e.obsolete} - site_messages)
    assert not stale, f"messages no longer used, still in {language} (make messages): {stale}"


@pytest.mark.parametrize("language", CATALOGUES)
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


@pytest.mark.parametrize("language", CATALOGUES)
def test_compiled_catalogue_matches_the_source(language):
    folder = LOCALE / language / "LC_MESSAGES"
    po = {key(e): e.msgstr or dict(e.msgstr_plural) for e in polib.pofile(folder / "django.po")}
    mo = {key(e): e.msgstr or dict(e.msgstr_plural) for e in polib.mofile(folder / "django.mo")}
    po.pop((None, ""), None)
    mo.pop((None, ""), None)
    assert mo == po, "run: make messages"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", "ババ抜き"),
        ("zh-hans", "黑彼得"),
        ("zh-hant", "黑彼得"),
        ("de", "Schwarzer Peter"),
        ("ko", "도둑잡기"),
    ],
)
def test_the_site_speaks_each_language(client, language, expected):
    with translation.override(language):
        from games.labels import VARIANT_NAMES

        names = [str(v) for v in VARIANT_NAMES.values()]
    assert any(expected in name for name in names)
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert f'lang="{language}"' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("zh-TW,zh;q=0.9,en;q=0.5", "zh-hant"),
        ("zh-HK", "zh-hant"),
        ("zh-CN,zh;q=0.9", "zh-hans"),
        ("de-AT,de;q=0.9", "de"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"),
        ("ja", "ja"),
        ("fr-FR,fr;q=0.9", "en"),
    ],
)
def test_a_first_visit_speaks_the_browsers_language(client, header, lang):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=header).content.decode()
    assert f'<html lang="{lang}"' in page


@pytest.mark.parametrize("language", ["ja", "zh_Hans", "zh_Hant"])
def test_no_space_sits_between_a_word_and_a_cards_name_in_languages_without_spaces(language):
    """ "你抽到了{card}", never "你抽到了 {card}": Chinese and Japanese put no space before
    (or after) a card's name or a pair's, only around Latin words and numbers."""
    names = r"\{(?:card|pair|first|second)\}"
    wide = r"[\u3000-\u9fff\uff00-\uffef]"
    spaced = re.compile(rf"{wide} {names}|{names} {wide}")
    po = polib.pofile(LOCALE / language / "LC_MESSAGES" / "django.po")
    found = [e.msgstr for e in po if spaced.search(e.msgstr)]
    assert found == []
