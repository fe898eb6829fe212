"""A replay in a real browser: the deal is verified in the page, and the round can be
stepped through with the keyboard."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import needs_browser, new_game, play_with_mouse
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def test_replay_verifies_the_deal_and_steps_with_the_keyboard(site, new_page):
    page = new_page()
    new_game(page, site, players="2")
    play_with_mouse(page)
    page.reload()
    page.get_by_role("link", name=re.compile(r"Replay round 1")).click()
    expect(page).to_have_url(re.compile(r"/replay/"))
    expect(page.locator("#verify-status")).to_contain_text("Deal verified")
    total = int(page.locator("#replay-position").text_content().split("/")[1])
    assert total >= 1
    page.locator("#replay-forward").focus()
    for _ in range(min(total, 3)):
        page.keyboard.press("Enter")
    expect(page.locator("#replay-position")).to_have_text(f"{min(total, 3)} / {total}")
    page.locator("#replay-back").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-position")).to_have_text(f"{min(total, 3) - 1} / {total}")
    page.locator("#replay-end").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#result-odd")).to_contain_text("was left holding")
    # Every hand is face up in a replay; the move list names the cards.
    assert page.locator(".spot .faces .card").count() >= 1
    assert page.locator("#move-list li").count() == total + 1


def test_a_tampered_deal_is_not_verified(site, new_page):
    page = new_page()
    new_game(page, site, players="2")
    play_with_mouse(page)
    page.reload()
    link = page.get_by_role("link", name=re.compile(r"Replay round 1")).get_attribute("href")
    # Swap two dealt cards in the page's data before the check runs.
    page.route(
        re.compile(r".*/replay/.*"),
        lambda route: route.fulfill(
            response=route.fetch(),
            body=re.sub(
                r'"dealt": \[\["(\w+)", "(\w+)"',
                r'"dealt": [["\2", "\1"',
                route.fetch().text(),
                count=1,
            ),
        ),
    )
    page.goto(site + link)
    expect(page.locator("#verify-status")).to_contain_text("NOT verified")
