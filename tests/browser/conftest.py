"""Playwright driving Debian's Chromium headless shell against a real server process."""

import asyncio
import os
import re
import shutil
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests import matrix
from tests.conftest import REQUIRE_SERVICES
from tests.support import after_test, needs_services  # noqa: F401 - re-exported

#: Debian's ``chromium-headless-shell``: the same build as ``chromium`` without its
#: windowing, about 30% less wall and CPU time for the same tests (docs/performance.md,
#: "The test suite"). CI never falls back to the full ``chromium``: a missing shell fails
#: the run there, and skips the browser tests locally.
CHROMIUM = shutil.which("chromium-headless-shell")

if REQUIRE_SERVICES and not CHROMIUM:
    raise RuntimeError(
        "REQUIRE_SERVICES=1 but chromium-headless-shell is not installed (scripts/browser.sh)"
    )

needs_browser = pytest.mark.skipif(
    not CHROMIUM, reason="needs Debian's chromium-headless-shell (scripts/browser.sh)"
)

#: How long an action or an expectation may wait for the page: a bound for failures only,
#: generous for a busy machine (Playwright's own defaults are 5 s for expect()).
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)

#: How often ``page.wait_for_function`` looks again, in every test. Playwright's default
#: looks at every animation frame, which keeps Chromium making frames for the whole wait:
#: the 3D table composited in software 60 times a second while a test waits out the
#: computers' turns. Alone, the mouse-played match took 25 s and 22 s of Chromium's CPU
#: that way, 16 s and 14 s looking every 50 ms (docs/performance.md, "The test suite").
#: Every wait of the suite is for a state that stays once reached, so looking every 50 ms
#: misses nothing.
POLL_MS = 50


def _every_poll_ms(wait):
    def wait_for_function(self, expression, *, arg=None, timeout=None, polling=POLL_MS):
        return wait(self, expression, arg=arg, timeout=timeout, polling=polling)

    return wait_for_function


Page.wait_for_function = _every_poll_ms(Page.wait_for_function)

#: Where the browser tests leave screenshots of what they saw, for a person to look at
#: (``make screenshots``, ``make test-matrix``). Unset (``make test``, CI), none are taken:
#: each full page costs about 0.8 CPU-s, a sixth of the browser tests' CPU, and no check
#: reads them.
SCREENSHOTS = os.environ.get("SCREENSHOT_DIR", "")


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for all the browser tests of a worker, and Playwright's event loop.

    Playwright's sync API runs its event loop in this thread and, between its calls, marks
    it as the thread's running loop: Django would then refuse database work from a test
    (it would take the test for async code), and pytest-asyncio could not run its own loop
    for the async tests that follow. So the mark is only on during a browser test
    (fixture ``browser``)."""
    from playwright.sync_api import sync_playwright

    manager = sync_playwright()
    playwright = manager.__enter__()
    try:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        loop = asyncio.get_running_loop()
    finally:
        asyncio._set_running_loop(None)
    yield browser, loop
    asyncio._set_running_loop(loop)
    try:
        browser.close()
    finally:
        manager.__exit__(None, None, None)
        asyncio._set_running_loop(None)


@pytest.fixture
def browser(chromium):
    """The worker's Chromium, for one test: Playwright's loop marked as running meanwhile
    (fixture ``chromium``), and Django told that the test itself is synchronous."""
    browser, loop = chromium
    asyncio._set_running_loop(loop)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield browser
    for context in browser.contexts:  # whatever the test left open
        context.close()
    asyncio._set_running_loop(None)
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def site(transactional_db, browser, live_servers):
    """The worker's server (Daphne's runserver: WebSockets and static files), on the test
    database, for one test.

    The database fixture comes first so that this one ends before the tables are flushed:
    the test's pages closed, then the server at rest (tests.support.after_test)."""
    server = live_servers()
    yield server.url
    for context in browser.contexts:
        context.close()
    after_test(server)


@pytest.fixture
def paced_site(transactional_db, browser, live_servers):
    """The same, with the computer taking its time as on the real site: each state then
    reaches the page on its own instead of several at once."""
    server = live_servers({"COMPUTER_DELAY_SECONDS": "1.5"})
    yield server.url
    for context in browser.contexts:
        context.close()
    after_test(server)


def in_a_thread(work, *args, **kwargs):
    """``work(*args, **kwargs)`` in a thread of its own: the services broadcast through
    async_to_sync, which refuses the thread where Playwright's event loop runs."""

    def run():
        try:
            return work(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


#: How much faster a ``hurried`` page's clock runs: its animations (the compositor's
#: timeline) and its timers (the pauses between the steps of a draw).
HURRY = 8

#: Divides every timer's delay in the page by HURRY, before any of its scripts run.
HURRIED_TIMERS = f"""(() => {{
  const setTimeout = window.setTimeout.bind(window);
  window.setTimeout = (work, ms = 0, ...args) => setTimeout(work, ms / {HURRY}, ...args);
}})();"""


def hurry(page) -> None:
    """Play ``page``'s animations and timers HURRY times faster: for tests that only look
    at where things come to rest (screenshots of each phase, whole matches), never for
    tests of motion or of how long something shows."""
    page.add_init_script(HURRIED_TIMERS)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": HURRY})


#: What static/js/howto.js remembers once its dialog was seen on a device.
SEEN_HOWTO = "try { localStorage.setItem('howto-seen', '1'); } catch (e) {}"


@pytest.fixture
def new_page(browser):
    def make(*, hurried=False, first_visit=False, **options):
        context = browser.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        if not first_visit:
            # The first table's "how to play" (static/js/howto.js) was seen on this device
            # before: only the tests of that first visit (first_visit=True) meet it.
            context.add_init_script(SEEN_HOWTO)
        page = context.new_page()
        if hurried:
            hurry(page)
        return page

    return make  # fixture ``browser`` closes the contexts


def shot(page, name: str, *, of: str | None = None, full_page: bool = True) -> None:
    """A screenshot ``name``.png in SCREENSHOTS, if screenshots are asked for: of the whole
    page, of the screen as seen (``full_page=False``), or of the element ``of`` selects."""
    if not SCREENSHOTS:
        return
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.join(SCREENSHOTS, f"{name}.png")
    if of:
        page.locator(of).screenshot(path=path)
    else:
        page.screenshot(path=path, full_page=full_page)


PASSWORD = "a-browser-password-42"


def sign_up(page, site, name, next_url=None):
    """Sign up through the form (already on it when ``next_url`` brought us there)."""
    if next_url is None:
        page.goto(f"{site}/accounts/signup/")
    page.locator("#id_username").fill(name)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#main").get_by_role("button").click()


HTML_LANG = matrix.LOCALES


def in_language(page, locale):
    assert page.evaluate("document.documentElement.lang") == HTML_LANG[locale]


def new_game(
    page,
    site,
    *,
    variant="babanuki",
    players="3",
    mode="computer",
    flat=False,
    single=True,
    strikes=None,
    listed=False,
):
    page.goto(f"{site}/new/")
    page.locator(f"input[name=variant][value={variant}]").check()
    page.locator(f"input[name=mode][value={mode}]").check()
    page.locator("select[name=seat_count]").select_option(players)
    # The match length: one control, the one for the chosen game's scoring.
    length = page.locator("select[name=rounds]:enabled, select[name=strike_limit]:enabled")
    if single:
        length.select_option("1")  # one round, in either scoring
    if strikes:
        length.select_option(strikes)
    if listed:
        page.locator("input[name=listed]").check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    if flat:
        page.goto(page.url + "?flat=1")
    if mode != "friends":
        # The first state comes over the socket; allow for a busy machine.
        expect(page.locator("#status-line")).not_to_be_empty(timeout=TURN_MS)


def match_over(page) -> bool:
    return page.locator("#result-match").is_visible() and bool(
        page.locator("#result-match").text_content()
    )


#: The longest wait for the server's next move (the computers' turns, an answer to a draw):
#: only a bound for a failure, generous for a busy machine.
TURN_MS = 60_000
#: The longest a whole match may take.
MATCH_SECONDS = 300

WAIT_FOR_TURN = (
    "sel => document.querySelector(sel) || "
    "(!document.getElementById('result').hidden && "
    "(document.querySelector('#result-match')?.textContent || '').length > 0)"
)

#: Nothing moves on the table: no card in flight, the own-hand sequence over (its pauses
#: between steps run no animation), the camera not gliding between views (a script's
#: frames, not CSS), and no CSS animation or transition running but endless ones (none
#: today: the your-turn pulse and the lobby's live dot pulse three times, then rest).
SETTLED = """() => !document.querySelector('.flying, #my-hand.shuffling, #my-hand .arrived,'
    + ' #my-hand .to-pile, #my-hand .taken, #table-wrap[data-gliding]')
  && document.getAnimations().every((a) => a.playState !== 'running'
    || a.effect.getComputedTiming().iterations === Infinity)"""


#: What keeps the table from coming to rest, for a failure's report: the elements still
#: marked as moving, the finite animations running and those stopped, and the page's clock.
UNSETTLED = """() => {
  const named = (a) => {
    const t = a.effect && a.effect.target;
    return `${a.animationName || a.id || a.constructor.name} on ${t ? t.id || t.className : '?'}`
      + ` (${a.playState}, ${Math.round(a.currentTime)} ms, started at ${Math.round(a.startTime)})`;
  };
  const finite = document.getAnimations()
    .filter((a) => a.effect.getComputedTiming().iterations !== Infinity);
  return {
    marked: [...document.querySelectorAll('.flying, #my-hand.shuffling, #my-hand .arrived,'
      + ' #my-hand .to-pile, #my-hand .taken, #table-wrap[data-gliding]')]
      .map((e) => e.id || e.className),
    running: finite.filter((a) => a.playState === 'running').map(named),
    stopped: finite.filter((a) => a.playState !== 'running').map(named),
    status: document.getElementById('status-line')?.textContent || '',
    visibility: document.visibilityState,
    timeline: document.timeline.currentTime,
    now: performance.now(),
  };
}"""

#: Whether the page still runs its timers and frames: how long a 0 ms timer and the next
#: frame took to come (read a second later: null if one never came).
ALIVE = """() => {
  const t0 = performance.now();
  window.__alive = { timer: null, frame: null };
  setTimeout(() => { window.__alive.timer = performance.now() - t0; }, 0);
  requestAnimationFrame(() => { window.__alive.frame = performance.now() - t0; });
}"""


def unsettled(page) -> dict:
    """Why the table is not at rest (``UNSETTLED``), and whether the page runs (``ALIVE``)."""
    report = page.evaluate(UNSETTLED)
    page.evaluate(ALIVE)
    page.wait_for_timeout(1000)
    report["alive_ms"] = page.evaluate("window.__alive")
    return report


def settle(page):
    """Until the table is still, and still after two more frames (a new state's layout)."""
    try:
        page.wait_for_function(SETTLED)
    except PlaywrightTimeout as exc:
        raise AssertionError(f"the table never came to rest: {unsettled(page)}") from exc
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function(SETTLED)


def until_deadline(seconds: float = MATCH_SECONDS):
    """Loop turns until the deadline (a bound for failures, not a pace)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        yield


def answered(page, element) -> None:
    """Until the table has answered the draw made from ``element`` (a giver's card or
    button), whatever it said: every new state draws the giver's hand afresh."""
    if element is not None:
        page.wait_for_function("el => !el.isConnected", arg=element, timeout=TURN_MS)


def round_over(page) -> bool:
    return page.locator("#result").is_visible()


#: A card to draw, or the result up (the round's end, or the match's).
WAIT_FOR_TURN_OR_RESULT = (
    "sel => document.querySelector(sel) || !document.getElementById('result').hidden"
)


def choose_by_mouse(page, card, misses: list[str] | None = None):
    """Click ``card`` to choose it: the chosen card's handle, or None where the table did
    not take the click (it moved on, or its last draw was still playing out); then what
    Playwright said is added to ``misses``, if given.

    A card already chosen is not clicked again: a click of it is a draw. It happens after
    a click that timed out here with its events already on their way to the page, which
    then took it late (on a loaded machine): the next try's click drew the card at once,
    and the click meant to draw it met an empty hand, the match over."""
    try:
        if "selected" in (card.get_attribute("class", timeout=2000) or "").split():
            return card.element_handle(timeout=2000)
        card.click(timeout=2000)
        return page.locator("#giver-hand .card.selected").element_handle(timeout=2000)
    except PlaywrightError as exc:
        if misses is not None:
            misses.append(str(exc)[-600:])
        return None


def draw_by_mouse(page, pick: str = "middle", misses: list[str] | None = None) -> bool:
    """One draw as a person makes it with the mouse: click the ``pick`` ("first",
    "middle", "last") card of the giver's to choose it, click it again to draw it, and
    wait for the table's answer. False where the table took no draw (no card offered, or
    it moved on between the clicks: what Playwright said is added to ``misses``)."""
    cards = page.locator("#giver-hand .card")
    count = cards.count()
    if not count:
        return False
    card = {"first": cards.first, "middle": cards.nth(count // 2), "last": cards.last}[pick]
    chosen = choose_by_mouse(page, card, misses)
    if chosen is None:
        return False
    try:
        card.click(timeout=2000)  # again: draw it
    except PlaywrightError as exc:
        if misses is not None:
            misses.append(str(exc)[-600:])
        return False
    answered(page, chosen)
    return True


def one_draw_by_mouse(page, pick: str = "middle") -> None:
    """One draw by the mouse on the page's turn (``draw_by_mouse``), tried again while the
    table takes none: a click bounded at 2 s can meet a card still coming to rest on a
    loaded machine, and a False from ``draw_by_mouse`` means "not this time", as in
    ``play_with_mouse``'s loop."""
    misses: list[str] = []
    for _ in until_deadline(TURN_MS / 1000):
        if draw_by_mouse(page, pick, misses):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"no draw taken by the mouse; the last clicks not taken: {misses[-2:]}")


#: What the table shows, for a failure's message: its lines, the result, the giver's cards.
WHAT_THE_TABLE_SHOWS = """() => ({
  status: document.getElementById('status-line')?.textContent || '',
  connection: document.getElementById('connection-note')?.textContent || '',
  result: !document.getElementById('result').hidden,
  match: document.querySelector('#result-match')?.textContent || '',
  giverCards: document.querySelectorAll('#giver-hand .card').length,
  chosen: document.querySelectorAll('#giver-hand .card.selected').length,
  dialog: Boolean(document.querySelector("dialog[open], [aria-modal='true']:not([hidden])")),
  // What a click on the middle card of the giver's (where play_with_mouse clicks) meets.
  atMiddle: (() => {
    const cards = document.querySelectorAll('#giver-hand .card');
    const card = cards[Math.floor(cards.length / 2)];
    if (!card) return null;
    const r = card.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return card.contains(hit) ? 'the card' : hit && hit.outerHTML.slice(0, 100);
  })(),
})"""


def play_with_mouse(page, *, until=match_over):
    """Draw by clicking the middle card of the giver's twice (choose, then draw) until the
    match is over, or with ``until=round_over`` the round."""
    wait = WAIT_FOR_TURN if until is match_over else WAIT_FOR_TURN_OR_RESULT
    tries = {"drawn": 0, "not taken": 0}
    misses: list[str] = []
    for _ in until_deadline():
        if until(page):
            return
        page.wait_for_function(wait, arg="#giver-hand .card", timeout=TURN_MS)
        if not until(page) and page.locator("#giver-hand .card").count():
            tries["drawn" if draw_by_mouse(page, "middle", misses) else "not taken"] += 1
    shows = page.evaluate(WHAT_THE_TABLE_SHOWS)
    raise AssertionError(
        f"{until.__name__} never came: {tries}, the table shows {shows};"
        f" the last click not taken: {misses[-1:]}"
    )


def play_together(*pages, until=match_over) -> None:
    """Friends at one table, each in their own browser: whoever may draw draws (the last
    card offered) until the match (or, ``until=round_over``, the round) is over on every
    page."""
    for _ in until_deadline():
        if all(until(page) for page in pages):
            break
        for page in pages:
            draw_by_mouse(page, "last")
        pages[0].wait_for_timeout(30)
    else:
        raise AssertionError(f"{until.__name__} never came")
    if until is match_over:
        for page in pages:
            expect(page.locator("#result-match")).not_to_be_empty()


def fast_forward(page, *, cards: int = 2) -> None:
    """The draws of the page's seat, made for it through the services (the engine and the
    broadcast any draw goes through; the server's computers draw their turns between) until
    its hand holds at most ``cards`` cards or the round is over; then the table settles.
    For a test that looks at a round's last draws or its end, not at the ones before: the
    page plays them all as they come, but quicker than by the mouse."""
    in_a_thread(_played_for_the_page, _room_code(page), _hand_at_most(cards), "server")
    settle(page)


def fast_forward_to_the_end(page) -> None:
    """The page's match played to its end through the services, the page watching every
    draw and round as it comes (``fast_forward``), until it shows the match's result: for a
    test whose subject is what a whole match sends or shows, not the clicks in it."""
    in_a_thread(_played_for_the_page, _room_code(page), lambda state, seat: False, "server")
    expect(page.locator("#result-match")).not_to_be_empty(timeout=TURN_MS)
    settle(page)


def open_at_the_round_end(page) -> None:
    """The page's round played to its end through the services with the page away (it
    paints none of the draws), then the page opened again there: for a test that looks at
    the round's end, not at how it came."""
    url = page.url
    page.goto("about:blank")  # the page away: its server stops playing the computers
    in_a_thread(_played_for_the_page, _room_code(url), _hand_at_most(0), "either")
    page.goto(url)
    expect(page.locator("#result")).to_be_visible(timeout=TURN_MS)
    settle(page)


def _room_code(page_or_url) -> str:
    url = page_or_url if isinstance(page_or_url, str) else page_or_url.url
    return re.search(r"/r/([A-Z0-9]+)/", url).group(1)


def _hand_at_most(cards: int):
    """The moment the seat's hand holds at most ``cards`` cards, or the round is over."""
    return lambda state, seat: (
        state["round"]["over"] or len(state["round"]["state"]["hands"][seat]) <= cards
    )


def _played_for_the_page(code: str, moment, computers: str) -> None:
    """The room of ``code`` played through the services until ``moment(state, seat of its
    one person)`` holds or its match is over (``tests.play.play_until``)."""
    from games.identity import Actor
    from games.models import Room
    from tests.play import play_until

    room = Room.objects.get(code=code)
    (seat,) = room.seats.filter(is_computer=False)
    actor = Actor(user_id=seat.user_id, guest=seat.guest)
    play_until(
        room.pk,
        {seat.index: actor},
        lambda state: moment(state, seat.index),
        computers=computers,
    )


def join_by_invitation(page, site, invite: str, name: str, *, sign_up_first=False) -> None:
    """A newcomer opens the invitation link and sits down: at once, as a guest under the
    name they type; or (``sign_up_first``) after signing up from the invitation, which
    brings them back to it, as themselves."""
    page.goto(invite)
    if sign_up_first:
        page.locator("#main a[href*='/accounts/signup/']").click()
        sign_up(page, site, name, next_url=invite)
        expect(page).to_have_url(invite)
        expect(page.locator("form.join input[name=name]")).to_have_value(name)
    else:
        page.locator("form.join input[name=name]").fill(name)
    page.locator("form.join button[type=submit]").click()  # "Take a seat"


def first_turn_with_keyboard(page, matches: int = 10) -> None:
    """Until the player has a turn. A round can end without one: the others drew all of
    the player's cards first (about 2% of four-player Schwarzer Peter deals, measured with
    the engine); then a rematch, with the keyboard too."""
    for _ in range(matches):
        page.wait_for_function(WAIT_FOR_TURN, arg="#giver-buttons button", timeout=TURN_MS)
        if page.locator("#giver-buttons button").count():
            return
        page.locator("#result-actions button").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('result').hidden", timeout=TURN_MS)
    raise AssertionError(f"no turn for the player in {matches} matches")


def table_page(new_page, site, session_key, code, locale, size):
    """A page signed in with ``session_key`` (in ``locale``, at ``size`` of
    ``matrix.SIZES``) at the table of the room ``code``, its first state shown."""
    page = new_page(locale=locale, viewport=matrix.SIZES[size])
    page.context.add_cookies([{"name": "sessionid", "value": session_key, "url": site}])
    page.goto(f"{site}/r/{code}/")
    expect(page.locator("#status-line")).not_to_be_empty()
    return page


LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}


def both_sizes(page, name):
    """Screenshots at both sizes, when they are asked for (else the page stays as it is)."""
    if not SCREENSHOTS:
        return
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.evaluate("scrollTo(0, 0)")
        settle(page)
        shot(page, f"{name}-{size}")
    page.set_viewport_size(LAPTOP)
    settle(page)


def _rooms_now(count: int = 3) -> str:
    """The latest rooms as the server stored them: what a failed wait was waiting on."""
    from games import schedule, selectors
    from games.models import Presence, Room

    lines = []
    for room in Room.objects.order_by("-pk")[:count]:
        state = selectors.snapshot(room.pk)
        rnd = (state or {}).get("round") or {}
        play = rnd.get("state") or {}
        hands = [len(hand) for hand in play.get("hands", [])]
        due = schedule.next_due(state) if state else None
        lines.append(
            f"{room.code}: {room.status}, version {room.version}, due at {room.due_at}; "
            f"round {rnd.get('number')}, over {rnd.get('over')}, drawer {play.get('drawer')}, "
            f"giver {play.get('giver')}, hands {hands}; the server owes {due}; "
            f"{Presence.objects.filter(seat__room=room).count()} sockets of seats counted"
        )
    return "\n".join(lines) or "no room"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails with the site up says how its latest rooms stood in the
    database (a page waiting for a turn that never came: the server's move, or the page's)."""
    report = yield
    if report.when == "call" and report.failed and "site" in getattr(item, "fixturenames", ()):
        try:
            report.sections.append(("rooms at the failure", in_a_thread(_rooms_now)))
        except Exception as exc:  # the report must never fail the run
            report.sections.append(("rooms at the failure", f"not read: {exc!r}"))
    return report
