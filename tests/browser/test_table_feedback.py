"""In a real browser, what the table tells a player as the game goes (issue 33): the last
move on the felt itself at both sizes, the socket lost and found again (and a draw it
could not send), the curtain of a game on one device calling players by the names typed
in, and the keyboard's focus kept on the table after each draw."""

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests import matrix
from tests.browser.axe import serious
from tests.browser.conftest import (
    SETTLED,
    TURN_MS,
    WAIT_FOR_TURN,
    WHAT_THE_TABLE_SHOWS,
    answered,
    choose_by_mouse,
    first_turn_with_keyboard,
    in_a_thread,
    in_language,
    match_over,
    needs_browser,
    new_game,
    shot,
    until_deadline,
)
from tests.lobby.replays import finished_round
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

SIZES = matrix.SIZES
SCREENS = "test-artifacts/screenshots"


def label(page, key: str) -> str:
    """A string of the table's labels (#table-labels), in the page's language."""
    return page.evaluate("k => document.getElementById('table-labels').dataset[k]", key)


def rect(page, selector: str) -> dict | None:
    return page.evaluate(
        "s => { const el = document.querySelector(s); if (!el) return null;"
        " const r = el.getBoundingClientRect();"
        " return {x: r.x, y: r.y, w: r.width, h: r.height}; }",
        selector,
    )


def tag_boxes(page) -> list[dict]:
    """Each name tag's box on the screen."""
    return page.evaluate(
        "() => [...document.querySelectorAll('#seat-tags .seat-tag')].map(t => {"
        " const r = t.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })"
    )


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def draw_with_mouse(page) -> None:
    """Choose the giver's middle card and draw it, by clicking it twice; until answered."""
    cards = page.locator("#giver-hand .card")
    card = cards.nth(cards.count() // 2)
    card.click()
    chosen = page.locator("#giver-hand .card.selected").element_handle()
    card.click()
    answered(page, chosen)


# -- 3. what just happened, on the table ----------------------------------------------------


#: On a phone the tags come first: the line hides (``crowded``) where a tag lies over its
#: corner, and only then.
GAVE_WAY = """() => {
  const line = document.getElementById('table-line');
  if (!line.classList.contains('crowded')) return false;
  line.classList.remove('crowded');
  const r = line.getBoundingClientRect();
  line.classList.add('crowded');
  const hit = [...document.querySelectorAll('#seat-tags .seat-tag')].some((t) => {
    const b = t.getBoundingClientRect();
    return b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top;
  });
  if (!hit) throw new Error('the line hid with no tag over its corner');
  return true;
}"""

#: Whichever the table shows now: the line, or (class ``crowded``) a tag in its place.
SHOWN_OR_GAVE_WAY = """() => {
  const line = document.getElementById('table-line');
  if (line.classList.contains('crowded')) return 'gave way';
  return line.offsetParent && !line.hidden ? 'shown' : false;
}"""

#: The line on the felt says the panel's last move, or its start (without the pair laid
#: down), or where the corner cannot hold that its end (the hand it emptied), and shows all
#: of it (its three lines at most are not cut).
BRIEF_AND_WHOLE = """() => {
  const line = document.getElementById('table-line');
  const said = document.getElementById('last-move').textContent;
  const brief = line.textContent;
  return brief !== '' && brief.length <= said.length && line.scrollHeight <= line.clientHeight + 1
    && (said.startsWith(brief.replace(/[.。]$/, '').split(/[,，、]/)[0].slice(0, 6))
        || said.endsWith(brief));
}"""


#: The line's box and the stage's, read together, and what hides the line if anything
#: does (``crowded``: it gave way to a tag; ``ended``: the round's end took its place).
LINE_ON_STAGE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const line = document.getElementById('table-line');
  const hidden = ['crowded', 'ended'].find((c) => line.classList.contains(c)) || null;
  return [box(line), box(document.getElementById('stage')), hidden];
}"""


@matrix.parametrize("locale", "size")
def test_the_last_move_shows_on_the_felt_beside_the_tags_or_gives_way_to_one_on_a_phone(
    site, new_page, locale, size
):
    page = new_page(locale=locale, viewport=SIZES[size])
    new_game(page, site, players="3")
    in_language(page, locale)
    first_turn_with_keyboard(page)
    draw_with_mouse(page)
    line = page.locator("#table-line")
    # The computers draw on, and each move lays the tags out anew: the line shows, or on a
    # phone gives way to a tag that needs the corner (the panel below says the move).
    seen = page.wait_for_function(SHOWN_OR_GAVE_WAY).json_value()
    if seen == "gave way" and page.evaluate(GAVE_WAY):
        assert size == "phone", "on a laptop the tags keep clear of the line"
        return
    expect(line).to_be_visible()
    # The panel's words in brief: the announcer has said them, so screen readers skip the
    # line; whole on the felt, never cut.
    expect(line).to_have_attribute("aria-hidden", "true")
    expect(line).not_to_be_empty()
    page.wait_for_function(BRIEF_AND_WHOLE)
    # On the stage, in view without scrolling (on a phone the panel is below the table).
    page.evaluate("window.scrollTo(0, 0)")
    box, stage, hidden_by = page.evaluate(LINE_ON_STAGE)
    if hidden_by:  # the computers drew on since: the line gave way to a tag, or the round ended
        assert hidden_by == "ended" or (size == "phone" and page.evaluate(GAVE_WAY)), hidden_by
        return
    assert stage["x"] <= box["x"] and box["x"] + box["w"] <= stage["x"] + stage["w"]
    assert stage["y"] <= box["y"] and box["y"] + box["h"] <= stage["y"] + stage["h"]
    assert box["y"] + box["h"] <= SIZES[size]["height"]
    # The next move replaces it (the computers may have drawn already: then the next of
    # yours; the same two seats' plain draw reads the same, so the line is cleared first);
    # the name tags keep clear of it.
    if turn_again(page):  # else the round is over: its end is the last word
        page.evaluate("document.getElementById('table-line').textContent = ''")
        draw_with_mouse(page)
        # Said on the felt, unless a tag has taken its corner since, or the round ended.
        page.wait_for_function(
            f"() => ({LINE_ON_STAGE})()[2] !== null || ({BRIEF_AND_WHOLE})()", timeout=TURN_MS
        )
    page.wait_for_function(SETTLED)
    tags = tag_boxes(page)
    box = rect(page, "#table-line")
    assert tags and not [t for t in tags if overlaps(box, t)]
    shot(page, f"feedback-table-line-{locale}-{size}")


#: The line on the felt, whole, ends as the move list's step ``k`` does: with the hand the
#: draw emptied.
EMPTIED_AND_WHOLE = """(k) => {
  const line = document.getElementById('table-line');
  const said = document.querySelector(`#move-list li[data-step='${k}']`).innerText.split('\\n')[0];
  const last = line.textContent.split(/(?<=[.。])\\s*/).filter(Boolean).pop();
  return Boolean(last) && said.endsWith(last) && line.scrollHeight <= line.clientHeight + 1;
}"""


def emptying_step(rnd) -> int:
    """The first step of a finished round's replay whose draw emptied a hand that was not
    the last one (the round went on: the line, not the result, says it)."""
    from games.replay import replay_steps

    steps = replay_steps(rnd)
    return next(
        k
        for k in range(1, len(steps) - 1)
        if any(a and not b for a, b in zip(steps[k - 1]["hands"], steps[k]["hands"], strict=True))
    )


@pytest.mark.parametrize("locale", list(matrix.LOCALES))
def test_a_draw_that_empties_a_hand_is_said_whole_in_the_phones_corner(servers, new_page, locale):
    """On a phone's narrow corner, a draw that empties a hand needs two sentences (the draw,
    the hand emptied); where three lines cannot hold both (Korean did not), the line says
    the hand emptied alone, whole, never cut. Stepped to in a replay, so the round is known."""
    rnd = in_a_thread(lambda: finished_round("babanuki", 3, rounds=1)[1])
    k = in_a_thread(emptying_step, rnd)
    site = f"http://127.0.0.1:{servers('site', static=True).port}"
    page = new_page(locale=locale, viewport=SIZES["phone"])
    page.goto(f"{site}/replay/{rnd.replay_id}/")
    page.locator(f"#move-list li[data-step='{k - 1}'] button").click()
    page.locator("#replay-forward").click()
    expect(page.locator("#replay-position")).to_have_text(re.compile(rf"^{k} / "))
    page.wait_for_function(SETTLED)
    page.evaluate("window.scrollTo(0, 0)")
    if page.evaluate(LINE_ON_STAGE)[2] == "crowded":
        # It gave way to a tag; it was fitted before it did: shown again, it is whole.
        assert page.evaluate(GAVE_WAY)
        page.evaluate("document.getElementById('table-line').classList.remove('crowded')")
        page.wait_for_function(EMPTIED_AND_WHOLE, arg=k)
    else:
        page.wait_for_function(EMPTIED_AND_WHOLE, arg=k)
        box = rect(page, "#table-line")
        assert not [t for t in tag_boxes(page) if overlaps(box, t)]
    shot(page, f"feedback-table-line-emptied-{locale}-phone")


# -- 4. the connection, visible -------------------------------------------------------------

#: ``socketCut``: when the page's socket said it closed (its first "reconnecting"), and
#: ``noteShown`` when the table first showed the connection's note, by the page's clock.
WATCH_CONNECTION = """(() => {
  window.socketCut = null;
  document.addEventListener('table-socket', (e) => {
    if (e.detail.status === 'reconnecting' && window.socketCut === null) {
      window.socketCut = performance.now();
    }
  });
  window.noteShown = null;
  new MutationObserver(() => {
    const note = document.getElementById('connection-note');
    if (note && !note.hidden && window.noteShown === null) window.noteShown = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['hidden'] });
})();"""


class Line:
    """The page's table socket, routed through the test: ``cut()`` closes it on both sides
    (the page sees it drop at once) and, until ``restore()``, refuses every new one as it
    opens (as with the network gone); meanwhile the page's socket.js keeps trying."""

    def __init__(self, page):
        self.down = False
        self.open = []
        page.add_init_script(WATCH_CONNECTION)
        page.route_web_socket(re.compile(r"/ws/rooms/"), self.route)

    def route(self, ws):
        if self.down:
            ws.close(code=4000)
            return
        server = ws.connect_to_server()
        self.open.append((ws, server))

    def cut(self):
        self.down = True
        for ws, server in self.open:
            server.close(code=4000)
            ws.close(code=4000)
        self.open = []

    def restore(self):
        self.down = False


@matrix.parametrize("size")
def test_a_lost_socket_shows_reconnecting_within_2_s_blocks_the_cards_and_clears_once_back(
    site, new_page, size
):
    page = new_page(viewport=SIZES[size])
    line = Line(page)
    page.clock.install()  # runs as usual, until held for the cut below
    new_game(page, site, players="2")
    first_turn_with_keyboard(page)
    note = page.locator("#connection-note")
    expect(note).to_be_hidden()

    # The page's own time is held, then run for 2 s: a busy machine cannot fire its timers
    # late (CI once saw the note 2.16 s after the cut by the wall clock).
    page.clock.pause_at(page.evaluate("Date.now()") + 20)
    line.cut()
    page.wait_for_function("() => window.socketCut !== null", timeout=5000)
    page.clock.run_for(2000)
    expect(note).to_be_visible()
    shown_after = page.evaluate("() => window.noteShown - window.socketCut")
    assert shown_after <= 2000, shown_after
    page.clock.resume()
    expect(note).to_have_text(label(page, "reconnecting"))
    # Nothing can be chosen meanwhile, and nothing says it is your turn.
    expect(page.locator("#status-line")).to_have_text(label(page, "reconnecting"))
    expect(page.locator("#status-line")).not_to_have_class(re.compile(r"\bmine\b"))
    for button in page.locator("#giver-buttons button").all():
        expect(button).to_be_disabled()
    expect(page.locator("#draw-button")).to_be_disabled()
    page.locator("#giver-hand .card").first.click(force=True)
    page.locator("#giver-buttons button").first.click(force=True)
    expect(page.locator("#giver-hand .card.selected")).to_have_count(0)
    expect(page.locator("#giver-buttons button[aria-pressed=true]")).to_have_count(0)
    shot(page, f"feedback-reconnecting-{size}")

    line.restore()
    expect(note).to_have_text(label(page, "online"), timeout=TURN_MS)
    expect(note).to_be_hidden()
    # Caught up: your turn again, the cards can be chosen.
    expect(page.locator("#status-line")).to_have_class(re.compile(r"\bmine\b"))
    page.locator("#giver-hand .card").first.click()
    expect(page.locator("#giver-hand .card.selected")).to_have_count(1)


def test_a_draw_the_socket_cannot_send_is_said_and_the_card_stays_chosen(site, new_page):
    page = new_page(viewport=SIZES["laptop"])
    line = Line(page)
    new_game(page, site, players="2")
    first_turn_with_keyboard(page)
    page.locator("#giver-hand .card").first.click()
    expect(page.locator("#giver-hand .card.selected")).to_have_count(1)
    # The socket is closing as the player draws: it cannot send.
    line.cut()
    page.evaluate("document.getElementById('draw-3d').click()")
    expect(page.locator("#connection-note")).to_have_text(label(page, "notSent"))
    expect(page.locator("#announcer")).to_have_text(label(page, "notSent"))
    expect(page.locator("#giver-hand .card.selected")).to_have_count(1)
    # It stays said while the table reconnects; the status line says that.
    expect(page.locator("#status-line")).to_have_text(label(page, "reconnecting"))
    expect(page.locator("#connection-note")).to_have_text(label(page, "notSent"))
    expect(page.locator("#giver-hand .card.selected")).to_have_count(1)


# -- 5. one device, by name -----------------------------------------------------------------

NAMES = {
    "en-US": ["Ann", "Bruno", "Clara"],
    "ja-JP": ["はなこ", "たろう", "けんじ"],
    "zh-CN": ["小明", "小红", "阿强"],
    "zh-TW": ["小安", "阿凱", "佳佳"],
    "de-DE": ["Lukas", "Marie", "Finn"],
    "ko-KR": ["유나", "태민", "소희"],
}


@matrix.parametrize("locale", "size")
def test_the_curtain_calls_the_next_player_by_the_name_typed_in_not_a_colour(
    site, new_page, locale, size
):
    page = new_page(locale=locale, viewport=SIZES[size])
    names = NAMES[locale]
    page.goto(f"{site}/new/")
    page.locator("input[name=mode][value=same_device]").check()
    page.locator("select[name=seat_count]").select_option("3")
    for i, name in enumerate(names):
        page.locator(f"input[name=seat_name_{i}]").fill(name)
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    in_language(page, locale)
    curtain = page.locator("#curtain")
    expect(curtain).to_be_visible(timeout=TURN_MS)
    colours = label(page, "colours").split("|")
    acting = page.evaluate(
        "() => Number(document.querySelector('#seat-table tr.acting').dataset.seat)"
    )
    name = names[acting]
    text = page.locator("#curtain-text").text_content()
    button = page.locator("#curtain-button").text_content()
    assert text == label(page, "curtain").replace("{seat}", name)
    assert button == label(page, "curtainButton").replace("{seat}", name)
    assert colours[acting] not in text + button
    shot(page, f"feedback-curtain-{locale}-{size}")
    assert serious(page) == []


# -- 7. keyboard focus stays on the table ---------------------------------------------------

FOCUS_ON_GIVER = (
    "() => Boolean(document.activeElement && document.activeElement.closest('#giver-buttons'))"
)
FOCUS_ON_TABLE = (
    "() => { const a = document.activeElement; return Boolean(a && a !== document.body"
    " && a.closest('#table-area')); }"
)


#: The page's last focus moves, each with the status line's words at the time (``trail``).
TRAIL_FOCUS = """() => {
  window.focusTrail = [];
  const name = (el) => el === document.body ? 'body' : el.tagName.toLowerCase()
    + (el.id ? '#' + el.id : '') + (el.dataset.position ? '@' + el.dataset.position : '');
  for (const kind of ['focusin', 'focusout']) {
    document.addEventListener(kind, (e) => {
      window.focusTrail = [...window.focusTrail.slice(-11), [Math.round(performance.now()), kind,
        name(e.target), document.getElementById('status-line').textContent.slice(0, 40)]];
    });
  }
}"""

#: What the page looks like when the focus did not come to the giver's cards (CI met it twice
#: in full runs; it did not come again in 32 runs alone or beside two busy cores).
WHY_NO_FOCUS = """() => {
  const a = document.activeElement;
  const buttons = document.getElementById('giver-buttons');
  return {
    active: a ? a.outerHTML.slice(0, 120) : null,
    buttons: buttons.children.length,
    buttonsShown: Boolean(buttons.offsetParent),
    tabbable: Boolean(buttons.querySelector("button[tabindex='0']")),
    moment: !document.getElementById('odd-moment').hidden,
    trail: window.focusTrail,
  };
}"""


def turn_again(page) -> bool:
    """Until the player's turn comes again (True) or the match ends (False)."""
    page.wait_for_function(WAIT_FOR_TURN, arg="#giver-buttons button", timeout=TURN_MS)
    return not match_over(page) and page.locator("#giver-buttons button").count() > 0


@matrix.parametrize("size")
def test_focus_stays_on_the_table_after_a_draw_and_goes_to_the_givers_cards_when_the_turn_comes(
    site, new_page, size
):
    page = new_page(viewport=SIZES[size])
    new_game(page, site, players="3", variant="schwarzer_peter")
    first_turn_with_keyboard(page)
    page.evaluate(TRAIL_FOCUS)
    checked = 0
    by_keys = True
    misses: list[str] = []
    # Four draws, by keys and by the mouse in turn; a match that ends at the player's
    # first draw (a short Schwarzer Peter deal) is followed by the next.
    for _ in until_deadline():
        if by_keys:
            page.locator("#giver-buttons button[tabindex='0']").focus()
            page.keyboard.press("Enter")  # choose
            chosen = page.evaluate_handle("() => document.activeElement").as_element()
            page.keyboard.press("Enter")  # draw
        else:
            cards = page.locator("#giver-hand .card")
            chosen = choose_by_mouse(page, cards.first, misses)
            if chosen is None:  # its last draw still playing out (the page is not hurried)
                continue
            try:
                cards.first.click()
            except PlaywrightTimeout as exc:
                raise AssertionError(
                    f"the chosen card was not there to draw; the clicks not taken: {misses}"
                ) from exc
        answered(page, chosen)
        # Never back at the page's body: on the table, then on the giver's cards.
        assert page.evaluate(FOCUS_ON_TABLE), page.evaluate(
            "document.activeElement.outerHTML.slice(0, 80)"
        )
        by_keys = not by_keys
        if turn_again(page):
            # Once the last computer draw has played out: its animation runs at the real
            # pace (the page is not hurried), slower on a loaded machine.
            try:
                page.wait_for_function(FOCUS_ON_GIVER, timeout=TURN_MS)
            except PlaywrightTimeout as exc:
                why = {**page.evaluate(WHY_NO_FOCUS), **page.evaluate(WHAT_THE_TABLE_SHOWS)}
                raise AssertionError(f"no focus on the giver's cards: {why}") from exc
            checked += 1
            if checked == 4:
                break
        elif checked:
            break
        else:
            first_turn_with_keyboard(page)  # the rematch, and its first turn
    assert checked >= 1
