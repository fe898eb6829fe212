"""The computer's pace changed at the table, as a player sees it: the host's three buttons
in the table's settings, the one pressed the room's speed, a change said in the polite
live region and kept through a reload; screenshots in three languages at both sizes."""

from playwright.sync_api import expect

from games.models import Room
from tests import matrix
from tests.browser.conftest import (
    HTML_LANG,
    in_a_thread,
    in_language,
    needs_browser,
    new_game,
    shot,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


#: What the live region says in each language once the host chose "Slow".
SAID = {
    "en-US": "The computer now plays at this speed: Slow.",
    "ja-JP": "コンピューターの速さが「ゆっくり」になりました。",
    "zh-CN": "电脑速度已改为“慢”。",
    "zh-TW": "電腦速度已改為「慢速」。",
    "de-DE": "Der Computer spielt jetzt in diesem Tempo: Langsam.",
    "ko-KR": "이제 컴퓨터가 이 속도로 플레이해요: 느리게.",
}


def room_speed(code: str) -> str:
    return in_a_thread(lambda: Room.objects.get(code=code).computer_speed)


@matrix.parametrize("locale", "size")
def test_the_host_slows_the_computer_from_the_table(site, new_page, locale, size):
    viewport = matrix.SIZES[size]
    page = new_page(hurried=True, viewport=viewport, locale=locale)
    new_game(page, site, players="3")
    in_language(page, locale)
    setting = page.locator("#speed-setting")
    expect(setting).to_be_visible()
    buttons = setting.locator("button[data-speed]")
    expect(buttons).to_have_count(3)
    expect(setting.locator("button[aria-pressed=true]")).to_have_attribute("data-speed", "normal")
    setting.locator("button[data-speed=slow]").click()
    expect(setting.locator("button[aria-pressed=true]")).to_have_attribute("data-speed", "slow")
    expect(page.locator("#together-live")).to_have_text(SAID[locale])
    code = page.url.rstrip("/").split("/")[-1].split("?")[0]
    assert room_speed(code) == "slow"
    # What the player sees there: the viewport (a full-page shot would draw the sticky
    # header where the page was scrolled to).
    setting.scroll_into_view_if_needed()
    shot(page, f"computer-speed-{HTML_LANG[locale]}-{viewport['width']}", full_page=False)
    page.reload()
    expect(page.locator("#speed-setting button[aria-pressed=true]")).to_have_attribute(
        "data-speed", "slow"
    )
