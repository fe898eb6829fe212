"""The odd card's moment in a real browser (issue 33): when a draw moves the joker, the
drawer's page shows "You drew the joker!" big on the table and the giver's "Clara took the
joker from you"; a third seat sees neither and its socket never hears of it; on one device
only the drawer sees it, during the hold after the draw, never the next player after the
curtain; under reduced motion it stands still. Each deal is dealt again until the joker
is where the test needs it, and the drawer draws it by its position."""

import json

from playwright.sync_api import expect

from games import selectors
from games.models import Room
from tests import matrix
from tests.browser.conftest import TURN_MS, in_a_thread, in_language, needs_browser, shot
from tests.rooms import computer_room, friends_room, open_room
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

SIZES = matrix.SIZES
NAMES = ["Ann", "Clara", "Dan"]

#: The drawer's and the giver's words, in each locale (the joker, Babanuki).
DREW = {
    "en-US": "You drew the joker!",
    "ja-JP": "ジョーカーを引いてしまった！",
    "zh-CN": "你抽到了鬼牌！",
    "zh-TW": "你抽到了鬼牌！",
    "de-DE": "Du hast den Joker gezogen!",
    "ko-KR": "조커 카드를 뽑았어요!",
}
TOOK = {
    "en-US": "{seat} took the joker from you",
    "ja-JP": "{seat}がジョーカーを引いてくれた",
    "zh-CN": "{seat}从你手里抽走了鬼牌",
    "zh-TW": "{seat}抽走了你的鬼牌",
    "de-DE": "{seat} hat dir den Joker abgenommen",
    "ko-KR": "{seat} 님이 내 조커 카드를 가져갔어요",
}

#: Every moment the page shows (and the curtain, on one device), in order, as it shows:
#: its kind, its words, whether it stands still and how many animations it runs.
RECORD_MOMENTS = """
window.moments = [];
document.addEventListener('DOMContentLoaded', () => {
  const el = document.getElementById('odd-moment');
  const curtain = document.getElementById('curtain');
  let last = null;
  const look = () => {
    let now = null;
    if (!curtain.hidden) now = 'curtain';
    else if (!el.hidden) now = 'moment';
    if (now === last) return;
    last = now;
    if (now === 'curtain') window.moments.push({what: 'curtain'});
    if (now === 'moment') {
      window.moments.push({
        what: 'moment', kind: el.dataset.kind,
        title: document.getElementById('odd-moment-title').textContent,
        still: el.classList.contains('still'),
        animations: el.getAnimations({subtree: true}).length,
      });
    }
  };
  const watch = new MutationObserver(look);
  for (const node of [el, curtain]) watch.observe(node, {attributes: true});
});
"""

#: The moment has come in: every animation of it done but the endless rays.
MOMENT_IN = """() => {
  const el = document.getElementById('odd-moment');
  return !el.hidden && el.getAnimations({subtree: true}).every(
    (a) => a.playState === 'finished' || a.effect.getComputedTiming().iterations === Infinity);
}"""


def _deal_until(make, fits, tries=60):
    """Rooms made by ``make`` until one's first turn ``fits(state)``; the others go."""
    for _ in range(tries):
        room = make()
        state = selectors.snapshot(room.pk)["round"]["state"]
        if fits(state):
            return room, state
        Room.objects.filter(pk=room.pk).delete()
    raise AssertionError("no deal put the joker where the test needs it")


def joker_to_draw(state):
    return "JK" in state["hands"][state["giver"]]


def _friends_with_the_joker_to_draw(humans: int):
    from tests.games.conftest import make_session, make_user

    users = [make_user(name.lower()) for name in NAMES[:humans]]
    joined = {NAMES[i]: users[i] for i in range(1, humans)}
    room, state = _deal_until(
        lambda: friends_room(users[0], joined, name=NAMES[0], seats=humans, start=True, rounds=1),
        joker_to_draw,
    )
    return room, state, [make_session(user=user) for user in users]


def _alone_with_the_joker_to_draw(mode: str):
    from tests.games.conftest import make_session, make_user

    user = make_user("ann")
    make = {
        "computer": lambda: computer_room(user, name="Ann", seats=2, rounds=1),
        "same_device": lambda: open_room(user, Room.Mode.SAME_DEVICE, seats=2, rounds=1),
    }[mode]
    if mode == "same_device":
        fits = joker_to_draw
    else:  # the person draws first, from the computer

        def fits(state):
            return state["drawer"] == 0 and joker_to_draw(state)

    room, state = _deal_until(make, fits)
    return room, state, make_session(user=user)


def recording_table_page(
    new_page, site, key, code, *, locale="en-US", size="laptop", frames=None, **options
):
    page = new_page(locale=locale, viewport=SIZES[size], **options)
    page.context.add_cookies([{"name": "sessionid", "value": key, "url": site}])
    page.add_init_script(RECORD_MOMENTS)
    if frames is not None:

        def hear(socket):
            socket.on("framereceived", lambda payload: frames.append(payload))

        page.on("websocket", hear)
    page.clock.install()  # runs as usual until a test holds a moment still for its picture
    page.goto(f"{site}/r/{code}/")
    expect(page.locator("#status-line")).not_to_be_empty(timeout=TURN_MS)
    return page


def draw_the_joker(page, state):
    card = page.locator("#giver-hand .card").nth(state["hands"][state["giver"]].index("JK"))
    card.click()
    card.click()


def hold_time(*pages):
    """Stop the pages' timers (not their motion): a moment then stays until ``go_on``, so
    that a busy machine cannot miss it (it shows for about two seconds)."""
    for page in pages:
        page.clock.pause_at(page.evaluate("Date.now()") + 20)


def go_on(*pages):
    for page in pages:
        page.clock.resume()


def moment_shot(page, name):
    """The moment, once it has come in (its timers held: hold_time)."""
    page.wait_for_function(MOMENT_IN)
    shot(page, name)


def moments(page):
    return page.evaluate("window.moments")


@matrix.parametrize("locale", "size")
def test_the_drawer_and_the_giver_see_their_moments_and_a_third_seat_hears_nothing(
    site, new_page, locale, size
):
    room, state, keys = in_a_thread(_friends_with_the_joker_to_draw, 3)
    drawer_seat, giver_seat = state["drawer"], state["giver"]
    (third_seat,) = {0, 1, 2} - {drawer_seat, giver_seat}
    heard = []
    where = {"locale": locale, "size": size}
    drawer = recording_table_page(new_page, site, keys[drawer_seat], room.code, **where)
    giver = recording_table_page(new_page, site, keys[giver_seat], room.code, **where)
    third = recording_table_page(new_page, site, keys[third_seat], room.code, frames=heard, **where)
    in_language(drawer, locale)

    hold_time(drawer, giver)
    draw_the_joker(drawer, state)
    moment = drawer.locator("#odd-moment")
    expect(moment).to_be_visible()
    expect(moment).to_have_attribute("data-kind", "drew")
    expect(drawer.locator("#odd-moment-title")).to_have_text(DREW[locale])
    expect(drawer.locator("#odd-moment-card .card[data-card='JK']")).to_have_count(1)
    moment_shot(drawer, f"odd-moment-drew-{locale}-{size}")

    mine = giver.locator("#odd-moment")
    expect(mine).to_be_visible()
    expect(mine).to_have_attribute("data-kind", "took")
    took = TOOK[locale].format(seat=NAMES[drawer_seat])
    expect(giver.locator("#odd-moment-title")).to_have_text(took)
    moment_shot(giver, f"odd-moment-took-{locale}-{size}")

    # Screen readers hear it with the draw (the live region's text comes 30 ms later).
    for page, words in ((drawer, DREW[locale]), (giver, took)):
        page.clock.run_for(100)
        expect(page.locator("#announcer")).to_contain_text(words)

    # It goes away on its own.
    go_on(drawer, giver)
    expect(moment).to_be_hidden()
    expect(mine).to_be_hidden()
    assert [m["kind"] for m in moments(drawer)] == ["drew"]
    assert [m["kind"] for m in moments(giver)] == ["took"]

    # The third seat saw the draw and nothing of the moment, and was never told `odd`.
    third.wait_for_function("() => document.getElementById('last-move').textContent.length > 1")
    states = [json.loads(f) for f in heard if f.startswith("{")]
    draws = [s for s in states if (s.get("event") or {}).get("kind") == "draw"]
    assert draws, "the third seat's socket never had the draw"
    assert not any('"odd"' in f for f in heard)
    assert moments(third) == []


def test_a_tap_or_a_key_dismisses_the_moment_at_once(site, new_page):
    room, state, key = in_a_thread(_alone_with_the_joker_to_draw, "computer")
    page = recording_table_page(new_page, site, key, room.code)
    hold_time(page)  # it cannot go on its own now
    draw_the_joker(page, state)
    moment = page.locator("#odd-moment")
    expect(moment).to_be_visible()
    page.keyboard.press("Shift")
    expect(moment).to_be_hidden()
    go_on(page)


def test_on_one_device_only_the_drawer_sees_it_before_the_curtain(site, new_page):
    room, state, key = in_a_thread(_alone_with_the_joker_to_draw, "same_device")
    page = recording_table_page(new_page, site, key, room.code)
    page.locator("#curtain-button").click()
    hold_time(page)
    draw_the_joker(page, state)
    # The drawer's moment during the hold, the curtain not yet down.
    expect(page.locator("#odd-moment")).to_have_attribute("data-kind", "drew")
    expect(page.locator("#curtain")).to_be_hidden()
    moment_shot(page, "odd-moment-same-device")
    go_on(page)
    # Then the curtain, and the next player (the giver) sees no moment behind it.
    expect(page.locator("#curtain")).to_be_visible()
    expect(page.locator("#odd-moment")).to_be_hidden()
    page.locator("#curtain-button").click()
    expect(page.locator("#giver-hand .card").first).to_be_visible()
    page.wait_for_timeout(600)
    assert [m["what"] for m in moments(page)] == ["curtain", "moment", "curtain"], moments(page)
    assert [m.get("kind") for m in moments(page) if m["what"] == "moment"] == ["drew"]
    expect(page.locator("#odd-moment")).to_be_hidden()


def test_reduced_motion_gets_the_moment_standing_still(site, new_page):
    room, state, key = in_a_thread(_alone_with_the_joker_to_draw, "computer")
    page = recording_table_page(new_page, site, key, room.code, reduced_motion="reduce")
    hold_time(page)
    draw_the_joker(page, state)
    expect(page.locator("#odd-moment.still")).to_be_visible()
    first = moments(page)[0]
    assert first["kind"] == "drew" and first["still"] and first["animations"] == 0, first
    moment_shot(page, "odd-moment-still")
    go_on(page)
    expect(page.locator("#odd-moment")).to_be_hidden()  # and it goes on its own, still
