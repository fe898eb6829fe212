"""Every way a match ends, in a real browser, for the player who ended it, the other
players and a spectator, live and after a reload: a resignation (versus the computer, in
three languages, and between two friends), a player leaving a three-seat match (and the
last human leaving it to the computers), a match played to its end on points and on
strikes, and a room abandoned by everyone.

Once a match is over no page says "Your turn" and no control draws, deals or resigns;
every page says what happened, and the room's status line, the table's status line, the
result box and the seat panel tell the same story."""

import re

from playwright.sync_api import expect

from games.models import Room
from tests import matrix
from tests.browser.conftest import (
    fast_forward_to_the_end,
    in_language,
    join_by_invitation,
    match_over,
    needs_browser,
    new_game,
    shot,
    sign_up,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
YOUR_TURN = {
    "en-US": re.compile("your turn", re.IGNORECASE),
    "ja-JP": re.compile("あなたの番"),
    "zh-CN": re.compile("轮到你"),
    "zh-TW": re.compile("輪到你"),
    "de-DE": re.compile("du bist dran", re.IGNORECASE),
    "ko-KR": re.compile("내 차례"),
}
SLOW = 15_000  # a first state over the socket, on a busy machine


# -- what every page must show ----------------------------------------------------------


def assert_no_play(page, locale="en-US"):
    """Nothing on the page invites a draw or acts: no "Your turn", no giver's cards, no
    Draw, Next round or Resign/Leave button."""
    expect(page.locator("#status-line")).not_to_be_empty(timeout=SLOW)
    expect(page.locator("#status-line")).not_to_contain_text(YOUR_TURN[locale])
    # What the table shows (the closed reactions menu's phrase "Your turn" is something
    # to send, not a statement, and is not shown).
    expect(page.locator("#table-area")).not_to_contain_text(YOUR_TURN[locale], use_inner_text=True)
    expect(page.locator("#giver-hand .card")).to_have_count(0)
    expect(page.locator("#giver-buttons button")).to_have_count(0)
    for draw in ("#draw-button", "#draw-3d"):
        expect(page.locator(draw)).to_be_disabled()
        expect(page.locator(draw)).to_be_hidden()
    expect(page.locator("#seat-actions button")).to_have_count(0)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.。])\s*", text.strip()) if s]


def assert_match_over(page, *texts, locale="en-US", finished="Finished", rematch=False):
    """The match is over on this page, told by ``texts``, the same everywhere."""
    assert_no_play(page, locale)
    status = page.locator("#status-line")
    for text in texts:
        expect(status).to_contain_text(text)
    # The result box tells what the status line tells, each sentence once (its verdict,
    # title and lines), and the room agrees.
    expect(page.locator("#result")).to_be_visible()
    told = [
        page.locator(f"#result-{part}").text_content() for part in ("verdict", "title", "match")
    ]
    sentences = [s for part in told for s in _sentences(part)]
    assert len(sentences) == len(set(sentences)), told
    rest = status.text_content()
    for part in told:
        rest = rest.replace(part.strip(), "", 1) if part.strip() else rest
    assert not rest.strip(), (told, rest)  # everything the status line says, and once
    expect(page.locator("#room-status")).to_contain_text(finished)
    actions = page.locator("#result-actions button")
    expect(actions).to_have_count(1 if rematch else 0)  # a rematch, never a next round


def screenshots(page, name):
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"ending-{name}-{size}")
    page.set_viewport_size(LAPTOP)


def reload(*pages):
    for page in pages:
        page.reload()
        expect(page.locator("#status-line")).not_to_be_empty(timeout=SLOW)


def accept_dialogs(page):
    page.on("dialog", lambda dialog: dialog.accept())


def seat_row(page, index):
    return page.locator(f'#seat-table tr[data-seat="{index}"]')


# -- setting up a game ---------------------------------------------------------------------


def room_code(page) -> str:
    return page.url.split("?")[0].rstrip("/").split("/")[-1]


def versus_computer(site, new_page, *, locale="en-US", **game):
    """A game versus the computer, and a visitor watching it.

    Only friends rooms may be listed, so the visitor comes with the room's token (what
    the in-play replay page's "Watch live" link carries; the watch-only token replaces it
    once the server accepts it)."""
    player = new_page(hurried=True, viewport=LAPTOP, locale=locale)
    new_game(player, site, players="2", **game)
    watcher = new_page(hurried=True, viewport=LAPTOP, locale=locale)
    token = Room.objects.get(code=room_code(player)).token
    watcher.goto(f"{player.url}?t={token}")
    expect(watcher.locator("#status-line")).not_to_be_empty(timeout=SLOW)
    return player, watcher


def friends_game(site, new_page, *, players, fill):
    """amy's listed friends room with ben in seat 1, started (``fill``: the computer takes
    the other seats), and a visitor watching."""
    host = new_page(hurried=True, viewport=LAPTOP)
    sign_up(host, site, "amy")
    new_game(host, site, players=players, mode="friends", listed=True)
    room_url = host.url
    invite = host.locator("#invite-link").input_value()
    friend = new_page(hurried=True, viewport=LAPTOP)
    join_by_invitation(friend, site, invite, "ben")
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("ben")
    watcher = new_page(hurried=True, viewport=LAPTOP)
    watcher.goto(room_url)
    host.locator(f"button[name=fill][value='{fill}']").click()
    for page in (host, friend, watcher):
        expect(page.locator("#status-line")).not_to_be_empty(timeout=SLOW)
        expect(page.locator("#room-status")).to_have_text("Playing")
    return host, friend, watcher


def wait_for_my_turn(page, locale="en-US"):
    """Versus the computer, the table stands still while it is the player's turn: an
    action then never races a computer's draw."""
    expect(page.locator("#status-line")).to_contain_text(YOUR_TURN[locale], timeout=SLOW)


def wait_for_a_human_to_draw(page, humans):
    selector = ", ".join(f'#seat-table tr.acting[data-seat="{i}"]' for i in humans)
    page.wait_for_selector(selector, timeout=SLOW)


# -- resigning ----------------------------------------------------------------------------

RESIGN_TEXTS = {
    # you resigned, you lost, someone resigned, the winner, the room's status
    "en-US": ("You resigned.", "You lost the match.", "resigned.", "Winner:", "Finished"),
    "ja-JP": (
        "あなたは投了しました。",
        "マッチはあなたの負けです。",
        "が投了しました。",
        "勝者：",
        "終了",
    ),
    "zh-CN": ("你认输了。", "你输掉了这场比赛。", "认输了。", "获胜者：", "已结束"),
    "zh-TW": ("你認輸了。", "你輸掉了這場比賽。", "認輸了。", "勝者：", "已結束"),
    "de-DE": (
        "Du hast aufgegeben.",
        "Du hast die Partie verloren.",
        "hat aufgegeben.",
        "Gewinner:",
        "Beendet",
    ),
    "ko-KR": ("기권했어요.", "매치에서 졌어요.", "님이 기권했어요.", "승자:", "종료"),
}


@matrix.parametrize("locale")
def test_resigning_versus_the_computer(site, new_page, locale):
    you_resigned, you_lost, resigned, winner, finished = RESIGN_TEXTS[locale]
    player, watcher = versus_computer(site, new_page, locale=locale)
    in_language(player, locale)
    wait_for_my_turn(player, locale)
    accept_dialogs(player)
    player.locator("#seat-actions button").click()

    for _ in range(2):  # live, then after a reload
        assert_match_over(
            player, you_resigned, winner, you_lost, locale=locale, finished=finished, rematch=True
        )
        assert_match_over(watcher, resigned, winner, locale=locale, finished=finished)
        expect(player.locator("#room-status")).to_contain_text(you_resigned)
        expect(watcher.locator("#room-status")).to_contain_text(resigned)
        expect(watcher.locator("#status-line")).not_to_contain_text(you_lost)
        if locale == "en-US":
            expect(seat_row(player, 0)).to_contain_text("resigned")
            expect(seat_row(player, 1)).to_contain_text("won")
            expect(player.locator("#result-title")).to_have_text(
                "The match is over. Winner: Bruno."
            )
            heading = watcher.locator("#history h3")
            expect(heading.locator(".seat-name")).to_have_text(["Guest", "Bruno"])
            expect(heading).to_contain_text("resigned · won by")
            expect(heading).to_contain_text("Bruno computer · medium")
            expect(heading).not_to_contain_text("(computer")
        if _ == 0:
            screenshots(player, f"resign-computer-player-{locale}")
            screenshots(watcher, f"resign-computer-spectator-{locale}")
            reload(player, watcher)


def test_resigning_between_two_friends(site, new_page):
    amy, ben, watcher = friends_game(site, new_page, players="2", fill="0")
    accept_dialogs(ben)
    # Resigning needs no turn: ben may resign whoever is drawing.
    ben.locator("#seat-actions button").click()

    for _ in range(2):
        assert_match_over(ben, "You resigned.", "Winner: amy.", "You lost", rematch=True)
        assert_match_over(
            amy, "ben resigned.", "Winner: amy (you).", "You won the match.", rematch=True
        )
        assert_match_over(watcher, "ben resigned.", "Winner: amy.")
        expect(watcher.locator("#status-line")).not_to_contain_text(re.compile("You (won|lost)"))
        for page in (amy, ben, watcher):
            expect(seat_row(page, 1)).to_contain_text("resigned")
            expect(seat_row(page, 0)).to_contain_text("won")
            expect(page.locator("#room-status")).to_contain_text("Finished · ")
            # The heading as it is read: the seats' colour chips are for the eye.
            heading = page.locator("#history").get_by_role("heading", level=3)
            expect(heading).to_have_accessible_name("Match 1 · ben resigned · won by amy")
            expect(page.locator("#history")).to_contain_text("No round was played to its end.")
        expect(amy.locator("#room-status")).to_have_text("Finished · ben resigned.")
        if _ == 0:
            expect(amy.locator("#last-move")).to_have_text("ben resigned.")
            for name, page in (("resigner", ben), ("winner", amy), ("spectator", watcher)):
                screenshots(page, f"resign-friends-{name}")
            reload(amy, ben, watcher)


def test_a_rematch_starts_with_no_last_move_on_the_panel_or_the_table(site, new_page):
    amy, ben, watcher = friends_game(site, new_page, players="2", fill="0")
    accept_dialogs(ben)
    ben.locator("#seat-actions button").click()
    expect(amy.locator("#last-move")).to_have_text("ben resigned.")
    amy.locator("#result-actions button").click()  # a rematch
    for page in (amy, ben, watcher):
        expect(page.locator("#room-status")).to_have_text("Playing")
        # The previous match's last move is not this one's.
        expect(page.locator("#last-move")).to_have_text("–")
        expect(page.locator("#table-line")).to_be_hidden()


# -- leaving ------------------------------------------------------------------------------

LEFT = "You left the match; the computer now plays your seat."


def assert_left(page):
    """The page of a player who left: it says so, offers the way back to the lobby, shows
    no hand and no control."""
    notice = page.locator("#table-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(LEFT)
    expect(notice.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    assert_no_play(page)
    expect(page.locator("#my-hand .card")).to_have_count(0)
    expect(page.locator("#result-actions button")).to_have_count(0)


def test_leaving_a_three_seat_match_and_the_last_human_leaving(site, new_page):
    amy, ben, watcher = friends_game(site, new_page, players="3", fill="1")
    accept_dialogs(ben)
    accept_dialogs(amy)
    # ben leaves while a human draws (the table stands still then, so his action never
    # races a computer's draw); the computer plays his seat from now on.
    wait_for_a_human_to_draw(ben, (0, 1))
    ben.locator("#seat-actions button").click()
    for _ in range(2):
        assert_left(ben)
        expect(ben.locator("#room-status")).to_have_text("Playing")
        for page in (amy, watcher):
            expect(seat_row(page, 1)).to_contain_text("left: the computer plays")
            expect(page.locator("#table-notice")).to_be_hidden()
        expect(watcher.locator("#seat-actions button")).to_have_count(0)
        # amy plays on (unless the computers finished the round meanwhile).
        if not match_over(amy):
            expect(amy.locator("#seat-actions button")).to_have_text(
                "Leave (the computer takes over)"
            )
        if _ == 0:
            for name, page in (("leaver", ben), ("other", amy), ("spectator", watcher)):
                screenshots(page, f"leave-{name}")
            reload(amy, ben, watcher)

    # amy, the last human, leaves too (if the match is still on): nobody is left to play
    # for, so the match ends there, and every page says so.
    amy.wait_for_function(
        "() => document.querySelector('#seat-table tr.acting[data-seat=\"0\"]')"
        " || document.querySelector('#result-match').textContent"
    )
    ending = "Winner:"  # the computers may have finished the match first
    if not match_over(amy):
        amy.locator("#seat-actions button").click()
        ending = EVERYONE_LEFT
    expect(watcher.locator("#result-match")).not_to_be_empty(timeout=SLOW)
    for _ in range(2):
        for page in (amy, ben):
            assert_left(page)
            assert_match_over(page, ending)
            expect(page.locator("#status-line")).not_to_contain_text(re.compile("You (won|lost)"))
        assert_match_over(watcher, ending)
        if ending == EVERYONE_LEFT:
            for page in (amy, ben, watcher):
                expect(page.locator("#history")).to_contain_text(
                    "Match 1 · ended: every player left"
                )
        if _ == 0:
            for name, page in (("leaver", ben), ("spectator", watcher)):
                screenshots(page, f"leave-all-{name}")
            reload(amy, ben, watcher)


EVERYONE_LEFT = "The match ended: every player left."


# -- played to the end -----------------------------------------------------------------


def test_a_match_won_on_points(site, new_page):
    player, watcher = versus_computer(site, new_page, variant="babanuki")
    # "Rounds played" follows the game live: empty now, the round once it ends.
    for page in (player, watcher):
        expect(page.locator("#history")).to_contain_text("No round has finished yet.")
    fast_forward_to_the_end(player)
    verdict = re.compile(r"You (won|lost) the match\.$")
    for _ in range(2):
        assert_match_over(player, "Winner:", verdict, rematch=True)
        assert_match_over(watcher, "Winner:")
        expect(watcher.locator("#status-line")).not_to_contain_text(re.compile("You (won|lost)"))
        for page in (player, watcher):
            expect(page.locator("#result-title")).to_have_text("Round 1 is over.")
            expect(page.locator("#result-odd")).to_contain_text(
                re.compile("(was|were) left holding the joker")
            )
            expect(page.locator("#history")).to_contain_text("Replay round 1")
            expect(page.locator("#history")).to_contain_text("won by")
            expect(page.locator("#history")).not_to_contain_text("No round has finished yet.")
        won = "You won" in player.locator("#status-line").text_content()
        expect(seat_row(player, 0)).to_contain_text("won" if won else "lost")
        expect(seat_row(player, 1)).to_contain_text("lost" if won else "won")
        if _ == 0:
            screenshots(player, "points-player")
            screenshots(watcher, "points-spectator")
            reload(player, watcher)


def test_a_match_lost_on_strikes(site, new_page):
    player, watcher = versus_computer(site, new_page, variant="old_maid")
    fast_forward_to_the_end(player)
    verdict = re.compile(r"You (won|lost) the match\.$")
    for _ in range(2):
        assert_match_over(player, "reached the limit.", verdict, rematch=True)
        assert_match_over(watcher, "reached the limit.")
        lost = "You lost" in player.locator("#status-line").text_content()
        loser = 0 if lost else 1
        expect(seat_row(player, loser)).to_contain_text("lost")
        expect(seat_row(watcher, loser)).to_contain_text("lost")
        for page in (player, watcher):
            expect(page.locator("#history")).to_contain_text("Replay round 1")
        if _ == 0:
            screenshots(player, "strikes-player")
            screenshots(watcher, "strikes-spectator")
            reload(player, watcher)


# -- abandoned -----------------------------------------------------------------------------

ABANDONED = "The game was abandoned: nobody was connected."


def test_an_abandoned_room(transactional_db, servers, new_page):
    """Both players close their pages; a spectator alone does not keep the room alive, and
    after ABANDON_AFTER_SECONDS the server ends it, live on the spectator's page."""
    port = servers("site", static=True, env={"ABANDON_AFTER_SECONDS": "2"}).port
    amy, ben, watcher = friends_game(f"http://127.0.0.1:{port}", new_page, players="2", fill="0")
    url = amy.url
    amy_context, ben_context = amy.context, ben.context
    amy.close()
    ben.close()
    expect(watcher.locator("#status-line")).to_contain_text(ABANDONED, timeout=SLOW)
    amy, ben = (
        amy_context.new_page(),
        ben_context.new_page(),
    )
    for page in (amy, ben):
        page.goto(url)
    reload(watcher)
    for _ in range(2):
        for page in (amy, ben, watcher):
            assert_match_over(page, ABANDONED, rematch=page is not watcher)
            expect(page.locator("#status-line")).not_to_contain_text(
                re.compile("You (won|lost)|Winner")
            )
            expect(page.locator("#room-status")).to_have_text(f"Finished · {ABANDONED}")
            expect(page.locator("#history")).to_contain_text(
                "Match 1 · abandoned: nobody was connected"
            )
            for seat in (0, 1):
                expect(seat_row(page, seat)).not_to_contain_text(re.compile("won|lost"))
        if _ == 0:
            for name, page in (("player", amy), ("spectator", watcher)):
                screenshots(page, f"abandoned-{name}")
            reload(amy, ben, watcher)
