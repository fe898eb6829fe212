"""The bot API's guides are pages of the site (lobby/guides.py): docs/bots.md at
/docs/bots/ and docs/protocol.md at /docs/protocol/, rendered from the files as they are
when asked, inside the site's frame with its chrome in the reader's language; their links
to each other and to the reference bot lead to pages of the site; the profile and the bot
pages link to the guide."""

import html
import re

import pytest

from games.services import bots
from tests.lobby.conftest import logged_in
from tests.support import ROOT

pytestmark = pytest.mark.django_db

PAGES = {"/docs/bots/": "docs/bots.md", "/docs/protocol/": "docs/protocol.md"}


def article(page: str) -> str:
    return page.split('<article class="guide-text" lang="en">', 1)[1].split("</article>", 1)[0]


def text_of(fragment: str) -> str:
    """The words of some HTML, its tags and spacing aside."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


@pytest.mark.parametrize(("path", "file"), list(PAGES.items()))
def test_each_guide_page_shows_its_files_every_section_and_example(client, path, file):
    source = (ROOT / file).read_text()
    response = client.get(path)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert '<header class="site-header">' in page  # the site's frame
    words = text_of(article(page))
    for heading in re.findall(r"^#{2,3} (.+)$", source, re.M):
        assert heading.replace("`", "") in words, heading
    for block in re.findall(r"```(?:json)?\n(.*?)```", source, re.S):
        assert " ".join(block.split()) in words, block[:60]


def test_a_guide_page_is_rendered_from_its_file_as_it_is_now(client, settings, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bots.md").write_text(
        "# Writing a bot\n\nOnly *this*, <b>escaped</b>.\n\n"
        "## A part\n\n[Protocol](protocol.md#limits)\n"
    )
    settings.BASE_DIR = tmp_path
    page = article(client.get("/docs/bots/").content.decode())
    assert "<p>Only <em>this</em>, &lt;b&gt;escaped&lt;/b&gt;.</p>" in page
    assert '<h2 id="a-part">A part</h2>' in page
    assert '<a href="/docs/protocol/#limits">Protocol</a>' in page
    assert "<h1" not in page  # the page's own title stands for the file's


@pytest.mark.parametrize("path", list(PAGES))
def test_a_guides_links_lead_to_pages_of_the_site(client, path):
    page = article(client.get(path).content.decode())
    links = re.findall(r'<a href="([^"]+)"', page)
    assert links
    for link in links:
        assert not re.search(r"\.md(#|$)", link), link
        target, _, anchor = link.partition("#")
        if target:
            assert client.get(target).status_code == 200, link
        if anchor:
            linked = client.get(target).content.decode() if target else page
            assert f'id="{anchor}"' in linked, link


def test_a_guides_code_blocks_and_tables_scroll_inside_themselves(client):
    page = article(client.get("/docs/protocol/").content.decode())
    assert page.count("<pre") == page.count('<pre tabindex="0">') > 0
    assert page.count("<table>") == page.count('<div class="table-scroll" tabindex="0"><table>')


def test_the_reference_bot_is_served_as_text_from_its_file(client):
    response = client.get("/docs/bots/random_bot.py")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    body = b"".join(response.streaming_content)
    assert body == (ROOT / "tools" / "bots" / "random_bot.py").read_bytes()


@pytest.mark.parametrize(
    ("language", "title", "note"),
    [
        ("en", "Writing a bot", None),
        ("ja", "ボットの作り方", "このガイドは英語だけで書かれています。"),
        ("zh-hans", "编写机器人", "本指南只有英文版。"),
    ],
)
def test_the_guides_chrome_is_in_the_readers_language_and_its_text_english(
    client, language, title, note
):
    page = client.get("/docs/bots/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h1>{title}</h1>" in page and f"<title>{title} · " in page
    assert (note in page) if note else ("guide is written in English" not in page)
    assert '<article class="guide-text" lang="en">' in page
    assert "<h2 id=" in article(page)


def test_no_bots_name_takes_a_guides_place(client, make_account):
    owner = make_account("ann")
    for name in ("docs", "guide", "protocol"):
        bots.create_bot(owner_id=owner.pk, name=name)
        assert client.get(f"/bots/{name}/").context["bot"].name == name
    assert client.get("/docs/bots/").templates[0].name == "lobby/guide.html"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "the bot API's guide"), ("ja", "ボット API のガイド"), ("zh-hans", "机器人 API 指南")],
)
def test_the_profile_and_the_bot_pages_link_to_the_guide(client, make_account, language, words):
    owner = make_account("ann")
    logged_in(client, owner)
    link = f'<a href="/docs/bots/">{words}</a>'
    profile = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert link in html.unescape(profile) and "docs/bots.md" not in profile
    made = client.post(
        "/accounts/profile/bots/", {"name": "RandomRita"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert link in html.unescape(made.content.decode())  # the token's page
    bot_page = client.get("/bots/RandomRita/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'href="/docs/bots/"' in bot_page
