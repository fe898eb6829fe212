"""static/js/cards.js, run under node: every card of every variant is drawn as a card
(pips where printed cards put them, the right suit symbol and never a letter, indices in
both corners, distinct court cards, joker and Black Peter, a compact drawing for small
cards), the element carries its name for screen readers, and the names agree with the
server's (games/card_names.py) in English, Japanese and Chinese."""

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.card_names import card_name, pair_name
from games.engine import get_variant
from games.engine.cards import RANKS

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "cards_cases.mjs"
SVG = "{http://www.w3.org/2000/svg}"
VARIANTS = ["babanuki", "jijinuki", "old_maid", "schwarzer_peter"]
LANGUAGES = ["en", "ja", "zh-hans"]
PAIRS = [("babanuki", ["QH", "QC"]), ("schwarzer_peter", ["JH", "JD"])]


class Dataset(HTMLParser):
    """The dataset of <template id="card-labels">, as the browser gives it to cards.js."""

    def __init__(self):
        super().__init__()
        self.data = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "template" and attrs.get("id") == "card-labels":
            self.data = {
                re.sub(r"-(\w)", lambda m: m.group(1).upper(), k[5:]): v
                for k, v in attrs.items()
                if k.startswith("data-")
            }


def labels(language: str) -> dict:
    with translation.override(language):
        html = render_to_string("lobby/_card_labels.html")
    parser = Dataset()
    parser.feed(html)
    assert parser.data, html
    return parser.data


def decks() -> dict:
    return {v: list(get_variant(v).deck) for v in VARIANTS}


@pytest.fixture(scope="module")
def drawn(node, tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "cases.json"
    cases = {"decks": decks(), "labels": {lang: labels(lang) for lang in LANGUAGES}}
    cases["pairs"] = PAIRS
    path.write_text(json.dumps(cases))
    run = subprocess.run(
        [node, str(RUNNER), str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
    assert root.get("viewBox") == "0 0 100 140"  # 5:7, as a printed card
    assert root.get("aria-hidden") == "true"
    return root


def group(root, cls):
    found = [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]
    assert len(found) == 1, cls
    return found[0]


def with_class(el, tag, cls):
    return [e for e in el.iter(f"{SVG}{tag}") if cls in (e.get("class") or "").split()]


def position(path):
    m = re.match(r"translate\(([\d.]+) ([\d.]+)\)", path.get("transform"))
    return float(m.group(1)), float(m.group(2))


def faces_of(drawn, variant=None):
    return [f for f in drawn["faces"] if variant in (None, f["variant"])]


def test_every_card_of_every_variant_is_drawn(drawn):
    for variant, deck in decks().items():
        assert [f["code"] for f in faces_of(drawn, variant)] == deck
    assert len(faces_of(drawn, "babanuki")) == 53
    assert len(faces_of(drawn, "schwarzer_peter")) == 31


def test_pips_lie_as_on_printed_cards(drawn):
    paths = drawn["suitPaths"]
    for face in drawn["faces"]:
        code = face["code"]
        if code == "JK":
            continue
        rank, suit = code[:-1], code[-1]
        full = group(parse(face["svg"]), "full")
        pips = with_class(full, "path", "pip")
        if rank not in ("A", "J", "Q", "K"):
            assert len(pips) == int(rank), code
            assert all(p.get("d") == paths[suit] for p in pips), code
            spots = {position(p) for p in pips}
            # A printed card reads the same either way up: the pips are symmetric about
            # the centre (but the seven's one pip above the middle), and those in the
            # lower half are upside down.
            turned = {(round(100 - x, 2), round(140 - y, 2)) for x, y in spots}
            if rank == "7":
                assert turned ^ spots == {(50.0, 47.5), (50.0, 92.5)}, code
            else:
                assert turned == spots, code
            for p in pips:
                assert ("rotate(180)" in p.get("transform")) == (position(p)[1] > 70), code
            assert {x for x, _ in spots} <= {31.0, 50.0, 69.0}
        elif rank == "A":
            assert len(pips) == 1 and pips[0].get("d") == paths[suit]
            assert position(pips[0]) == (50.0, 70.0)
        else:
            assert not pips, code


def test_suits_are_symbols_in_both_corners_never_letters(drawn):
    paths = drawn["suitPaths"]
    for face in drawn["faces"]:
        code = face["code"]
        root = parse(face["svg"])
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert all(t in RANKS for t in texts), (code, texts)
        indices = [g for g in root.iter(f"{SVG}g") if g.get("class") == "index"]
        assert len(indices) == 2, code
        assert indices[1].get("transform") == "rotate(180 50 70)"  # the bottom corner
        compact = group(root, "compact")
        if code == "JK":
            for g in indices:
                assert with_class(g, "path", "star") and not list(g.iter(f"{SVG}text"))
            assert with_class(compact, "path", "star")
            continue
        rank, suit = code[:-1], code[-1]
        for g in (*indices, compact):
            assert [t.text for t in g.iter(f"{SVG}text")] == [rank], code
            suit_pips = with_class(g, "path", "index-pip")
            assert len(suit_pips) == 1 and suit_pips[0].get("d") == paths[suit], code
        # No other suit's symbol anywhere on the face.
        others = {paths[s] for s in "SHDC" if s != suit}
        assert not [p for p in root.iter(f"{SVG}path") if p.get("d") in others], code


def test_court_cards_joker_and_peter_have_their_own_pictures(drawn):
    svgs = {(f["variant"], f["code"]): f["svg"] for f in drawn["faces"]}

    def picture(variant, code):
        full = group(parse(svgs[variant, code]), "full")
        for g in list(full):
            if g.get("class") == "index":
                full.remove(g)
        return ET.tostring(full)

    for suit in "SHDC":
        courts = [picture("babanuki", r + suit) for r in "JQK"]
        assert len(set(courts)) == 3, suit
        for code in (r + suit for r in "JQK"):
            assert with_class(parse(svgs["babanuki", code]), "g", "court-top"), code
    pictures = {picture("babanuki", c) for c in ("JC", "QC", "KC", "JK")}
    pictures.add(picture("schwarzer_peter", "JC"))
    assert len(pictures) == 5
    assert 'class="card-art peter' in svgs["schwarzer_peter", "JC"]
    assert 'class="card-art court' in svgs["babanuki", "JC"]
    assert 'class="card-art joker' in svgs["babanuki", "JK"]
    # The compact drawing for small cards shows a picture card's emblem.
    for variant, code in (("babanuki", "KH"), ("babanuki", "JK"), ("schwarzer_peter", "JC")):
        assert with_class(group(parse(svgs[variant, code]), "compact"), "g", "emblem")


def test_the_element_is_an_image_named_in_words(drawn):
    for face in drawn["faces"]:
        el, code, variant = face["element"], face["code"], face["variant"]
        classes = el["className"].split()
        assert classes[:2] == ["card", "face"]
        peter = code == "JC" and variant == "schwarzer_peter"
        if code == "JK":
            assert "joker" in classes and "red" not in classes
        else:
            colour = "red" if code[-1] in "HD" else "black"
            assert colour in classes and ({"red", "black"} - {colour}).isdisjoint(classes)
            assert ("peter" in classes) == peter
            assert ("court" in classes) == (code[:-1] in "JQK" and not peter)
        assert el["attributes"]["role"] == "img"
        assert el["attributes"]["aria-label"] == drawn["names"]["en"][variant][code]
        assert el["dataset"] == {"card": code}
        assert el["innerHTML"] == face["svg"]
    back = drawn["back"]
    assert back["className"] == "card back" and back["svg"] == back["pure"]
    root = parse(back["svg"])
    assert with_class(root, "path", "lattice")
    assert not list(root.iter(f"{SVG}text"))


SAMPLES = {
    "en": ["ace of hearts", "10 of spades", "queen of clubs", "the joker", "the Black Peter"],
    "ja": ["ハートのA", "スペードの10", "クラブのQ", "ジョーカー", "黒いペーター"],
    "zh-hans": ["红心A", "黑桃10", "梅花Q", "鬼牌", "黑彼得"],
}
SAMPLE_CARDS = [
    ("babanuki", "AH"),
    ("babanuki", "10S"),
    ("old_maid", "QC"),
    ("babanuki", "JK"),
    ("schwarzer_peter", "JC"),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_agree_with_the_server_in_every_language(drawn, language):
    names = drawn["names"][language]
    with translation.override(language):
        for variant, deck in decks().items():
            for code in deck:
                assert names[variant][code] == card_name(code, variant), (variant, code)
        assert drawn["pairs"][language] == [pair_name(codes, v) for v, codes in PAIRS]
    assert [names[v][c] for v, c in SAMPLE_CARDS] == SAMPLES[language]
    # Outside Schwarzer Peter the jack of clubs is just a jack.
    assert names["babanuki"]["JC"] != names["schwarzer_peter"]["JC"]
