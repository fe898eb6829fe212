"""Telemetry in a real browser: nothing at all is sent with the switch off or under
Global Privacy Control; with it on, the expected events arrive with only allowed fields."""

import json
import time

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from telemetry import schema
from telemetry.models import Event
from tests.browser.conftest import (
    TURN_MS,
    fast_forward_to_the_end,
    needs_browser,
    new_game,
    shot,
    sign_up,
    until_deadline,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


RECORD_BEACONS = """
window.__beacons = [];
const original = navigator.sendBeacon.bind(navigator);
navigator.sendBeacon = (url, data) => {
  if (data instanceof Blob) data.text().then((text) => window.__beacons.push(text));
  return original(url, data);
};
"""


def watch_telemetry(page) -> list[str]:
    """Every request to the telemetry endpoint (beacons included) is listed by URL; the
    page's beacon bodies are recorded by RECORD_BEACONS, since beacons hide them."""
    requests: list[str] = []
    page.add_init_script(RECORD_BEACONS)
    page.on("request", lambda r: "/telemetry/" in r.url and requests.append(r.url))
    return requests


def bodies(page) -> list[dict]:
    return [json.loads(text) for text in page.evaluate("window.__beacons")]


def play_a_game(page, site):
    """A game versus the computer, its draws made for the page through the services (what
    is sent does not hang on how a draw was asked for: no telemetry event is a click)."""
    new_game(page, site, players="2")
    fast_forward_to_the_end(page)
    # Until the page has measured how fast it draws (2 s of frames from the first state):
    # the last thing it may report, sent or not.
    page.wait_for_function("() => document.documentElement.dataset.renderSpeed", timeout=TURN_MS)


def test_switched_off_a_whole_game_sends_nothing(site, new_page):
    page = new_page()
    sent = watch_telemetry(page)
    page.goto(f"{site}/rules/#privacy")
    switch = page.locator("#telemetry-switch-page")
    assert switch.is_checked()  # on by default without a privacy signal
    switch.uncheck()
    play_a_game(page, site)
    assert not page.locator("#telemetry-switch-table").is_checked()
    assert sent == [] and bodies(page) == []
    assert not Event.objects.exists()


@pytest.mark.parametrize("signal", ["globalPrivacyControl", "doNotTrack"])
def test_a_privacy_signal_starts_it_off(site, new_page, signal):
    page = new_page()
    value = "true" if signal == "globalPrivacyControl" else "'1'"
    page.add_init_script(f"Object.defineProperty(navigator, '{signal}', {{get: () => {value}}})")
    sent = watch_telemetry(page)
    play_a_game(page, site)
    assert not page.locator("#telemetry-switch-table").is_checked()
    assert sent == [] and bodies(page) == []


def test_switched_on_the_expected_events_arrive_with_allowed_fields_only(site, new_page):
    page = new_page()
    requests = watch_telemetry(page)
    play_a_game(page, site)
    # A beacon's body is recorded once the browser has read it (a promise).
    page.wait_for_function("n => window.__beacons.length >= n", arg=len(requests))
    sent = bodies(page)
    assert len(requests) == len(sent) >= 3
    kinds = {event["kind"] for event in sent}
    assert {"game_started", "game_finished", "render_speed"} <= kinds
    allowed = set(schema.FIELDS) | set(schema.NUMBERS)
    for event in sent:
        assert set(event) <= allowed, event
    finished = next(e for e in sent if e["kind"] == "game_finished")
    assert finished["variant"] == "babanuki" and finished["result"] in ("won", "lost")
    # The browser has sent the beacons; the server may still be storing the last one.
    for _ in until_deadline(60):
        stored = set(Event.objects.values_list("kind", flat=True))
        if {"game_started", "game_finished"} <= stored:
            break
        time.sleep(0.05)
    assert {"game_started", "game_finished"} <= stored

    # The staff dashboard charts the game just played.
    staff = new_page()
    sign_up(staff, site, "keeper")
    expect(staff.locator(".site-header nav")).to_contain_text("keeper")
    User.objects.filter(username="keeper").update(is_staff=True)
    staff.goto(f"{site}/staff/telemetry/")
    expect(staff.locator("h1")).to_have_text("Usage statistics")
    computer = staff.locator("#completion-title ~ .table-scroll tr", has_text="Versus the computer")
    expect(computer.locator("td").nth(0)).to_have_text("1")  # started
    expect(computer.locator("td").nth(1)).to_have_text("1")  # finished
    assert staff.locator("svg#started rect, svg[aria-labelledby^=started] rect").count() >= 1
    assert staff.locator("svg[aria-labelledby^=speed] rect").count() >= 1
    shot(staff, "telemetry-dashboard")
