"""axe-core finds no serious or critical accessibility violations on the lobby, the
table in the middle of a game, the new-game form, the rules page, the invitation and
the lock-out page."""

from playwright.sync_api import expect

from tests import matrix
from tests.browser.axe import check_the_table_mid_game, serious
from tests.browser.conftest import needs_browser, shot, sign_up
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def test_pages_have_no_serious_violations(site, new_page):
    page = new_page(hurried=True)
    for path in ("/", "/rules/", "/new/", "/accounts/login/", "/accounts/signup/"):
        page.goto(site + path)
        assert serious(page) == [], path


def test_table_mid_game_has_no_serious_violations(site, new_page):
    check_the_table_mid_game(site, new_page)


def test_the_lockout_page_has_no_serious_violations(site, new_page):
    sign_up(new_page(hurried=True), site, "locked")
    # The account is locked for this address by the first locale's five failures (the
    # limit, LOGIN_FAILURE_LIMIT); each other locale meets the lockout at its first try.
    for tries, locale in zip([5] + [1] * (len(matrix.LOCALES) - 1), matrix.LOCALES, strict=True):
        page = new_page(hurried=True, locale=locale)
        for _ in range(tries):
            page.goto(f"{site}/accounts/login/")
            page.locator("#id_username").fill("locked")
            page.locator("#id_password").fill("not-the-password")
            page.locator("#main").get_by_role("button").click()
        # The lockout page's own words (the log-in form's errors are a div).
        expect(page.locator("main p.errors")).to_be_visible()
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
