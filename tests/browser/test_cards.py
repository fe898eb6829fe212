"""Every card face and the back, drawn by static/js/cards.js in a real browser at the
sizes the table uses: the largest (90 px wide), the smallest on a 360 px phone (34 px),
and in dark mode. The screenshots are for looking at; the checks are what a player needs:
the 5:7 shape, the compact drawing on small cards with an index still about 10 px tall,
the full drawing on large ones, and a name for every card in each language.

The page is a harness served in the test (no development view in the product): it loads
the site's own cards.js and cards.css and the card labels the table includes."""

from django.template.loader import render_to_string
from django.utils import translation

from tests.browser.conftest import needs_browser, shot
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

HARNESS = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>Cards</title>
<link rel="stylesheet" href="/static/css/site.css">
<link rel="stylesheet" href="/static/css/cards.css">
<style>
  body {{ margin: 0; padding: 8px; background: var(--felt, #2f6e4a); color: #fff; }}
  main {{ max-width: none; padding: 0; }}
  h2 {{ font: 600 14px system-ui, sans-serif; margin: 6px 0; }}
  .row {{ display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 6px; }}
</style></head>
<body><main id="cards"></main>
{labels}
<script type="module">
  import {{ cardFace, cardBack }} from "/static/js/cards.js";
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const main = document.getElementById("cards");
  for (const width of {widths}) {{
    const section = document.createElement("section");
    section.dataset.width = width;
    const title = document.createElement("h2");
    title.textContent = `${{width}} px`;
    section.append(title);
    const rows = [...["S", "H", "D", "C"].map((suit) => RANKS.map((r) => [r + suit, "babanuki"])),
      [["JK", "babanuki"], ["JC", "schwarzer_peter"], ["QS", "old_maid"], ["back"], ["back"]]];
    for (const cards of rows) {{
      const row = document.createElement("div");
      row.className = "row";
      row.style.setProperty("--card-w", `${{width}}px`);
      for (const [code, variant] of cards) {{
        row.append(code === "back" ? cardBack() : cardFace(code, {{ variant }}));
      }}
      section.append(row);
    }}
    main.append(section);
  }}
  document.body.dataset.ready = "yes";
</script></body></html>"""


def harness(page, site, widths, language="en"):
    with translation.override(language):
        labels = render_to_string("lobby/_card_labels.html")
    html = HARNESS.format(lang=language, labels=labels, widths=list(widths))
    url = f"{site}/__cards_harness__/"
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    # Fonts in before measuring or photographing.
    page.evaluate("document.fonts.ready.then(() => true)")


MEASURE = """width => {
  const section = document.querySelector(`section[data-width="${width}"]`);
  return [...section.querySelectorAll(".card")].map((card) => {
    const box = card.getBoundingClientRect();
    const shown = [...card.querySelectorAll("svg > g")].filter(
      (g) => getComputedStyle(g).display !== "none").map((g) => g.getAttribute("class"));
    const rank = [...card.querySelectorAll("text.rank")].find(
      (t) => t.getBoundingClientRect().height > 0);
    return {
      code: card.dataset.card || "back",
      label: card.getAttribute("aria-label"),
      role: card.getAttribute("role"),
      width: box.width, height: box.height, shown,
      rankHeight: rank ? rank.getBoundingClientRect().height : null,
    };
  });
}"""


def test_cards_at_the_largest_and_the_smallest_size(site, new_page):
    page = new_page(viewport={"width": 1366, "height": 768})
    harness(page, site, [90, 64])
    large = page.evaluate(MEASURE, 90)
    assert len(large) == 57  # 52 cards, the joker, the Black Peter, a queen, two backs
    for card in large:
        assert abs(card["width"] - 90) < 0.5 and abs(card["height"] / card["width"] - 1.4) < 0.02
        if card["code"] != "back":
            assert card["shown"] == ["full"], card
            assert card["role"] == "img" and card["label"], card
    names = {c["code"]: c["label"] for c in large}
    assert names["AH"] == "ace of hearts" and names["10S"] == "10 of spades"
    assert names["JK"] == "the joker"
    assert [c["label"] for c in large if c["code"] == "JC"] == ["jack of clubs", "the Black Peter"]
    assert all(c["shown"] == ["full"] for c in page.evaluate(MEASURE, 64) if c["code"] != "back")
    shot(page, "cards-all-large")

    phone = new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    harness(phone, site, [34, 48])
    for width in (34, 48):
        for card in phone.evaluate(MEASURE, width):
            assert abs(card["height"] / card["width"] - 1.4) < 0.03, card
            if card["code"] not in ("back", "JK"):
                assert card["shown"] == ["compact"], card
                # The index of the smallest card is still about 10 px tall, as on a phone
                # a printed card's corner would be read.
                assert card["rankHeight"] >= 10, card
    shot(phone, "cards-all-phone")


def test_cards_in_dark_mode_and_other_languages(site, new_page):
    page = new_page(viewport={"width": 1366, "height": 768}, color_scheme="dark")
    harness(page, site, [90, 48])
    paper = page.evaluate("getComputedStyle(document.querySelector('.card.face')).backgroundColor")
    assert paper != "rgba(0, 0, 0, 0)"  # a card is paper in a dark room too
    shot(page, "cards-all-dark")
    others = (("ja", "ハートのA", "黒いペーター"), ("zh-hans", "红心A", "黑彼得"))
    for language, ace, peter in others:
        page = new_page(viewport={"width": 1366, "height": 768})
        harness(page, site, [64], language)
        names = {(c["code"], i): c["label"] for i, c in enumerate(page.evaluate(MEASURE, 64))}
        labels = {code: label for (code, _), label in names.items()}
        assert labels["AH"] == ace
        assert peter in labels.values()
