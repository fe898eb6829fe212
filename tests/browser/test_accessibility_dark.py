"""axe-core in dark mode (Playwright's ``color_scheme="dark"``): the same pages and the
table mid-game as ``test_accessibility`` show no serious or critical violations with the
dark colour tokens, and the run really is dark (a contrast failure that only dark mode
has is caught)."""

from tests.browser.axe import check_the_table_mid_game, serious
from tests.browser.conftest import needs_browser
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

PAGES = ("/", "/rules/", "/new/", "/accounts/login/", "/accounts/signup/")


def in_dark(new_page, opened: list):
    """``new_page`` for a browser that prefers dark colours, keeping each page opened."""

    def make(**options):
        page = new_page(color_scheme="dark", **options)
        opened.append(page)
        return page

    return make


def drawn_dark(page) -> bool:
    """The page prefers dark colours and its background is drawn dark."""
    red, green, blue = page.evaluate(
        "getComputedStyle(document.documentElement).backgroundColor"
        ".match(/\\d+/g).slice(0, 3).map(Number)"
    )
    prefers = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    return prefers and red + green + blue < 3 * 64


def test_pages_in_dark_mode_have_no_serious_violations(site, new_page):
    page = in_dark(new_page, [])()
    for path in PAGES:
        page.goto(site + path)
        assert drawn_dark(page), path
        assert serious(page) == [], path


def test_table_mid_game_in_dark_mode_has_no_serious_violations(site, new_page):
    opened = []
    check_the_table_mid_game(site, in_dark(new_page, opened))
    (page,) = opened
    assert drawn_dark(page)


def test_the_dark_check_catches_a_contrast_failure_only_dark_mode_has(site, new_page):
    # Dark grey text: readable on the light page, not on the dark one. Set through the
    # CSSOM: the site's Content Security Policy drops inline style attributes.
    low = (
        "const p = document.createElement('p'); p.textContent = 'Too dark on the dark page';"
        " p.style.color = '#333'; document.querySelector('main').append(p)"
    )
    found = {}
    for scheme in ("light", "dark"):
        page = new_page(hurried=True, color_scheme=scheme)
        page.goto(site + "/rules/")
        page.evaluate(low)
        found[scheme] = " ".join(serious(page))
    assert "color-contrast" in found["dark"] and "color-contrast" not in found["light"]
