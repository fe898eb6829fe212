"""In a real browser: the new-game form shows only what applies to the chosen game and way
of playing, names the players of a same-device game, and the invitation page lets a
newcomer sit down; both pages photographed in each language at laptop and phone size."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Room
from tests import matrix
from tests.browser.axe import serious
from tests.browser.conftest import in_language, needs_browser, shot, sign_up
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

LAPTOP = matrix.SIZES["laptop"]
PHONE = matrix.SIZES["phone"]
LOCALES = list(matrix.LOCALES)

OPTIONS = [
    "computer_level",
    "computer_speed",
    "rounds",
    "strike_limit",
    "reverse",
    "first_dealer",
    "listed",
]


def shown(page) -> set[str]:
    """The options a player can see now."""
    return {name for name in OPTIONS if page.locator(f"[name={name}]").is_visible()}


def names_shown(page) -> int:
    return sum(page.locator(f"[name=seat_name_{i}]").is_visible() for i in range(8))


def test_the_form_shows_only_what_applies(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    # Babanuki against the computer, as the form opens.
    assert shown(page) == {"computer_level", "computer_speed", "rounds"}
    assert names_shown(page) == 0
    expect(page.locator(".applies").first).to_be_hidden()  # "... only": the script sorts
    page.get_by_label("Old Maid").check()
    assert shown(page) == {
        "computer_level",
        "computer_speed",
        "strike_limit",
        "reverse",
        "first_dealer",
    }
    page.get_by_label("Jiji-nuki").check()
    assert shown(page) == {"computer_level", "computer_speed", "rounds"}
    page.get_by_label("With friends (send a link)").check()
    assert shown(page) == {"computer_level", "computer_speed", "rounds", "listed"}
    page.get_by_label("Everyone on this device").check()
    assert shown(page) == {"rounds"}
    assert names_shown(page) == 4
    page.get_by_label("Players", exact=True).select_option("6")
    assert names_shown(page) == 6
    # The first dealer is one of the table's seats.
    page.get_by_label("Schwarzer Peter").check()
    page.get_by_label("Players", exact=True).select_option("3")
    dealer = page.locator("[name=first_dealer]")
    assert dealer.locator("option:not([disabled])").count() == 4  # random, seats 1 to 3
    assert serious(page) == []


def offered(page) -> list[str]:
    return page.locator("select[name=seat_count] option:not([disabled])").evaluate_all(
        "options => options.map(o => o.value)"
    )


def test_the_match_length_is_one_control_that_says_what_a_match_is(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    # One control, labelled for what it is; the other scoring's is hidden and disabled.
    length = page.get_by_label("Match length", exact=True).filter(visible=True)
    expect(length).to_have_count(1)
    expect(length.locator("option")).to_have_text(["One round", "3 rounds", "5 rounds"])
    expect(page.get_by_text("the highest total after the last round wins")).to_be_visible()
    page.get_by_label("Schwarzer Peter").check()
    expect(length).to_have_count(1)
    options = length.locator("option")
    expect(options.first).to_have_text("One round")
    expect(options.nth(1)).to_have_text("First to 2 strikes")
    expect(options.last).to_have_text("First to 10 strikes")
    expect(length).to_have_value("3")
    expect(page.get_by_text("the first to reach the number chosen loses")).to_be_visible()
    expect(page.get_by_text("Just one round")).to_have_count(0)
    length.select_option("1")
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    rules = Room.objects.get().rules
    assert rules["strike_limit"] == 1 and rules["single_round"]


def test_each_game_offers_only_the_table_sizes_it_is_played_by(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    players = page.get_by_label("Players", exact=True)
    assert offered(page) == [str(n) for n in range(2, 9)]
    players.select_option("2")
    page.get_by_label("Jiji-nuki").check()
    # Two players would make the jiji obvious: not offered, and the choice moves to 3.
    assert offered(page) == [str(n) for n in range(3, 9)]
    expect(players).to_have_value("3")
    expect(players).to_have_accessible_description("Jiji-nuki is played by 3 to 8 players.")
    page.get_by_label("Babanuki").check()
    assert offered(page) == [str(n) for n in range(2, 9)]
    expect(players).to_have_accessible_description("Babanuki is played by 2 to 8 players.")


def test_the_computer_speed_chosen_is_the_rooms(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    speed = page.get_by_label("Computer speed")
    expect(speed).to_have_value("normal")
    speed.select_option("fast")
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    assert Room.objects.get().computer_speed == "fast"


def test_players_on_one_device_are_named_when_the_game_is_created(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    page.get_by_label("Everyone on this device").check()
    page.get_by_label("Players", exact=True).select_option("3")
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Player 1")
    page.get_by_label("Player 1", exact=True).fill("Mum")
    page.get_by_label("Player 2", exact=True).fill("Kenji")
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    room = Room.objects.get()
    assert [s.name for s in room.seats.order_by("index")] == ["Mum", "Kenji", "Player 3"]
    expect(page.locator("#status-line")).not_to_be_empty(timeout=15_000)
    expect(page.locator("main")).to_contain_text(re.compile("Mum|Kenji|Player 3"))


def test_without_scripts_every_option_shows_and_says_when_it_applies(site, new_page):
    page = new_page(viewport=LAPTOP, java_script_enabled=False)
    page.goto(f"{site}/new/")
    assert shown(page) == set(OPTIONS)
    assert names_shown(page) == 8
    expect(page.locator("[name=strike_limit] ~ .help .applies")).to_have_text(
        "Old Maid and Schwarzer Peter only."
    )
    # Each game's table sizes are said; a size the game is not played by is refused in
    # words by the server, with nothing created.
    expect(page.locator("#id_seat_count_helptext")).to_contain_text(
        "Jiji-nuki is played by 3 to 8 players."
    )
    page.locator("input[name=variant][value=jijinuki]").check()
    page.locator("select[name=seat_count]").select_option("2")
    page.locator("form.new-game button[type=submit]").click()
    expect(page.locator("#id_seat_count_error, .field-error").first).to_contain_text(
        "Jiji-nuki is played by 3 to 8 players."
    )
    assert not Room.objects.exists()
    page.locator("input[name=variant][value=old_maid]").check()
    page.locator("select[name=seat_count]").select_option("3")
    page.locator("select[name=strike_limit]").select_option("2")
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    assert Room.objects.get().rules["strike_limit"] == 2


@pytest.mark.parametrize("locale", LOCALES)
def test_screenshots_of_the_form_and_the_invitation(site, new_page, locale):
    page = new_page(viewport=LAPTOP, locale=locale)
    page.goto(f"{site}/new/")
    in_language(page, locale)
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"new-game-{locale}-{size}")
    page.locator("input[name=mode][value=same_device]").check()
    page.locator("input[name=variant][value=schwarzer_peter]").check()
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"new-game-same-device-{locale}-{size}")

    host = new_page(viewport=LAPTOP, locale=locale)
    sign_up(host, site, f"host{locale[:2]}")
    host.goto(f"{site}/new/")
    host.locator("input[name=variant][value=old_maid]").check()
    host.locator("input[name=mode][value=friends]").check()
    host.locator("select[name=seat_count]").select_option("3")
    host.locator("form.new-game button[type=submit]").click()
    expect(host).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    invite = host.locator("#invite-link").input_value()

    friend = new_page(viewport=LAPTOP, locale=locale)
    friend.goto(invite)
    in_language(friend, locale)
    assert serious(friend) == []
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        friend.set_viewport_size(viewport)
        shot(friend, f"join-{locale}-{size}")
    friend.locator("form.join button[type=submit]").click()  # no name yet: refused
    expect(friend.locator(".errorlist")).to_be_visible()
    shot(friend, f"join-refused-{locale}-phone")


def test_the_live_lobby_names_games_in_each_readers_language(site, new_page):
    """The lobby socket sends the same words to everyone; each page names the games."""
    readers = {locale: new_page(viewport=LAPTOP, locale=locale) for locale in LOCALES}
    for page in readers.values():
        page.goto(f"{site}/")
    host = new_page(viewport=LAPTOP, locale="ja-JP")  # once, every list turned Japanese
    sign_up(host, site, "kaito")
    host.goto(f"{site}/new/")
    host.locator("input[name=variant][value=old_maid]").check()
    host.locator("input[name=mode][value=friends]").check()
    host.locator("input[name=listed]").check()
    host.locator("form.new-game button[type=submit]").click()
    expect(host).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = host.url.rstrip("/").split("/")[-1]
    names = {
        "en-US": "Old Maid",
        "ja-JP": "オールドメイド",
        "zh-CN": "英式抽鬼牌",
        "zh-TW": "英式抽鬼牌",
        "de-DE": "Old Maid",
        "ko-KR": "올드 메이드",
    }
    for locale, page in readers.items():
        row = page.locator(f'tr[data-code="{code}"]')
        expect(row.locator("td").first).to_have_text(names[locale])
    # ... and again after a reload, from the page itself.
    readers["en-US"].reload()
    expect(readers["en-US"].locator(f'tr[data-code="{code}"] td').first).to_have_text("Old Maid")


def deal_line(page) -> str:
    return page.locator("#deal-line").text_content()


def test_the_form_says_which_deal_and_offers_the_switch_only_where_it_exists(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    switch = page.locator("input[name=balanced_deal]")
    # Four-seat Babanuki: its own deal is fair, no switch.
    expect(page.locator("#deal-line")).to_contain_text("The game's own deal")
    expect(switch).to_be_hidden()
    page.locator("select[name=seat_count]").select_option("5")
    expect(page.locator("#deal-line")).to_contain_text("balanced deal")
    expect(page.locator("#deal-line")).to_contain_text("13-10-10-10-10")
    expect(switch).to_be_visible()
    expect(switch).to_be_checked()  # on by default
    switch.uncheck()
    expect(page.locator("#deal-line")).to_contain_text("The game's own deal")
    switch.check()
    page.get_by_label("Schwarzer Peter").check()  # 5 seats: fair as it is
    expect(switch).to_be_hidden()
    expect(page.locator("#deal-line")).to_contain_text("The game's own deal")
    page.locator("select[name=seat_count]").select_option("8")
    expect(page.locator("#deal-line")).to_contain_text("4-3-4-4-4-4-4-4")
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    room = Room.objects.get()
    assert room.options["balanced_deal"] is True
    expect(page.locator(".room-deal")).to_contain_text("4-3-4-4-4-4-4-4")
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"room-balanced-deal-{size}")


def test_a_host_who_switches_it_off_plays_the_games_own_deal(site, new_page):
    page = new_page(viewport=LAPTOP)
    page.goto(f"{site}/new/")
    page.get_by_label("Old Maid").check()
    page.locator("select[name=seat_count]").select_option("3")
    page.locator("input[name=balanced_deal]").uncheck()
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    assert Room.objects.get().options["balanced_deal"] is False
    expect(page.locator(".room-deal")).to_contain_text("The game's own deal")


@pytest.mark.parametrize("locale", LOCALES)
def test_screenshots_of_the_balanced_deal_on_the_rules_and_fairness_pages(site, new_page, locale):
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{site}/rules/#balanced-deal")
    in_language(page, locale)
    # The sticky header stays out of the shots (CSSOM, which the CSP allows).
    unstick = "document.querySelector('.site-header').style.position = 'static'"
    page.evaluate(unstick)
    expect(page.locator("table.balanced")).to_contain_text("13-10-10-10-10")
    shot(page, f"rules-balanced-deal-{locale}-phone", of=".balanced-deal")
    page.goto(f"{site}/fairness/")
    page.evaluate(unstick)
    page.locator("#fair-babanuki-5 summary").click()
    expect(page.locator("#fair-babanuki-5")).to_contain_text("13-10-10-10-10")
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"fairness-babanuki-5-{locale}-{size}", of="#fair-babanuki-5")


@pytest.mark.parametrize("locale", LOCALES)
def test_screenshots_of_the_forms_deal_line(site, new_page, locale):
    page = new_page(viewport=LAPTOP, locale=locale)
    page.goto(f"{site}/new/")
    in_language(page, locale)
    page.locator("select[name=seat_count]").select_option("5")
    expect(page.locator("input[name=balanced_deal]")).to_be_visible()
    expect(page.locator("#deal-line")).to_contain_text("13-10-10-10-10")
    assert serious(page) == []
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")  # the sticky header at the top of the shot
        shot(page, f"new-game-balanced-{locale}-{size}")
        shot(page, f"new-game-balanced-deal-{locale}-{size}", of="form.new-game .deal")
