"""Every page's frame: the icon browsers ask for, the language menu in each language's own
words, and the current page marked in the header."""

from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"


def test_favicon_ico_is_answered(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/favicon.ico"
    assert (STATIC / "favicon.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"  # an ICO
    page = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in page
    assert (STATIC / "favicon.svg").exists() and (STATIC / "img" / "logo.svg").exists()


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
def test_languages_are_named_in_their_own_words(client, language):
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for code, name in (("en", "English"), ("ja", "日本語"), ("zh-hans", "简体中文")):
        assert f'lang="{code}"' in page and f">{name}</option>" in page
    menu = page.split('id="language-select"', 1)[1].split("</select>", 1)[0]
    assert "英語" not in menu and "英语" not in menu


@pytest.mark.parametrize(
    ("path", "label"), [("/", "Lobby"), ("/new/", "New game"), ("/rules/", "Rules and help")]
)
def test_the_header_marks_the_current_page(client, path, label):
    page = client.get(path).content.decode()
    assert f'aria-current="page">{label}</a>' in page
    assert page.count('aria-current="page"') == 1


@pytest.mark.parametrize(("language", "brand"), [("ja", "ババ抜き"), ("zh-hans", "抽鬼牌")])
def test_the_site_name_is_one_language(client, language, brand):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<span>{brand}</span></a>" in page and "(Old Maid)" not in page.split("</header>")[0]


def test_no_template_has_a_comment_django_would_print():
    """``{# … #}`` is a one-line comment: spread over lines, Django prints it on the page."""
    for template in (Path(__file__).resolve().parents[1] / "templates").rglob("*.html"):
        for number, line in enumerate(template.read_text().splitlines(), start=1):
            if "{#" in line:
                assert "#}" in line.split("{#", 1)[1], f"{template}:{number}"
