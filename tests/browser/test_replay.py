"""A replay in a real browser: the deal is verified in the page (by the deal record the
round stored, so old rounds still verify after the dealing table changes), and the round
can be stepped through with the keyboard."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    LAPTOP,
    both_sizes,
    fast_forward_to_the_end,
    in_a_thread,
    needs_browser,
    new_game,
)
from tests.lobby.replays import finished_round, marked_step, todays_start
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def test_replay_verifies_the_deal_and_steps_with_the_keyboard(site, new_page):
    page = new_page()
    new_game(page, site, players="2")
    fast_forward_to_the_end(page)
    page.reload()
    page.get_by_role("link", name=re.compile(r"Replay round 1")).click()
    expect(page).to_have_url(re.compile(r"/replay/"))
    expect(page.locator("#verify-status")).to_contain_text("Deal verified")
    total = int(page.locator("#replay-position").text_content().split("/")[1])
    assert total >= 1
    page.locator("#replay-forward").focus()
    for _ in range(min(total, 3)):
        page.keyboard.press("Enter")
    expect(page.locator("#replay-position")).to_have_text(f"{min(total, 3)} / {total}")
    page.locator("#replay-back").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-position")).to_have_text(f"{min(total, 3) - 1} / {total}")
    page.locator("#replay-end").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#result-odd")).to_contain_text(re.compile("(was|were) left holding"))
    # Every hand is face up in a replay; the move list names the cards in words.
    assert page.locator("#seats-ring .card.face").count() >= 1
    assert page.locator("#move-list li").count() == total + 1
    moves = page.locator("#move-list").text_content()
    assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", moves), moves
    # A replay is watched, not played: no player's controls.
    for control in ("#draw-3d", "#draw-button", "#player-controls", "#seat-actions button"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator("#telemetry-switch-table")).to_have_count(0)


def tamper_replay(page, change) -> None:
    """Serve ``page`` its replay pages with ``change`` (text to text) made to them, before
    their deal is checked; the change must find what it changes."""

    def changed(route):
        response = route.fetch()
        body = change(response.text())
        assert body != response.text(), "the tampering found nothing to change"
        route.fulfill(response=response, body=body)

    page.route(re.compile(r".*/replay/.*"), changed)


def test_a_tampered_deal_is_not_verified(site, new_page):
    page = new_page()
    new_game(page, site, players="2")
    fast_forward_to_the_end(page)
    page.reload()
    link = page.get_by_role("link", name=re.compile(r"Replay round 1")).get_attribute("href")
    # Swap two dealt cards in the page's data before the check runs.
    tamper_replay(
        page,
        lambda text: re.sub(
            r'"dealt": \[\["(\w+)", "(\w+)"', r'"dealt": [["\2", "\1"', text, count=1
        ),
    )
    page.goto(site + link)
    expect(page.locator("#verify-status")).to_contain_text("NOT verified")


def test_an_old_round_dealt_from_another_start_is_verified(servers, new_page):
    """A round dealt before the dealing table changed (from another start than today's
    table gives) still shows "Deal verified"; the same round with an unknown deal version
    does not."""
    # The round is played to its end before the server starts, so that the server's sweep
    # never plays its computer seat; in a thread of its own, away from Playwright's event
    # loop, because the services broadcast through async_to_sync.
    room, rnd = in_a_thread(finished_round, "babanuki", 2, old_deal=True, rounds=1)
    assert rnd.deal_start != todays_start(room, rnd)
    site = f"http://127.0.0.1:{servers('site', static=True).port}"
    page = new_page()
    page.goto(f"{site}/replay/{rnd.replay_id}/")
    expect(page.locator("#verify-status")).to_contain_text("Deal verified")
    expect(page.locator("#verify-status")).to_have_attribute("data-result", "verified")

    later = new_page()
    tamper_replay(later, lambda text: text.replace('"deal_version": 1', '"deal_version": 99', 1))
    later.goto(f"{site}/replay/{rnd.replay_id}/")
    expect(later.locator("#verify-status")).to_contain_text("NOT verified")


def test_a_balanced_round_is_verified_by_its_own_counts(servers, new_page):
    """A round dealt by the balanced deal (three-seat Jiji-nuki, on by default there)
    shows "Deal verified" in the browser; the same page handed the game's own counts
    does not."""
    room, rnd = in_a_thread(finished_round, "jijinuki", 3, rounds=1)
    assert room.options["balanced_deal"] is True
    assert sorted(rnd.deal_counts) == [16, 16, 19]
    site = f"http://127.0.0.1:{servers('site', static=True).port}"
    page = new_page()
    page.goto(f"{site}/replay/{rnd.replay_id}/")
    expect(page.locator("#verify-status")).to_have_attribute("data-result", "verified")
    expect(page.locator("#verify-status")).to_contain_text("Deal verified")

    stored = json.dumps(rnd.deal_counts)
    other = new_page()
    tamper_replay(
        other, lambda text: text.replace(f'"deal_counts": {stored}', '"deal_counts": [17, 17, 17]')
    )
    other.goto(f"{site}/replay/{rnd.replay_id}/")
    expect(other.locator("#verify-status")).to_contain_text("NOT verified")


#: Per locale, the level its replay is of, and the move list's words at the step shown:
#: Easy hiding the joker at card 1 and its face giving it away there, or Medium's bluff.
MARKS = {
    "en-US": (
        "easy",
        "hid the joker at card 1, its usual place.",
        "would have given the joker away (card 1).",
    ),
    "ja-JP": (
        "easy",
        "ジョーカーを左から1枚目に隠しました。",
        "ジョーカー（左から1枚目）がばれていたはずです。",
    ),
    "zh-CN": ("medium", None, "会一脸担心：这是虚张声势。"),
}


def easy_hid_and_worried(step) -> bool:
    return {m["kind"] for m in step["marks"]} == {"hid", "face"}


def medium_bluffed(step) -> bool:
    return any(
        m["kind"] == "face"
        and any(f == "worried" and p != m["position"] for p, f in enumerate(m["faces"]))
        for m in step["marks"]
    )


@pytest.mark.parametrize("locale", list(MARKS))
def test_a_replay_marks_where_the_computer_hid_the_joker_and_its_faces(servers, new_page, locale):
    """At a step where Easy has just hidden the joker and the human draws from it next,
    the joker carries the hidden-here badge and a worried face, and the move list says
    both in words; at a Medium bluff, the card bluffed at carries the face marked "?"
    and the joker no worried face unless its face gave it away too."""
    level, hid_words, face_words = MARKS[locale]
    found = easy_hid_and_worried if level == "easy" else medium_bluffed
    rnd, steps, k = in_a_thread(marked_step, found, level=level)
    site = f"http://127.0.0.1:{servers('site', static=True).port}"
    page = new_page(viewport=LAPTOP, locale=locale)
    page.goto(f"{site}/replay/{rnd.replay_id}/")
    expect(page.locator("#replay-legend")).to_be_visible()
    page.locator(f"#move-list li[data-step='{k}'] button").click()
    expect(page.locator("#replay-position")).to_have_text(f"{k} / {len(steps) - 1}")
    face = next(m for m in steps[k]["marks"] if m["kind"] == "face")
    cards = page.locator(f"#seats-ring .fan[data-fan-seat='{face['seat']}'] .card")
    odd = cards.nth(face["position"])
    expect(odd).to_have_attribute("data-card", "JK")
    line = page.locator(f"#move-list li[data-step='{k}']")
    if level == "easy":
        expect(odd).to_have_class(re.compile(r"\bmark-hid\b"))
        expect(odd).to_have_class(re.compile(r"\bmark-tell\b"))
        # Easy's face is calm at every other card: the joker is the one card marked.
        assert page.locator("#seats-ring .card[class*='mark-']").count() == 1
        expect(line.locator(".mark-line.hid")).to_contain_text(hid_words)
        expect(line.locator(".mark-line.tell")).to_contain_text(face_words)
    else:
        shown = cards.evaluate_all(
            "cs => cs.map(c => ['tell', 'bluff']"
            ".find(k => c.classList.contains(`mark-${k}`)) ?? null)"
        )
        at_odd = lambda p: "tell" if p == face["position"] else "bluff"  # noqa: E731
        assert shown == [at_odd(p) if f == "worried" else None for p, f in enumerate(face["faces"])]
        expect(line.locator(".mark-line.bluff").first).to_contain_text(face_words)
    both_sizes(page, f"replay-marks-{locale}")
