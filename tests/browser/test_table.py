"""Whole games at the table in a real browser, each in two languages: versus the
computer with the mouse and with the keyboard only, two friends in two browsers, one
device through the curtain, and the flat fallback at phone width."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    SETTLED,
    TURN_MS,
    WAIT_FOR_TURN,
    answered,
    draw_by_mouse,
    first_turn_with_keyboard,
    in_language,
    join_by_invitation,
    match_over,
    needs_browser,
    new_game,
    one_draw_by_mouse,
    play_together,
    play_with_mouse,
    shot,
    sign_up,
    until_deadline,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def play_with_keyboard(page):
    for _ in until_deadline():
        if match_over(page):
            return
        page.wait_for_function(WAIT_FOR_TURN, arg="#giver-buttons button", timeout=TURN_MS)
        if not match_over(page):
            draw_with_keyboard(page)
    raise AssertionError("the match did not end")


def draw_with_keyboard(page) -> None:
    """One draw by keys, where the page offers the giver's cards: the arrow to the next
    card, Enter to choose it, Enter again to draw it; then the table's answer."""
    first = page.locator("#giver-buttons button[tabindex='0']")
    if not first.count():
        return
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # select
    chosen = page.evaluate_handle(
        "() => document.activeElement.closest('#giver-buttons') && document.activeElement"
    ).as_element()
    page.keyboard.press("Enter")  # draw
    answered(page, chosen)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_versus_computer_with_the_mouse(site, new_page, locale):
    page = new_page(viewport={"width": 1280, "height": 900}, locale=locale)
    new_game(page, site)
    in_language(page, locale)
    assert page.evaluate("document.documentElement.dataset.tableMode") == "3d"
    page.wait_for_selector("#giver-hand .card")
    shot(page, f"table-angled-{locale}")
    page.locator(".view-switch button[data-view=top]").click()
    page.wait_for_function(
        "() => document.getElementById('scene').style.transform.includes('rotateX(0deg)')"
    )
    shot(page, f"table-top-down-{locale}")
    page.locator(".view-switch button[data-view=angled]").click()
    page.wait_for_function(SETTLED)  # the camera at rest in the angled view
    # Dragging the table moves the camera round the scene: the whole scene turns while the
    # hand holds it (it springs back on release), and the hands stay on the table.
    before = page.evaluate("document.getElementById('scene').style.transform")
    box = page.locator("#stage").bounding_box()
    page.mouse.move(box["x"] + 30, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 230, box["y"] + box["height"] / 2 - 40, steps=8)
    # The turn is painted at the next frame, which a busy machine may give only later.
    page.wait_for_function(
        "() => !document.getElementById('scene').style.transform.includes('rotateZ(0deg)')"
    )
    after = page.evaluate("document.getElementById('scene').style.transform")
    page.mouse.up()
    assert after != before and "rotateZ(0deg)" not in after, after
    assert page.locator("#scene #my-hand .card").count() > 0
    assert page.locator("#scene #giver-hand .card").count() > 0
    shot(page, f"table-dragged-{locale}")
    page.locator(".view-switch button[data-view=angled]").click()
    if locale != "en-US":  # a whole match by mouse once a run (English); here one draw
        page.wait_for_function(SETTLED)
        one_draw_by_mouse(page, "middle")
        return
    play_with_mouse(page)
    expect(page.locator("#result-odd")).not_to_be_empty()
    expect(page.locator("#result-actions button")).to_be_visible()  # rematch
    expect(page.locator("#result-title")).to_contain_text("Round 1 is over")
    expect(page.locator("#result-odd")).to_contain_text(
        re.compile("(was|were) left holding the joker")
    )
    shot(page, f"table-result-{locale}")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_versus_computer_with_the_keyboard_only(site, new_page, locale):
    page = new_page(hurried=True, locale=locale)
    new_game(page, site, variant="schwarzer_peter", players="4")
    in_language(page, locale)
    first_turn_with_keyboard(page)
    # Face-down cards are named by position, never by face.
    label = page.locator("#giver-buttons button").first.get_attribute("aria-label")
    assert re.search(r"\d", label) and not re.search(r"(JC|[2-9AKQJ][SHDC])\b", label)
    if locale != "en-US":  # a whole match by keys once a run (English); here one draw
        draw_with_keyboard(page)
        expect(page.locator("#announcer")).not_to_be_empty()
        return
    play_with_keyboard(page)
    expect(page.locator("#result-match")).not_to_be_empty()
    expect(page.locator("#announcer")).not_to_be_empty()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_same_device_game_through_the_curtain(site, new_page, locale):
    page = new_page(hurried=True, locale=locale)
    # Three players: enough turns that the device changes hands several times.
    new_game(page, site, players="3", mode="same_device", variant="babanuki")
    in_language(page, locale)
    curtains = 0
    for _ in until_deadline():
        # After each draw the drawer watches it land; then the curtain falls.
        page.wait_for_function(CURTAIN_OR_TURN, timeout=TURN_MS)
        if match_over(page):
            break
        if page.locator("#curtain").is_visible():
            # The table is covered: no hand shows until the right player says so.
            assert page.locator("#my-hand .card").count() == 0
            button = page.locator("#curtain-button")
            if locale == "en-US":
                # No names typed in: the players are called by their seats' default names.
                assert re.match(r"I am Player [1-3]: show my hand", button.text_content())
            button.click()
            curtains += 1
            if locale != "en-US" and curtains >= 3:
                return  # the curtain works in this language; English plays to the end
            continue
        draw_by_mouse(page, "first")
    assert match_over(page)
    assert curtains >= 2


CURTAIN_OR_TURN = (
    "() => document.querySelector('#curtain:not([hidden])')"
    " || document.querySelector('#giver-hand .card')"
    " || (document.querySelector('#result-match')?.textContent || '').length > 0"
)

# Every moment the hand or the curtain changes: what the page showed.
RECORD_HAND_AND_CURTAIN = """
window.seen = [];
const note = (what) => {
  if (window.seen[window.seen.length - 1] !== what) window.seen.push(what);
};
new MutationObserver(() => {
  const curtain = !document.getElementById('curtain').hidden;
  if (curtain) { note('curtain'); return; }
  if (document.querySelector('#my-hand .card.arrived')) note('arrived');
  if (document.getElementById('my-hand').classList.contains('shuffling')) note('shuffling');
}).observe(document.getElementById('table-wrap'),
  {subtree: true, childList: true, attributes: true});
"""


def test_same_device_shows_your_draw_before_the_curtain(site, new_page):
    """The player who drew sees the card arrive at the right end of their hand, the pair
    leave and the shuffle; only then does the curtain fall for the next player."""
    page = new_page()
    new_game(page, site, players="2", mode="same_device", variant="babanuki")
    page.locator("#curtain-button").click()
    page.wait_for_selector("#giver-hand .card")
    page.evaluate(RECORD_HAND_AND_CURTAIN)
    card = page.locator("#giver-hand .card").first
    card.click()
    card.click()
    page.wait_for_function("() => window.seen.includes('curtain')")
    seen = page.evaluate("window.seen")
    assert seen.index("arrived") < seen.index("shuffling") < seen.index("curtain"), seen
    expect(page.locator("#my-hand .card")).to_have_count(0)
    shot(page, "same-device-curtain-after-draw")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_flat_fallback_plays_fully_with_the_buttons(site, new_page, locale):
    page = new_page(
        hurried=True,
        viewport={"width": 360, "height": 800},
        is_mobile=True,
        has_touch=True,
        locale=locale,
    )
    new_game(page, site, flat=True)
    in_language(page, locale)
    assert page.evaluate("document.documentElement.dataset.tableMode") == "flat"
    page.wait_for_selector("#giver-buttons button")
    shot(page, f"table-phone-flat-{locale}")
    # Every touch target in the controls is at least 44 px.
    sizes = page.eval_on_selector_all(
        "#controls button", "els => els.map(e => [e.offsetWidth, e.offsetHeight])"
    )
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes)
    for _ in until_deadline():
        if match_over(page):
            break
        buttons = page.locator("#giver-buttons button")
        if buttons.count():
            try:
                buttons.first.click(timeout=2000)
                page.locator("#draw-button").click(timeout=2000)
            except Exception:
                pass
        page.wait_for_timeout(30)
    assert match_over(page)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_two_friends_play_a_match_in_two_browsers(site, new_page, locale):
    host, friend = new_page(hurried=True, locale=locale), new_page(hurried=True, locale=locale)
    sign_up(host, site, "amy")
    new_game(host, site, variant="old_maid", players="2", mode="friends", single=False, strikes="1")
    invite = host.locator("#invite-link").input_value()
    join_by_invitation(friend, site, invite, "ben")
    expect(friend).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    in_language(friend, locale)
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("ben")
    host.locator("button[name=fill][value='0']").click()
    play_together(host, friend)
    # Each saw the last move, told from their own side of the table.
    for page in (host, friend):
        expect(page.locator("#last-move")).not_to_have_text("–")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_own_draw_shows_the_card_arriving_then_a_shuffle(paced_site, new_page, motion):
    page = new_page(reduced_motion=motion)
    new_game(page, paced_site)
    page.wait_for_selector("#giver-hand .card")
    # Choose a card: it glows. A new state between the clicks clears the choice, so
    # choose until the glow holds.
    for _ in until_deadline(60):
        page.locator("#giver-hand .card").first.click()
        if page.locator("#giver-hand .card.selected").count():
            break
    # Watch the hand from the moment of the draw.
    page.evaluate(
        "window.seen = new Set(); new MutationObserver(() => {"
        " for (const el of document.querySelectorAll('#my-hand, #my-hand .card'))"
        "   for (const c of el.classList) window.seen.add(c); })"
        ".observe(document.getElementById('my-hand'),"
        " {subtree: true, childList: true, attributes: true})"
    )
    before = page.locator("#last-move").text_content()
    page.locator("#giver-hand .card.selected").click()
    if motion == "reduce":
        # Until the draw is on the table (its line in the last move); the sequence would
        # have begun by then, in the same update.
        page.wait_for_function(
            "t => document.getElementById('last-move').textContent !== t",
            arg=before,
            timeout=TURN_MS,
        )
        seen = set(page.evaluate("[...window.seen]"))
        assert not seen & {"arrived", "shuffling", "to-pile"}
    else:
        page.wait_for_function(
            "() => ['arrived', 'shuffling'].every(c => window.seen.has(c))", timeout=TURN_MS
        )


def test_a_spectator_sees_the_table_but_no_player_controls(site, new_page):
    """A spectator watches the same table (every hand face down at its seat, the counts on
    the name tags and in the list of seats) with nothing meant for players: no Draw, no
    "Your hand", no button controls, no telemetry switch, no Leave."""
    player = new_page()
    new_game(player, site, players="4")
    watch = player.locator("#watch-link-below").input_value()
    watcher = new_page(viewport={"width": 360, "height": 740})
    watcher.goto(watch)
    expect(watcher.locator("#status-line")).not_to_be_empty(timeout=15_000)
    expect(watcher.locator(".seat-tag")).to_have_count(4)
    expect(watcher.locator("#seat-table tbody tr")).to_have_count(4)
    assert watcher.locator("#seats-ring .card.back").count() > 0
    expect(watcher.locator("#my-hand .card")).to_have_count(0)
    for control in ("#player-controls", "#draw-3d", "#draw-button", "#table-settings"):
        expect(watcher.locator(control)).to_be_hidden()
    expect(watcher.locator("#seat-actions button")).to_have_count(0)
    shot(watcher, "table-spectator-phone")
