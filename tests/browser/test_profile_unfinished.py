"""In a real browser: a game walked away from shows on the profile as unfinished, with
when it was last played, a way back to the table and a way to end it; photographed in
each language at laptop and phone size."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Room
from tests.browser.axe import serious
from tests.browser.conftest import (
    in_language,
    needs_browser,
    new_game,
    shot,
    sign_up,
    until_deadline,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
WORDS = {
    "en-US": ("Unfinished", "Resume", "Resign", "You resigned room", "Lost"),
    "ja-JP": ("未完了", "続きを遊ぶ", "投了", "で投了しました", "負け"),
    "zh-CN": ("未完成", "继续玩", "认输", "认输", "输"),
}


def unfinished_row(page, site, code):
    """The profile's row for ``code`` once the table's socket has closed (the page left
    it): until then it may still say "in progress"."""
    row = page.locator("li", has=page.locator(f'a[href="/r/{code}/"]')).first
    for _ in until_deadline(60):
        page.goto(f"{site}/accounts/profile/")
        if row.locator("form.unfinished-actions").count():
            return row
    raise AssertionError("the game never showed as unfinished")


@pytest.mark.parametrize("locale", list(WORDS))
def test_an_unfinished_game_can_be_resumed_or_ended_from_the_profile(site, new_page, locale):
    unfinished, resume, resign, resigned, lost = WORDS[locale]
    page = new_page(viewport=LAPTOP, locale=locale)
    sign_up(page, site, f"walker{locale[:2]}")
    new_game(page, site, players="2", single=False)
    code = page.url.rstrip("/").split("/")[-1]
    row = unfinished_row(page, site, code)
    in_language(page, locale)
    expect(row.locator(".badge")).to_have_text(unfinished)
    expect(row.locator(".unfinished-note")).to_contain_text(unfinished)
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"profile-unfinished-{locale}-{size}")
    assert serious(page) == []
    # Back to the table, which is still there to play.
    row.get_by_role("link", name=resume).click()
    expect(page).to_have_url(re.compile(rf"/r/{code}/$"))
    expect(page.locator("#status-line")).not_to_be_empty(timeout=60_000)
    # ... or out of it, for good: two seats, so resigning.
    row = unfinished_row(page, site, code)
    row.get_by_role("button", name=resign).click()
    expect(page.locator(".messages")).to_contain_text(resigned)
    expect(page.locator(f'li:has(a[href="/r/{code}/"]) .badge')).to_have_text(lost)
    assert Room.objects.get(code=code).matches.get().ended_by["how"] == "resign"
    page.set_viewport_size(PHONE)
    shot(page, f"profile-ended-{locale}-phone")
