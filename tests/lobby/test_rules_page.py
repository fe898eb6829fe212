"""The rules and help page: every section, with its heading and table of contents, in
English, Japanese and Chinese; and all of it in our own words, never the seeds'.

The seeds (../shared/seeds/) are where the site's facts come from. Their sentences must
not reach the page: no run of 8 words in a row, nor of 12 CJK characters in a row, may
appear both in the page's text and in any seed file. The seeds live outside the
repository: ``SEEDS_DIR`` names their folder (a clone elsewhere points it at them), by
default ../shared/seeds beside the repository or beside its parent. Where they are
absent the wording test fails in CI (``REQUIRE_SERVICES=1``) or when ``SEEDS_DIR`` is
set, and is skipped, saying where it looked, anywhere else.
"""

import html
import os
import re
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
SEED_DIRS = (
    [Path(os.environ["SEEDS_DIR"])]
    if os.environ.get("SEEDS_DIR")
    else [ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"]
)
SEEDS = [seed for folder in SEED_DIRS for seed in sorted(folder.glob("*.txt"))]
LANGUAGES = ["en", "ja", "zh-hans"]
#: Each section's id and its heading (a msgid: the page shows its translation).
SECTIONS = {
    "how-to-play": "Playing a round",
    "variants": "The four games",
    "scoring": "Winning a match",
    "fair-deal": "The fair deal",
    "computer": "Computer players",
    "modes": "Ways to play",
    "controls": "Controls",
    "tips": "Tips and strategy",
    "faq": "Questions",
    "history": "Names and history",
    "privacy": "Privacy and usage statistics",
}
#: Sub-headings the seeds' pages cover, each with its id: every variant, deal, pairs,
#: drawing, going out, the loser, play modes, leaving, the controls.
SUBSECTIONS = [
    "deal",
    "pairs",
    "drawing",
    "finishing",
    "loser",
    "babanuki",
    "jijinuki",
    "old-maid",
    "schwarzer-peter",
    "house-rules",
    "mode-computer",
    "mode-same-device",
    "mode-friends",
    "leave-resign",
    "mouse-touch",
    "views",
    "keyboard",
    "motion",
]
WORDS, CJK_CHARS = 8, 12
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def page_text(page: str) -> str:
    """The readable text of the page's main content, tags dropped, entities decoded."""
    main = re.split(r"<main\b[^>]*>", page, maxsplit=1)[1].split("</main>", 1)[0]
    main = re.sub(r"<(script|style)\b.*?</\1>", " ", main, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", main))


def words(text: str) -> list[str]:
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text)


def cjk(text: str) -> str:
    """Only the CJK characters, in order: a run may not hide behind punctuation."""
    return "".join(CJK.findall(text))


def shared_runs(page: str, seed: str) -> list[str]:
    found = []
    seed_words = words(seed)
    grams = {tuple(seed_words[i : i + WORDS]) for i in range(len(seed_words) - WORDS + 1)}
    page_words = words(page)
    for i in range(len(page_words) - WORDS + 1):
        gram = tuple(page_words[i : i + WORDS])
        if gram in grams and not all(word.isdigit() for word in gram):  # "3, 2, 1, 0" is a fact
            found.append(" ".join(gram))
    seed_cjk, page_cjk = cjk(seed), cjk(page)
    runs = {seed_cjk[i : i + CJK_CHARS] for i in range(len(seed_cjk) - CJK_CHARS + 1)}
    for i in range(len(page_cjk) - CJK_CHARS + 1):
        if page_cjk[i : i + CJK_CHARS] in runs:
            found.append(page_cjk[i : i + CJK_CHARS])
    return found


@pytest.fixture
def rules_page(client):
    def get(language: str) -> str:
        response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        return response.content.decode()

    return get


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_section_is_there_with_its_heading_and_contents_entry(rules_page, language):
    page = rules_page(language)
    assert f'lang="{language}"' in page
    with translation.override(language):
        for section, heading in SECTIONS.items():
            title = html.escape(translation.gettext(heading))
            assert f'<section id="{section}" aria-labelledby="{section}-title">' in page
            assert re.search(rf'<h2 id="{section}-title">{re.escape(title)}</h2>', page), section
            assert f'<li><a href="#{section}">{title}</a></li>' in page, section
            if language != "en":
                assert title != heading, f"{heading!r} is not translated into {language}"
    for sub in SUBSECTIONS:
        assert re.search(rf'<h3 id="{sub}">[^<]+</h3>', page), sub
    assert page.count("<details>") >= 6 and page.count("<summary>") == page.count("<details>")
    assert "data-telemetry-switch" in page  # the privacy section keeps its switch


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_the_page_is_written_in_the_readers_language(rules_page, language):
    """Beyond the game's own names and a few proper nouns, no English sentence is left."""
    text = page_text(rules_page(language))
    english = re.findall(r"[A-Za-z][A-Za-z' ]{25,}", text)
    assert english == [], english


def require_seeds() -> None:
    """Fail without the seeds in CI, or when SEEDS_DIR names a folder without them;
    skip, saying where they were looked for, anywhere else."""
    if SEEDS:
        return
    where = " nor ".join(str(folder) for folder in SEED_DIRS)
    missing = f"no seed files (*.txt) in {where}: set SEEDS_DIR to the seeds' folder"
    if os.environ.get("REQUIRE_SERVICES") == "1" or os.environ.get("SEEDS_DIR"):
        pytest.fail(missing)
    pytest.skip(missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_of_the_seeds_is_copied(rules_page, language):
    require_seeds()
    text = page_text(rules_page(language))
    assert len(words(text)) > 1500 or len(cjk(text)) > 3000  # the page is all there
    copied = {seed.name: shared_runs(text, seed.read_text()) for seed in SEEDS}
    assert not any(copied.values()), {name: runs[:5] for name, runs in copied.items() if runs}


def test_the_overlap_check_finds_a_copied_sentence():
    seed = "Turns go clockwise. On your turn, choose 1 card from the face-down hand of the player."
    assert shared_runs("We say: on your turn, choose 1 card from the face-down hand.", seed)
    assert not shared_runs("When your turn comes, take a card from the giver's hand.", seed)
    zh_seed = "按顺时针方向轮流。轮到自己时，从上家（右边的人）"
    # Punctuation hides nothing: the run is of CJK characters only.
    assert shared_runs("说明：按顺时针方向轮流。轮到自己时，从上家", zh_seed)
    assert not shared_runs("大家依次轮流。轮到你时，从上家", zh_seed)
