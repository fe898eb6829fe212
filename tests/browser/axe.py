"""axe-core in a real page: the serious and critical accessibility violations it finds,
and the table in the middle of a game checked for them."""

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import SETTLED, TURN_MS, WAIT_FOR_TURN, answered, match_over


def serious(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(n["target"][0] for n in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def check_the_table_mid_game(site, new_page) -> None:
    """A new game versus the computer on a page of ``new_page``'s, a draw or two in and
    at rest: axe finds no serious or critical violation at its table."""
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
