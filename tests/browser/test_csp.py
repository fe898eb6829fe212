"""Every page under the Content-Security-Policy in a real browser (config/security.py):
the pages, a game at the table, its replay, the staff dashboard and the admin report no
violation and still work; an inline script, handler or style put into a page is refused
and reported, so the check sees what the policy would break."""

import re

from django.contrib.auth.models import User
from playwright.sync_api import expect

from config.security import VALUE
from tests.browser.conftest import (
    fast_forward,
    needs_browser,
    new_game,
    play_with_mouse,
    sign_up,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

#: Each document keeps the violations it reports (the event fires in the page, before any
#: console message could be lost to a navigation), read back before the page is left.
RECORD = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(
    `${e.effectiveDirective} refused ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`
  );
});
"""


def refusal(text: str) -> bool:
    """Chromium's console line for a violation: "Refused to load ... because it violates
    the following Content Security Policy directive", or, from Chromium 13x for inline
    code, "Executing inline script violates the following Content Security Policy ..."."""
    return text.startswith("Refused to") or "Content Security Policy directive" in text


def watched(new_page, **options):
    """A page whose violations are recorded: the document's events, and Chromium's own
    console lines (which also cover what fires no event)."""
    page = new_page(**options)
    page.add_init_script(RECORD)
    page.refused = []
    page.on("console", lambda m: refusal(m.text) and page.refused.append(m.text))
    return page


def violations(page) -> list[str]:
    return page.refused + page.evaluate("window.__cspViolations")


def visit(page, url: str) -> None:
    response = page.goto(url)
    assert response.status == 200, (url, response.status)
    assert response.headers["content-security-policy"] == VALUE, url
    page.wait_for_load_state("load")


def no_violations(page) -> None:
    assert violations(page) == [], page.url


def test_every_page_works_under_the_policy(site, new_page):
    visitor = watched(new_page)
    for path in ("/", "/rules/", "/fairness/", "/new/", "/accounts/login/", "/admin/login/"):
        visit(visitor, site + path)
        no_violations(visitor)
    # A form post and its redirect (form-action): the language menu submits itself.
    visit(visitor, site + "/rules/")
    visitor.locator("#language-select").select_option("ja")
    expect(visitor.locator("html")).to_have_attribute("lang", "ja")
    no_violations(visitor)

    page = watched(new_page)
    visit(page, site + "/accounts/signup/")
    sign_up(page, site, "pat", next_url=page.url)
    expect(page.locator(".site-header nav")).to_contain_text("pat")
    no_violations(page)
    User.objects.filter(username="pat").update(is_staff=True, is_superuser=True)

    # The table: its socket connects (connect-src), its cards are placed through the
    # CSSOM, and draws go through until the match is over (the last ones by the mouse).
    new_game(page, site, players="2")
    expect(page.locator("#giver-hand .card").first).to_be_visible()
    no_violations(page)
    try:
        fast_forward(page)
        play_with_mouse(page)
    except Exception:
        no_violations(page)  # a refused socket or script would explain a stuck table
        raise
    expect(page.locator("#result-odd")).not_to_be_empty()
    no_violations(page)
    room = page.url

    page.reload()
    page.get_by_role("link", name=re.compile(r"Replay round 1")).click()
    expect(page).to_have_url(re.compile(r"/replay/"))
    expect(page.locator("#verify-status")).to_contain_text("Deal verified")
    page.locator("#replay-end").click()
    expect(page.locator("#result-odd")).to_contain_text(re.compile("(was|were) left holding"))
    no_violations(page)

    # A friends room and its invitation, opened by a visitor.
    new_game(page, site, players="3", mode="friends")
    invitation = page.get_by_label("Invitation link").input_value()
    no_violations(page)
    visit(visitor, invitation)
    expect(visitor.locator("form.join")).to_be_visible()
    no_violations(visitor)

    for path in ("/accounts/profile/", "/accounts/password/", "/staff/telemetry/"):
        visit(page, site + path)
        no_violations(page)
    visit(page, room)
    no_violations(page)

    # The admin: its pages with the most script (the side bar, the user's form and its
    # calendar, the permissions' two-box chooser, the list's actions).
    pat = User.objects.get(username="pat").pk
    for path in (
        "/admin/",
        "/admin/auth/user/",
        f"/admin/auth/user/{pat}/change/",
        "/admin/auth/user/add/",
        "/admin/auth/group/add/",
    ):
        visit(page, site + path)
        no_violations(page)
    # SelectFilter2 built its two boxes.
    expect(page.get_by_role("button", name="Choose all permissions")).to_be_visible()
    visit(page, site + f"/admin/auth/user/{pat}/change/")
    page.locator("#calendarlink0").click()
    expect(page.locator("#calendarbox0")).to_be_visible()  # DateTimeShortcuts placed it
    page.locator("#calendarbox0").get_by_role("link", name="Today").click()
    expect(page.locator("#id_last_login_0")).not_to_have_value("")
    no_violations(page)
    visit(page, site + "/admin/auth/user/")
    page.locator("input.action-select").first.check()
    expect(page.locator(".action-counter")).to_contain_text("1 of")  # actions.js ran
    no_violations(page)


INJECTED = (
    '<script>document.documentElement.dataset.injected = "script";</script>'
    '<button id="injected" onclick="document.documentElement.dataset.injected = \'handler\'">'
    "x</button>"
    '<p id="injected-style" style="color: rgb(255, 0, 0)">x</p>'
    "<style>#injected-style { outline: 3px solid red; }</style>"
)


def test_an_inline_script_handler_or_style_is_refused_and_reported(site, new_page):
    def inject(route):
        fetched = route.fetch()
        route.fulfill(
            response=fetched, body=fetched.text().replace("</main>", INJECTED + "</main>")
        )

    page = watched(new_page)
    page.route(re.compile(r".*/rules/$"), inject)
    visit(page, site + "/rules/")
    page.locator("#injected").click()
    page.wait_for_function("() => window.__cspViolations.length >= 4")
    assert page.evaluate("document.documentElement.dataset.injected") is None
    color = page.locator("#injected-style").evaluate("el => getComputedStyle(el).color")
    assert color != "rgb(255, 0, 0)"
    assert len(page.refused) >= 4, page.refused  # and the console lines: both ways see it
    refused = " ".join(violations(page))
    for directive in ("script-src-elem", "script-src-attr", "style-src-attr", "style-src-elem"):
        assert directive in refused, (directive, refused)
