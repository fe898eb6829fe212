""" "How to play" in four pictures (static/js/howto.js, templates/pages/_howto.html): shown
by itself once, on a person's first table; a labelled modal dialog that takes the focus
and gives it back, closed by its button or Escape; opened again from the table and the
rules page; and it fits a phone and a laptop in every language."""

from playwright.sync_api import expect

from tests import matrix
from tests.browser.conftest import in_language, needs_browser, new_game, shot
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def focus_inside(page) -> bool:
    return page.evaluate("document.getElementById('howto').contains(document.activeElement)")


def test_a_first_table_shows_how_to_play_once_escape_closes_it_and_the_table_reopens_it(
    site, new_page
):
    page = new_page(first_visit=True, viewport={"width": 1366, "height": 768})
    new_game(page, site, players="2")
    dialog = page.get_by_role("dialog", name="How to play")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".howto-steps li")).to_have_count(4)
    assert focus_inside(page), "the focus moves into the dialog"
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # Back on the table (its area, or the giver's cards if the turn came): the dialog's
    # close event, which gives the focus back, comes a moment after it is hidden.
    page.wait_for_function(
        "() => document.getElementById('table-area').contains(document.activeElement)"
    )
    # Remembered on the device: not again on the next table.
    page.reload()
    expect(page.locator("#status-line")).not_to_be_empty()
    page.wait_for_timeout(500)
    expect(dialog).to_be_hidden()
    # Again, from the table's own button; "Got it" closes it and the focus returns there.
    opener = page.locator("#controls [data-howto-open]")
    opener.click()
    expect(dialog).to_be_visible()
    assert focus_inside(page)
    dialog.get_by_role("button", name="Got it").click()
    expect(dialog).to_be_hidden()
    page.wait_for_function("() => document.activeElement.hasAttribute('data-howto-open')")


def test_the_rules_page_opens_how_to_play_above_the_full_rules_and_never_by_itself(site, new_page):
    page = new_page(first_visit=True)
    page.goto(f"{site}/rules/")
    dialog = page.locator("#howto")
    page.wait_for_timeout(300)
    expect(dialog).to_be_hidden()
    page.locator("[data-howto-open]").click()
    expect(page.get_by_role("dialog", name="How to play")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#how-to-play")).to_be_attached()  # the full rules stay


@matrix.parametrize("locale", "size", "scheme")
def test_how_to_play_fits_the_screen_without_scrolling(site, new_page, locale, size, scheme):
    page = new_page(
        first_visit=True, locale=locale, viewport=matrix.SIZES[size], color_scheme=scheme
    )
    page.goto(f"{site}/rules/")
    in_language(page, locale)
    page.locator("[data-howto-open]").click()
    dialog = page.locator("#howto")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    view = matrix.SIZES[size]
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= view["width"] and box["y"] + box["height"] <= view["height"]
    assert dialog.evaluate("d => d.scrollHeight <= d.clientHeight + 1"), (
        "all four steps and the button fit"
    )
    for step in dialog.locator(".howto-steps li").all():
        assert step.bounding_box()["y"] + step.bounding_box()["height"] <= view["height"]
    shot(page, f"howto-{locale}-{size}-{scheme}", full_page=False)  # the screen as seen


@matrix.parametrize("scheme")
def test_the_open_how_to_play_on_a_first_table_has_no_serious_axe_violations(
    site, new_page, scheme
):
    from tests.browser.axe import serious

    page = new_page(first_visit=True, viewport=matrix.SIZES["phone"], color_scheme=scheme)
    new_game(page, site, players="2")
    expect(page.get_by_role("dialog", name="How to play")).to_be_visible()
    assert serious(page) == []
    shot(page, f"howto-first-table-phone-{scheme}", full_page=False)
    page.keyboard.press("Escape")
    shot(page, f"howto-table-after-phone-{scheme}", full_page=False)
