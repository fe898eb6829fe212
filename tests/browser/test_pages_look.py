"""Designed pages: every page outside the table, in English, Japanese and Chinese, at a
laptop and a phone size, light and dark: each locale, size and scheme every run, in the
pairs tests/matrix.py chooses (every combination under ``make test-matrix``). Each is
photographed (test-artifacts/screenshots, pages-*) and checked for what a visitor would
notice: nothing missing (no 404, the favicon included), a compact header with the current
page marked, the language menu in each language's own words, disabled buttons that look
disabled, and no serious axe issue.
The pages that name seats (the lobby, the invitation, the room page with computers) name
each once, as the table does, never "Clara (computer, easy)"; the rules page does not
scroll sideways on a phone, nor do the bot API's guides, whose code blocks and tables
scroll inside themselves."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from telemetry.models import Event
from tests import matrix
from tests.browser.axe import serious
from tests.browser.conftest import in_a_thread, needs_browser, shot, sign_up
from tests.play import play_match_out
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

HEADER_MAX = {"laptop": 64, "phone": 56}
LANGUAGE_NAMES = [name for _, name in settings.LANGUAGES]

#: The lines of each block of text on the page that end on a single character, the
#: punctuation after it aside ("す。", "人", "始）" alone on the last line), for the
#: languages written without spaces: a phrase cut short. Table headings hidden on a phone
#: (the rows are cards there) and code are not text for reading.
LONE_LAST_CHARACTERS = r"""() => {
  const found = [];
  const blocks = 'main :is(p, li, dd, td, th, caption, h1, h2, h3, label, .note, .help)';
  for (const el of document.querySelectorAll(blocks)) {
    if (!el.offsetParent || el.closest('[hidden], .visually-hidden, pre, code')) continue;
    let clipped = false;
    for (let a = el; a; a = a.parentElement) clipped ||= getComputedStyle(a).clipPath !== 'none';
    const blocks = ['block', 'flex', 'grid', 'list-item'];
    const blockish = (c) => blocks.includes(getComputedStyle(c).display);
    if (clipped || [...el.children].some(blockish)) continue;
    const em = parseFloat(getComputedStyle(el).fontSize);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const lines = [];
    let previous = null;
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (text.parentElement.closest('.visually-hidden, code')) continue;
      for (let i = 0; i < text.length; i++) {
        if (/\s/.test(text.data[i])) continue;
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const box = range.getBoundingClientRect();
        if (!box.width) continue;
        if (previous === null || Math.abs(box.bottom - previous) > 0.6 * em) lines.push('');
        lines[lines.length - 1] += text.data[i];
        previous = box.bottom;
      }
    }
    const last = lines.length > 1 ? lines[lines.length - 1] : '';
    const bare = [...last.replace(/[。、，．！？」』）)：:,.!?]/g, '')];
    if (last && bare.length <= 1) found.push(lines.slice(-2).join(' | '));
  }
  return found;
}"""
#: The languages written without spaces between words.
WITHOUT_SPACES = ("ja-JP", "zh-CN", "zh-TW")

# Computed styles a disabled button must differ in from an enabled one: its colours and a
# cue that is not colour (a dashed edge), and the cursor.
COMPARE_BUTTONS = """() => {
  const main = document.querySelector("main");
  const box = document.createElement("div");
  box.innerHTML = '<button class="primary">a</button><button class="primary" disabled>a</button>'
    + '<button>b</button><button disabled>b</button>';
  main.append(box);
  const props = ["background-color", "color", "border-top-style", "cursor"];
  const style = (b) => props.map((p) => getComputedStyle(b).getPropertyValue(p));
  const [p, pd, s, sd] = [...box.children].map(style);
  box.remove();
  return {primary: [p, pd], secondary: [s, sd]};
}"""


@pytest.fixture
def world(site, new_page):
    """A signed-in staff player with a history, two listed rooms and an invitation, and a
    few days of usage statistics; returns the player's browser state and the invitation."""
    page = new_page(hurried=True)
    sign_up(page, site, "pat")
    expect(page.locator(".site-header nav")).to_contain_text("pat")
    pat = User.objects.get(username="pat")
    User.objects.filter(pk=pat.pk).update(is_staff=True)
    paths = in_a_thread(lambda: make_games(services.Actor(user_id=pat.pk)))
    make_events()
    return {"state": page.context.storage_state(), **paths}


def make_games(me) -> dict:
    """Pat's history (a finished match against two computers, a resigned one, one in play)
    and two listed rooms waiting for players; returns the paths of the first one's
    invitation and of the finished and the resigned room."""
    finished = services.create_room(
        actor=me, name="pat", variant="old_maid", seat_count=3, mode="computer", strike_limit=1
    )
    play_match_out(finished.pk, {0: me})
    resigned = services.create_room(
        actor=me, name="pat", variant="babanuki", seat_count=2, mode="computer", rounds=1
    )
    services.resign(room_id=resigned.pk, actor=me)
    services.create_room(
        actor=me, name="pat", variant="jijinuki", seat_count=4, mode="computer", rounds=3
    )

    invitation = None
    for name, variant, seats, options in (
        # Tables where the balanced deal is offered, so that the lobby names it.
        ("hostess", "babanuki", 5, {}),
        ("マリコ", "schwarzer_peter", 4, {"same_colour_pairs": True}),
    ):
        host = User.objects.create_user(name, password="a-long-password-42")
        room = services.create_room(
            actor=services.Actor(user_id=host.pk),
            name=name,
            variant=variant,
            seat_count=seats,
            mode="friends",
            listed=True,
            options=options,
        )
        invitation = invitation or f"/join/{room.token}/"
    return {
        "invitation": invitation,
        "room": f"/r/{finished.code}/",
        "resigned": f"/r/{resigned.code}/",
    }


def make_events() -> None:
    """Six days of usage statistics in every way of playing."""
    today = timezone.localdate()
    for days_ago in range(6):
        for i, mode in enumerate(("computer", "same_device", "friends")):
            common = {
                "date": today - timedelta(days=days_ago),
                "variant": "babanuki",
                "mode": mode,
                "phone": "yes" if i % 2 else "no",
                "browser": ("chrome", "firefox", "safari")[i],
                "os": ("android", "windows", "ios")[i],
            }
            for _ in range(days_ago % 3 + i + 1):
                Event.objects.create(kind="game_started", **common)
            Event.objects.create(kind="game_finished", result="won", **common)
            Event.objects.create(kind="render_speed", render_speed=">50fps", **common)


#: How a nested seat name would start, in each language ("Clara (computer, easy)").
NESTED = {
    "en-US": "(computer, ",
    "ja-JP": "（コンピューター・",
    "zh-CN": "（电脑·",
    "zh-TW": "（電腦 · ",
    "de-DE": "(Computer, ",
    "ko-KR": "(컴퓨터, ",
}

#: Whether the page scrolls sideways, and the box around the table ``selector`` names.
SIDEWAYS = """(selector) => {
  const over = (el) => el.scrollWidth > el.clientWidth + 1;
  const table = document.querySelector(selector);
  const box = table && table.parentElement;
  return {
    page: over(document.documentElement),
    table: table ? over(box) || table.offsetWidth > box.clientWidth + 1 : null,
  };
}"""


#: Whether the page scrolls sideways; the code blocks and tables of a guide that are
#: wider than the page (none may be) and those that scroll inside themselves.
GUIDE_SIDEWAYS = """() => {
  const root = document.documentElement;
  const text = document.querySelector(".guide-text");
  const boxes = [...text.querySelectorAll("pre, .table-scroll")];
  const right = text.getBoundingClientRect().right + 1;
  return {
    page: root.scrollWidth > root.clientWidth + 1,
    wider: boxes.filter((b) => b.getBoundingClientRect().right > right).length,
    scrolling: boxes.filter((b) => b.scrollWidth > b.clientWidth + 1).length,
  };
}"""


def check_page(page, name, size, scheme, locale, missing):
    """What every page must show, then its photograph."""
    if name in ("lobby", "join", "room", "resigned"):
        text = page.locator("main").inner_text()
        assert NESTED[locale] not in text, (name, size, locale)
    if name in ("room", "resigned"):
        # Each seat of the rounds played named once, and what it is said in words.
        expect(page.locator("#history .seat-name").first).to_be_visible()
        assert page.locator("#history .seat-what").count() > 0, (name, locale)
    if name == "room":  # its match was played to the end: rounds to list
        # The rounds played fit a phone: no column cut, nothing to scroll sideways.
        sideways = page.evaluate(SIDEWAYS, "#history table.rounds")
        assert sideways == {"page": False, "table": False}, (size, locale, sideways)
    if name == "rules":
        # Its tables fit without scrolling sideways, as the page: on a phone the four
        # games and who gets the first card as a card per row, the balanced deals as rows.
        for table in ("table.variant-summary", "table.dealing:not(.balanced)", "table.balanced"):
            sideways = page.evaluate(SIDEWAYS, table)
            assert sideways == {"page": False, "table": False}, (table, size, locale, sideways)
    if locale in WITHOUT_SPACES and name not in ("bot-guide", "protocol"):
        assert page.evaluate(LONE_LAST_CHARACTERS) == [], (name, size, locale)
    if name in ("bot-guide", "protocol"):
        sideways = page.evaluate(GUIDE_SIDEWAYS)
        assert not sideways["page"] and sideways["wider"] == 0, (name, size, locale, sideways)
        if size == "phone":  # the wide examples scroll, inside their own boxes
            assert sideways["scrolling"] > 0, (name, locale, sideways)
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= HEADER_MAX[size], (name, size, header["height"])
    assert page.locator("#language-select option").all_text_contents() == LANGUAGE_NAMES
    styles = page.evaluate(COMPARE_BUTTONS)
    for kind, (enabled, disabled) in styles.items():
        assert enabled[0] != disabled[0], (kind, "background", enabled, disabled)
        assert enabled[2] != disabled[2] and enabled[3] != disabled[3], (kind, enabled, disabled)
    assert serious(page) == [], (name, size, scheme, locale)
    assert missing == [], missing
    shot(page, f"pages-{name}-{size}-{scheme}-{locale}")


# Each locale, size and scheme apart: the tours then spread over the test workers.
@matrix.parametrize("locale", "size", "scheme")
def test_every_page_looks_designed(site, new_page, world, locale, size, scheme):
    pages = {
        "lobby": "/",
        "new-game": "/new/",
        "profile": "/accounts/profile/",
        "rules": "/rules/",
        "fairness": "/fairness/",
        "bot-guide": "/docs/bots/",
        "protocol": "/docs/protocol/",
        "join": world["invitation"],
        "room": world["room"],
        "resigned": world["resigned"],
        "dashboard": "/staff/telemetry/",
    }
    visitor_pages = {"log-in": "/accounts/login/", "sign-up": "/accounts/signup/"}
    marked = {"lobby", "new-game", "profile", "rules", "dashboard", "log-in", "sign-up"}
    options = {"locale": locale, "viewport": matrix.SIZES[size], "color_scheme": scheme}
    for state, chosen in ((world["state"], pages), (None, visitor_pages)):
        page = new_page(hurried=True, storage_state=state, **options)
        missing: list[str] = []
        page.on("response", lambda r, m=missing: r.status == 404 and m.append(r.url))
        for name, path in chosen.items():
            response = page.goto(path if path.startswith("http") else site + path)
            assert response.status == 200, (name, response.status)
            if name in marked:
                expect(page.locator(".site-header [aria-current=page]")).to_have_count(1)
            check_page(page, name, size, scheme, locale, missing)
        # The favicon browsers ask for by themselves is there too.
        favicon = page.request.get(f"{site}/favicon.ico")
        assert favicon.status == 200 and favicon.headers["content-type"] in (
            "image/x-icon",
            "image/vnd.microsoft.icon",
        )

    if size == "phone":
        # The header's menu opens over the page and holds the nav and the languages.
        page = new_page(hurried=True, storage_state=world["state"], **options)
        page.goto(site + "/")
        menu = page.locator("#site-menu")
        expect(menu).to_be_hidden()
        page.locator(".menu-button").click()
        expect(menu).to_be_visible()
        expect(page.locator(".menu-button")).to_have_attribute("aria-expanded", "true")
        expect(menu.locator("#language-select")).to_be_visible()
        expect(menu.get_by_role("link", name="pat")).to_be_visible()
        assert page.locator(".site-header").bounding_box()["height"] <= 56
        assert serious(page) == []
        shot(page, f"pages-menu-{size}-{scheme}-{locale}")
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()


def test_the_language_menu_switches_and_keeps_the_page(site, new_page):
    page = new_page(hurried=True, locale="en-US")
    page.goto(f"{site}/rules/")
    page.locator("#language-select").select_option("ja")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page).to_have_url(f"{site}/rules/")
    assert page.locator("#language-select option").all_text_contents() == LANGUAGE_NAMES
    expect(page.locator("#language-select")).to_have_value("ja")
