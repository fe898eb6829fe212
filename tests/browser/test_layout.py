"""The whole turn fits the screen: on a laptop and on a phone, at 2, 4 and 8 seats, when it
is your turn the status line, every card of the giver's hand, your own hand and the Draw
control lie inside the viewport without scrolling; the seats' name tags never overlap and
never cut their text; and every seat's letter differs from the others'."""

import pytest

from tests import matrix
from tests.browser.boxes import LAYOUT_BOXES
from tests.browser.conftest import (
    LAPTOP,
    TURN_MS,
    both_sizes,
    in_language,
    needs_browser,
    new_game,
    open_at_the_round_end,
    settle,
    shot,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

VIEWPORTS = [(1366, 768), (1280, 720), (390, 844), (360, 740)]


def assert_fits(found, what):
    inside = lambda b: (  # noqa: E731
        b["x"] >= -1
        and b["y"] >= -1
        and b["right"] <= found["width"] + 1
        and b["bottom"] <= found["height"] + 1
        and b["w"] > 0
    )
    for name in ("status", "giver", "mine", "draw"):
        assert found[name], f"{what}: no {name} on the page"
        outside = [b for b in found[name] if not inside(b)]
        assert not outside, f"{what}: {name} outside the viewport: {outside}"
    tags = found["tags"]
    assert all(inside(t) for t in tags), f"{what}: a name tag leaves the screen: {tags}"
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            apart = (
                a["right"] <= b["x"] + 0.5
                or b["right"] <= a["x"] + 0.5
                or a["bottom"] <= b["y"] + 0.5
                or b["bottom"] <= a["y"] + 0.5
            )
            assert apart, f"{what}: name tags overlap: {a} {b}"
    assert not found["cut"], f"{what}: cut text in a name tag: {found['cut']}"


def wait_for_my_turn(page):
    page.wait_for_selector("#giver-hand .card", timeout=TURN_MS)
    page.wait_for_selector("#status-line.mine", timeout=TURN_MS)


@pytest.mark.parametrize("seats", ["2", "4", "8"])
def test_the_turn_fits_the_screen(site, new_page, seats):
    page = new_page(hurried=True, viewport={"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]})
    new_game(page, site, players=seats)
    wait_for_my_turn(page)
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("scrollTo(0, 0)")
        settle(page)
        found = page.evaluate(LAYOUT_BOXES)
        what = f"{seats} seats at {width}x{height}"
        assert found["scrollY"] == 0
        assert_fits(found, what)
        assert len(found["tags"]) == int(seats)
        assert len(set(found["letters"])) == int(seats), f"{what}: letters {found['letters']}"
        shot(page, f"layout-{seats}-seats-{width}x{height}")


@pytest.mark.parametrize("locale", [locale for locale in matrix.LOCALES if locale != "en-US"])
def test_eight_seats_fit_in_other_languages(site, new_page, locale):
    page = new_page(hurried=True, viewport={"width": 360, "height": 740}, locale=locale)
    new_game(page, site, players="8")
    in_language(page, locale)
    wait_for_my_turn(page)
    for width, height in (VIEWPORTS[3], VIEWPORTS[0]):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        found = page.evaluate(LAYOUT_BOXES)
        assert_fits(found, f"{locale} at {width}x{height}")
        assert len(set(found["letters"])) == 8, found["letters"]
        shot(page, f"layout-8-seats-{width}x{height}-{locale}")


# -- a whole match, as a player sees it, in every language ------------------------------

GAMES = {
    # locale: (variant, how long the match runs). One match of several rounds shows the
    # screen between rounds; the other languages end after one round, to keep the suite
    # short (their round-over screen is then also the match's end).
    "en-US": ("babanuki", {"rounds": "3"}),
    "ja-JP": ("jijinuki", {"rounds": "1"}),
    "zh-CN": ("old_maid", {"strike_limit": "1"}),
    "zh-TW": ("babanuki", {"rounds": "1"}),
    "de-DE": ("schwarzer_peter", {"strike_limit": "1"}),
    "ko-KR": ("babanuki", {"rounds": "1"}),
}


@pytest.mark.parametrize("locale", list(GAMES))
def test_screenshots_of_a_whole_match(site, new_page, locale):
    variant, length = GAMES[locale]
    page = new_page(hurried=True, viewport=LAPTOP, locale=locale)
    page.goto(f"{site}/new/")
    page.locator(f"input[name=variant][value={variant}]").check()
    page.locator("select[name=seat_count]").select_option("4")
    if "rounds" in length:
        page.locator("select[name=rounds]").select_option(length["rounds"])
    else:
        page.locator("select[name=strike_limit]").select_option(length["strike_limit"])
    page.locator("form.new-game button[type=submit]").click()
    in_language(page, locale)
    wait_for_my_turn(page)
    both_sizes(page, f"look-your-turn-{locale}")
    # Mid-game: a card chosen, glowing, in the giver's hand lifted to you.
    page.locator("#giver-hand .card").first.click()
    both_sizes(page, f"look-chosen-{locale}")
    open_at_the_round_end(page)
    settle(page)
    both_sizes(page, f"look-round-over-{locale}")
    for _ in range(10):
        if page.locator("#result-match").text_content():
            break
        page.locator("#result-actions button").click()  # the next round
        page.wait_for_selector("#result", state="hidden")
        open_at_the_round_end(page)
    assert page.locator("#result-match").text_content()
    settle(page)
    both_sizes(page, f"look-match-over-{locale}")
    # The first round's replay, at its end.
    page.reload()
    page.locator("#history a[href*='/replay/']").first.click()
    page.wait_for_selector("#seats-ring .card", timeout=TURN_MS)
    page.locator("#replay-end").click()
    settle(page)
    both_sizes(page, f"look-replay-{locale}")
