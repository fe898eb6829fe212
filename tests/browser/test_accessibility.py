"""axe-core finds no serious or critical accessibility violations on the lobby, the
table in the middle of a game, the new-game form, the rules page, the invitation and
the lock-out page."""

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests import matrix
from tests.browser.conftest import (
    SETTLED,
    TURN_MS,
    WAIT_FOR_TURN,
    answered,
    match_over,
    needs_browser,
    shot,
    sign_up,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def serious(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(n["target"][0] for n in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_pages_have_no_serious_violations(site, new_page):
    page = new_page(hurried=True)
    for path in ("/", "/rules/", "/new/", "/accounts/login/", "/accounts/signup/"):
        page.goto(site + path)
        assert serious(page) == [], path


def test_table_mid_game_has_no_serious_violations(site, new_page):
    page = new_page(hurried=True)
    page.goto(f"{site}/new/")
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    # A draw or two in, so that the pile, the last move and the announcements are filled.
    for _ in range(2):
        page.wait_for_function(WAIT_FOR_TURN, arg="#giver-buttons button", timeout=TURN_MS)
        if match_over(page):
            break
        page.locator("#giver-buttons button").first.click()
        chosen = page.locator("#giver-buttons button[aria-pressed=true]").element_handle()
        page.locator("#draw-button").click()
        answered(page, chosen)
    # The computers' turns are over, and every draw animation has settled: a card caught
    # mid-fade is not a contrast failure.
    page.wait_for_function(WAIT_FOR_TURN, arg="#giver-buttons button", timeout=TURN_MS)
    page.wait_for_function(SETTLED, timeout=TURN_MS)
    assert serious(page) == []


def test_the_lockout_page_has_no_serious_violations(site, new_page):
    sign_up(new_page(hurried=True), site, "locked")
    for locale in matrix.LOCALES:
        page = new_page(hurried=True, locale=locale)
        for _ in range(5):
            page.goto(f"{site}/accounts/login/")
            page.locator("#id_username").fill("locked")
            page.locator("#id_password").fill("not-the-password")
            page.locator("#main").get_by_role("button").click()
        expect(page.locator("main .errors")).to_be_visible()
        shot(page, f"locked-out-{locale}")
        assert serious(page) == [], locale


def test_the_check_does_catch_a_violation(site, new_page):
    page = new_page(hurried=True)
    page.goto(site + "/rules/")
    page.evaluate(
        "document.querySelector('main').insertAdjacentHTML('beforeend', "
        "'<img src=\"/x.png\"><button></button>')"
    )
    found = " ".join(serious(page))
    assert "image-alt" in found and "button-name" in found
