"""Play now in the browser: a guest presses it, waits at a public table whose countdown
runs, the lobby shows them waiting; a second guest's press fills the table, which starts
at once, the lobby lists it to watch, and the two play its first round to the end."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import play_together, round_over, shot


def press_play_now(page, site, name: str, players: str) -> None:
    page.goto(f"{site}/")
    form = page.locator("#play-now")
    expect(form.get_by_label("Game")).to_have_value("babanuki")
    expect(form.get_by_label("Players")).to_have_value("4")
    form.get_by_label("Players").select_option(players)
    form.get_by_label("Your name at the table").fill(name)
    form.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))


def test_two_guests_press_play_now_wait_together_and_play_a_round(site, new_page):
    lobby, ann, mia = new_page(), new_page(hurried=True), new_page(hurried=True)
    lobby.goto(f"{site}/")
    expect(lobby.locator("#lobby-waiting")).to_contain_text("Nobody is waiting right now")
    # Only the sizes a game is played at are offered: Jiji-nuki needs three.
    form = lobby.locator("#play-now")
    form.get_by_label("Game").select_option("jijinuki")
    expect(form.locator("#id_seat_count option[value='2']")).to_be_disabled()
    form.get_by_label("Game").select_option("babanuki")
    expect(form.locator("#id_seat_count option[value='2']")).to_be_enabled()

    press_play_now(ann, site, "Ann", "2")
    countdown = ann.locator("#starts-in")
    expect(countdown).to_have_text(re.compile(r"^Starts in \d+ s$"))
    first = countdown.text_content()
    expect(countdown).not_to_have_text(first)  # it counts down
    expect(ann.locator("#room-status")).to_have_text("Waiting for players")
    shot(ann, "play-now-waiting")
    # The lobby, live: one person waits for Babanuki at two.
    waiting = lobby.locator('#lobby-waiting [data-line="babanuki-2"]')
    expect(waiting).to_contain_text("Babanuki")
    expect(waiting).to_contain_text("2 players")
    expect(waiting).to_contain_text("1 waiting")

    press_play_now(mia, site, "Mia", "2")
    assert mia.url == ann.url  # the same table
    for page in (ann, mia):
        expect(page.locator("#room-status")).to_have_text("Playing")
        expect(page.locator("#public-wait")).to_have_count(0)
    code = ann.url.rstrip("/").split("/")[-1]
    expect(lobby.locator("#lobby-waiting")).to_contain_text("Nobody is waiting right now")
    watch = lobby.locator(f'#lobby-tables [data-code="{code}"]')
    expect(watch.get_by_role("link")).to_have_text("Watch Babanuki")
    expect(watch).to_contain_text("2 people")
    shot(lobby, "play-now-lobby")
    play_together(ann, mia, until=round_over)
