"""In a real browser: a friends game played by two people, both with usage statistics
on, is counted once. Only the reporting seat's page sends the start (the first seat whose
player has not left, even while the host's page reloads to the table) and the end (the
first seat whose player is at the table), a reload does not send them again, and a
resignation is a result, not an abandonment. Needs the reporting-seat rule in
static/js/table/telemetry.js (see telemetry/report.py)."""

import re

from playwright.sync_api import expect

from telemetry.models import Event
from tests.browser.conftest import join_by_invitation, needs_browser, new_game, sign_up
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


# Counted as each beacon leaves, in the tab's sessionStorage, which outlives the page
# loads of one tab (starting a friends game reloads the host's page).
COUNT_BEACONS = """
const original = navigator.sendBeacon.bind(navigator);
navigator.sendBeacon = (url, data) => {
  sessionStorage.setItem("beacons", String(Number(sessionStorage.getItem("beacons") || 0) + 1));
  return original(url, data);
};
"""


def beacons(page) -> int:
    return int(page.evaluate("sessionStorage.getItem('beacons') || 0"))


def all_arrived(pages) -> None:
    """Wait until the server has stored every event the pages sent (all are valid), and no
    other: the pages may still be sending (a connection event), so both sides are read
    again until they agree."""
    for _ in range(200):
        sent = sum(beacons(page) for page in pages)
        stored = Event.objects.count()
        if stored == sent:
            return
        pages[0].wait_for_timeout(50)
    raise AssertionError(f"{stored} events stored for {sent} sent")


def test_two_players_one_game_one_start_one_end(site, new_page):
    host = new_page()
    host.add_init_script(COUNT_BEACONS)
    sign_up(host, site, "hostess")
    expect(host.locator(".site-header nav")).to_contain_text("hostess")
    new_game(host, site, mode="friends", players="2")
    invite = host.locator("#invite-link").input_value()

    friend = new_page()
    friend.add_init_script(COUNT_BEACONS)
    join_by_invitation(friend, site, invite, "friendo")
    expect(friend).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("friendo")

    # Starting posts a form: the host's page reloads on a table at its first draw.
    host.locator(".host-controls button[name=fill][value='0']").click()
    expect(friend.locator("#status-line")).not_to_be_empty(timeout=15_000)
    expect(host.locator("#status-line")).not_to_be_empty(timeout=15_000)

    # The friend (seat 1) resigns: the match ends with a winner and a loser.
    friend.on("dialog", lambda dialog: dialog.accept())
    friend.locator("#seat-actions button").click()
    for page in (host, friend):
        expect(page.locator("#result-match")).not_to_be_empty()

    all_arrived([host, friend])
    assert Event.objects.filter(kind="game_started").count() == 1
    # The host won; a resignation is a result, not "abandoned".
    assert list(Event.objects.filter(kind="game_finished").values_list("result", flat=True)) == [
        "won"
    ]
    assert Event.objects.filter(kind="connection").count() >= 2  # per page, as before
