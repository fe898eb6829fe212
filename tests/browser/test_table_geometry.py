"""Where things rest on the table, measured in the browser (getBoundingClientRect): name
tags by their own fans and never on each other on a phone at 2-8 seats; a drag that turns
the table a few degrees and springs back; replays whose face-up hands are never under a
tag nor cut off; a giver's hand in two rows that hides no other fan and not the pile; an
ending whose tags tell the round and whose banner tells the match; one short name per
seat; no lone bullet for an empty hand; nothing under the sticky header."""

import re

import pytest
from playwright.sync_api import expect

from tests import matrix
from tests.browser.boxes import BY_THE_FAN, LAYOUT_BOXES, gap, overlap
from tests.browser.conftest import (
    TURN_MS,
    fast_forward_to_the_end,
    in_a_thread,
    needs_browser,
    new_game,
    settle,
    shot,
)
from tests.lobby.replays import finished_round
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

LAPTOP = matrix.SIZES["laptop"]
PHONE = matrix.SIZES["phone"]
LOCALES = list(matrix.LOCALES)

#: Every tag, fan, face-up card and the pile, as boxes in the viewport.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const stage = box(document.getElementById('stage'));
  return {
    stage,
    tags: [...document.querySelectorAll('#seat-tags .seat-tag')].map((t) =>
      ({seat: t.dataset.tagSeat, ...box(t)})),
    near: [...document.querySelectorAll('#near-tag .seat-tag')].map(box),
    fans: [...document.querySelectorAll('#seats-ring .fan')].map((f) =>
      ({seat: f.dataset.fanSeat, box: box(f), cards: [...f.querySelectorAll('.card')].map(box),
        marked: [...f.querySelectorAll('.card[class*=mark-]')].map(box)})),
    pile: [...document.querySelectorAll('#pile .card')].map(box),
    pick: [...document.querySelectorAll('#giver-hand .card')].map(box),
    giver: document.getElementById('table-wrap').dataset.pickFrom,
  };
}"""


def wait_for_my_turn(page):
    page.wait_for_selector("#giver-hand .card", timeout=TURN_MS)
    page.wait_for_selector("#status-line.mine", timeout=TURN_MS)


# -- name tags on a phone ---------------------------------------------------------------

#: How far (px) a tag may rest from its own fan: ``BY_THE_FAN`` (tests.browser.boxes).
#: ``TURNED``: a fan's cards are turned a few degrees, so their boxes are a few pixels
#: wider than the cards themselves; at the phone's eight seats a tag can still touch a
#: neighbour card's corner by up to 6 px (seen on some deals; issue 19's closing note).
TURNED = 8


def assert_tags_by_their_fans(found, what):
    tags = found["tags"]
    fans = {f["seat"]: f["box"] for f in found["fans"]}
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            assert not overlap(a, b), f"{what}: tags of seats {a['seat']} and {b['seat']} overlap"
    for tag in tags:
        own = fans[tag["seat"]]
        assert gap(tag, own) <= BY_THE_FAN, f"{what}: seat {tag['seat']}'s tag left its fan"
        for fan in found["fans"]:
            if fan["seat"] == tag["seat"]:
                continue
            for card in fan["cards"]:
                assert not overlap(tag, card, slack=TURNED), (
                    f"{what}: seat {tag['seat']}'s tag lies on seat {fan['seat']}'s fan"
                )


@pytest.mark.parametrize("seats", ["2", "3", "4", "5", "6", "8"])
def test_phone_name_tags_stay_by_their_fans_and_never_overlap(site, new_page, seats):
    page = new_page(hurried=True, viewport=PHONE)
    # A match of rounds: every tag tells its points too, and is wider for it.
    new_game(page, site, players=seats, single=False)
    wait_for_my_turn(page)
    settle(page)
    assert_tags_by_their_fans(page.evaluate(BOXES), f"{seats} seats, your turn")
    # A card chosen: the same tags, in the same places.
    page.locator("#giver-hand .card").first.click()
    settle(page)
    assert_tags_by_their_fans(page.evaluate(BOXES), f"{seats} seats, a card chosen")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("seats", ["4", "8"])
def test_screenshots_of_the_phone_table(site, new_page, seats, locale):
    page = new_page(hurried=True, viewport=PHONE, locale=locale)
    new_game(page, site, players=seats, single=False)
    wait_for_my_turn(page)
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(viewport)
        settle(page)
        shot(page, f"table-{seats}-seats-{name}-{locale}")
        if viewport is PHONE:
            assert_tags_by_their_fans(page.evaluate(BOXES), f"{seats} seats, {locale}")


# -- a drag -----------------------------------------------------------------------------

SCENE_ANGLES = """() => {
  const t = document.getElementById('scene').style.transform;
  const x = /rotateX\\(([-\\d.e]+)deg\\)/.exec(t);
  const z = /rotateZ\\(([-\\d.e]+)deg\\)/.exec(t);
  return {tilt: x ? Number(x[1]) : 0, spin: z ? Number(z[1]) : 0};
}"""

#: The most a drag may turn the table, in degrees.
A_FEW_DEGREES = 6


@pytest.mark.parametrize("distance", [60, 250])
def test_a_drag_turns_the_table_a_few_degrees_and_springs_back(site, new_page, distance):
    page = new_page(viewport=LAPTOP)
    new_game(page, site, players="3")
    wait_for_my_turn(page)
    settle(page)
    rest = page.evaluate(SCENE_ANGLES)
    stage = page.locator("#stage").bounding_box()
    # From the felt's far side, away from every card.
    x, y = stage["x"] + stage["width"] * 0.5, stage["y"] + stage["height"] * 0.12
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + distance * step / 10, y + distance * 0.4 * step / 10)
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    held = page.evaluate(SCENE_ANGLES)
    assert 0 < abs(held["spin"] - rest["spin"]) <= A_FEW_DEGREES, (rest, held)
    assert abs(held["tilt"] - rest["tilt"]) <= A_FEW_DEGREES, (rest, held)
    page.mouse.up()
    page.wait_for_function(
        "rest => { const t = document.getElementById('scene').style.transform;"
        " return t === `rotateX(${rest.tilt}deg) rotateZ(${rest.spin}deg)`; }",
        arg=rest,
    )
    # Nothing was chosen by the drag.
    expect(page.locator("#giver-hand .card.selected")).to_have_count(0)


# -- replays ----------------------------------------------------------------------------


#: How far a replay's badges reach from their card's box, in screen pixels at most
#: (static/css/replay.css: two rows of 19 px icons from halfway down the card, the bluff's
#: 28 px wide).
BADGES_BELOW = 42
BADGE_WIDTH = 28


def badge_area(card):
    """Where a marked card's badges can lie on screen (a little more than they take)."""
    top = card["y"] + card["h"] / 2
    return {
        "x": card["x"],
        "y": top,
        "right": max(card["right"], card["x"] + BADGE_WIDTH),
        "bottom": max(card["bottom"], top + BADGES_BELOW),
    }


def assert_replay_hands_in_sight(found, what):
    tags = found["tags"] + found["near"]
    stage = found["stage"]
    for fan in found["fans"]:
        for card in fan["marked"]:
            for tag in tags:
                assert not overlap(badge_area(card), tag, slack=TURNED), (
                    f"{what}: a mark on a card of seat {fan['seat']} lies under a name tag: "
                    f"{card} {tag}"
                )
        for card in fan["cards"]:
            for tag in tags:
                assert not overlap(card, tag, slack=TURNED), (
                    f"{what}: a card of seat {fan['seat']} lies under a name tag: {card} {tag}"
                )
            inside = (
                card["x"] >= stage["x"] - 0.5
                and card["y"] >= stage["y"] - 0.5
                and card["right"] <= stage["right"] + 0.5
                and card["bottom"] <= stage["bottom"] + 0.5
            )
            assert inside, f"{what}: a card of seat {fan['seat']} is cut off: {card} {stage}"


@pytest.fixture
def replay_url(site):
    room, rnd = in_a_thread(finished_round, "babanuki", 4, rounds=1)
    return f"{site}/replay/{rnd.replay_id}/"


def replay_positions(page):
    total = int(page.locator("#replay-position").text_content().split("/")[1])
    return total


# Each size and view a test of its own: some 40 moves each, so that workers share them.
@pytest.mark.parametrize("view", ["angled", "top"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_replay_hands_are_never_under_a_tag_nor_cut_off(replay_url, new_page, size, view):
    viewport = matrix.SIZES[size]
    # Where each move's cards come to rest, not how they move there: without motion, each
    # step is at rest at once (the table's reduced-motion rules stop only its animations).
    page = new_page(hurried=True, viewport=viewport, reduced_motion="reduce")
    page.goto(replay_url)
    page.wait_for_selector("#seats-ring .card", timeout=TURN_MS)
    total = replay_positions(page)
    page.locator(f".view-switch button[data-view={view}]").click()
    page.locator("#replay-start").click()
    for step in range(total + 1):
        expect(page.locator("#replay-position")).to_have_text(f"{step} / {total}")
        settle(page)
        what = f"{viewport['width']}px, {view}, move {step}"
        assert_replay_hands_in_sight(page.evaluate(BOXES), what)
        if step < total:
            page.locator("#replay-forward").click()


@pytest.mark.parametrize("locale", LOCALES)
def test_screenshots_of_the_replay(replay_url, new_page, locale):
    page = new_page(hurried=True, viewport=LAPTOP, locale=locale)
    page.goto(replay_url)
    page.wait_for_selector("#seats-ring .card", timeout=TURN_MS)
    page.locator("#replay-end").click()
    for name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        settle(page)
        shot(page, f"replay-end-{name}-{locale}")
        assert_replay_hands_in_sight(page.evaluate(BOXES), f"{locale} {name}")


# -- the end of a match -----------------------------------------------------------------

TAG_WORDS = """() => [...document.querySelectorAll('.seat-tag')].map((t) => ({
  seat: Number(t.dataset.tagSeat),
  info: t.querySelector('.info')?.textContent || '',
  ribbon: t.querySelector('.ribbon')?.innerText || '',
}))"""


def test_once_the_match_is_over_the_tags_tell_the_match_as_the_banner_does(site, new_page):
    """A one-round match against the computer, played out: the winner's tag says "won the
    match" (as the banner names the winner), the others' their places in the match; no tag
    keeps the last round's words beside the banner's (issue 33: "You won the match" while
    your tag said "lost")."""
    page = new_page(hurried=True, viewport=LAPTOP)
    new_game(page, site, players="3")
    fast_forward_to_the_end(page)
    settle(page)
    tags = page.evaluate(TAG_WORDS)
    names = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.seat-tag')].map((t) =>"
        " [t.dataset.tagSeat, t.querySelector('.who')?.textContent || '']))"
    )
    for tag in tags:
        assert not re.search(r"\b(won|lost)\b", tag["info"]), tag
        assert "round" not in tag["ribbon"], tag
    # A computer's tag carries its level too: "won the match" beside it cut its name short.
    cut = page.evaluate(LAYOUT_BOXES)["cut"]
    assert not cut, f"cut text in a name tag: {cut}"
    winners = [t for t in tags if t["ribbon"] == "won the match"]
    assert len(winners) == 1, tags
    assert sorted(t["ribbon"] for t in tags if t not in winners) == ["2nd", "3rd"], tags
    winner = names[str(winners[0]["seat"])].replace(" (you)", "")
    expect(page.locator("#result-match")).to_contain_text(f"Winner: {winner}")
    expect(page.locator("#result-ranking li")).to_have_count(3)


# -- names ------------------------------------------------------------------------------

NESTED = re.compile(r"\([^()]*\(|（[^（）]*[（(]|\([^()]*（")


def test_every_seat_has_one_short_name(site, new_page):
    page = new_page(hurried=True, viewport=LAPTOP)
    new_game(page, site, players="4")
    wait_for_my_turn(page)
    status = page.locator("#status-line").text_content()
    assert not NESTED.search(status), status
    assert "(computer" not in status, status
    rows = page.locator("#seat-table tbody tr")
    expect(rows).to_have_count(4)
    for i in range(1, 4):
        row = rows.nth(i)
        expect(row.locator(".badge")).to_have_count(1)
        name = row.locator(".seat-name").text_content()
        assert name and "(" not in name, name
        expect(row.locator(".seat-what")).to_have_text(
            re.compile(r"^computer · (easy|medium|hard)")
        )
        # The seat's name is the same on its tag.
        expect(page.locator(f'.seat-tag[data-tag-seat="{i}"] .who')).to_have_text(name)
    fast_forward_to_the_end(page)
    page.reload()
    page.locator("#history a[href*='/replay/']").first.click()
    page.wait_for_selector("#move-list li", timeout=TURN_MS)
    page.locator("#replay-end").click()
    moves = page.locator("#move-list").text_content()
    assert not NESTED.search(moves), moves
    assert "(computer" not in moves, moves
    expect(page.locator("#seat-table .seat-what").first).to_contain_text("computer · ")


def test_an_empty_hand_shows_no_lone_bullet(site, new_page):
    page = new_page(hurried=True, viewport=LAPTOP)
    new_game(page, site, players="2", mode="same_device")
    # The curtain is down: no hand is shown, and the list of your cards is empty.
    expect(page.locator("#curtain")).to_be_visible()
    bullets = page.evaluate(
        "() => [...document.querySelectorAll('#my-cards li')]"
        ".filter((li) => getComputedStyle(li).display === 'list-item'"
        " && getComputedStyle(li).listStyleType !== 'none')"
        ".map((li) => li.textContent)"
    )
    assert all(text.strip() not in ("", "–") for text in bullets), bullets


# -- your own hand ----------------------------------------------------------------------

#: Your own cards' boxes, and the giver's (lifted to you, smaller than yours).
OWN_AND_GIVER = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {w: r.width, h: r.height}; };
  return {
    own: [...document.querySelectorAll('#my-hand .card')].map(box),
    giver: [...document.querySelectorAll('#giver-hand .card')].map(box),
  };
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_your_own_cards_are_whole_cards_no_smaller_than_the_givers(site, new_page, viewport):
    """Another stylesheet's rule once shrank every card of your own hand to a strip (a
    reaction face's class was also the face-up cards' class): each card you hold is at
    least as tall as the giver's cards and about as wide as a card is."""
    page = new_page(hurried=True, viewport=viewport)
    new_game(page, site, players="2")
    wait_for_my_turn(page)
    settle(page)
    found = page.evaluate(OWN_AND_GIVER)
    assert found["own"] and found["giver"], found
    tallest_giver = max(card["h"] for card in found["giver"])
    for card in found["own"]:
        assert card["h"] >= tallest_giver - 0.5, f"your card {card} is smaller than the giver's"
        assert card["w"] >= 0.6 * card["h"], f"your card {card} is a strip, not a card"


# -- the sticky header ------------------------------------------------------------------

UNDER_THE_HEADER = """() => {
  const header = document.querySelector('.site-header').getBoundingClientRect();
  return ['.room-head h1', '#status-line', '#result'].map((sel) => document.querySelector(sel))
    .filter((el) => el && el.offsetParent)
    .filter((el) => el.getBoundingClientRect().top < header.bottom - 0.5)
    .map((el) => `${el.id || el.tagName}: ${el.getBoundingClientRect().top} < ${header.bottom}`);
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_nothing_slides_under_the_sticky_header_after_a_resignation(site, new_page, viewport):
    page = new_page(hurried=True, viewport=viewport)
    new_game(page, site, players="2")
    wait_for_my_turn(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#seat-actions button").click()
    expect(page.locator("#result-match")).to_contain_text("You resigned.")
    settle(page)
    assert page.evaluate(UNDER_THE_HEADER) == []
    shot(page, f"resigned-{viewport['width']}")


# -- the giver's hand in two rows -------------------------------------------------------


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("seats", ["2", "3"])
def test_the_giver_hand_hides_no_other_fan_nor_the_pile(site, new_page, seats, viewport):
    """At two seats each hand starts with about half the pack: the giver's hand, lifted to
    you, then mostly lies in two rows."""
    page = new_page(hurried=True, viewport=viewport)
    new_game(page, site, players=seats)
    wait_for_my_turn(page)
    settle(page)
    found = page.evaluate(BOXES)
    assert found["pile"], "no pile"
    for card in found["pick"]:
        for other in found["pile"]:
            assert not overlap(card, other, slack=1), f"the giver's hand hides the pile: {card}"
        for fan in found["fans"]:
            if fan["seat"] == found["giver"]:
                continue
            for other in fan["cards"]:
                assert not overlap(card, other, slack=1), (
                    f"the giver's hand hides seat {fan['seat']}'s fan: {card} {other}"
                )
    shot(page, f"two-rows-{seats}-seats-{viewport['width']}")
