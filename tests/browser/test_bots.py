"""In a real browser, in each language: making a bot and its token on the profile, the
bot's page, the lobby's bots online, inviting a bot to a waiting room and the new-game
form's bots; every name of a bot says "bot" beside it; axe finds nothing serious;
photographed at laptop and phone size."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import selectors
from games.identity import Actor
from games.models import Challenge
from games.realtime import streams
from games.services import bots
from tests import rooms
from tests.browser.axe import serious
from tests.browser.conftest import in_a_thread, in_language, needs_browser, shot, sign_up
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
#: What the pages say, written out here (not read from the catalogues): the mark beside
#: a bot's name, the profile's section, its button, the token page's warning, the bot
#: page's online line, the room's invitation and the new-game form's bots.
WORDS = {
    "en-US": (
        "bot",
        "Your bots",
        "Make the bot and its token",
        "it is shown only this once",
        "Online",
        "Invite a bot",
        "Bots instead of the computer",
    ),
    "ja-JP": (
        "ボット",
        "あなたのボット",
        "ボットとトークンを作る",
        "表示されるのはこの一度だけ",
        "オンライン",
        "ボットを招待",
        "コンピューターの代わりにボット",
    ),
    "zh-CN": (
        "机器人",
        "你的机器人",
        "创建机器人和它的令牌",
        "只会显示这一次",
        "在线",
        "邀请机器人",
        "用机器人代替电脑",
    ),
}


def shot_at_both_sizes(page, name: str) -> None:
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"{name}-{size}")
    page.set_viewport_size(LAPTOP)


def waiting_room_of(username: str) -> str:
    return rooms.friends_room(get_user_model().objects.get(username=username), seats=3).code


def online(name: str) -> None:
    streams.claim(selectors.bot_named(name).pk)


def seat_the_bot(code: str, name: str) -> None:
    made = Challenge.objects.get(room__code=code, bot__user__username=name)
    bots.accept(bot=made.bot, challenge_id=made.pk)


@pytest.mark.parametrize("locale", list(WORDS))
def test_bots_on_the_profile_their_page_the_lobby_and_a_room(site, new_page, locale):
    mark, section, make, once, is_online, invite, instead = WORDS[locale]
    who = f"maker{locale[:2]}"
    bot_name = f"Rita{locale[:2]}"
    page = new_page(viewport=LAPTOP, locale=locale)
    sign_up(page, site, who)
    # The profile: the bot is made, its token shown once.
    page.goto(f"{site}/accounts/profile/")
    in_language(page, locale)
    expect(page.locator("#bots-title")).to_have_text(section)
    page.locator("#id_name").fill(bot_name)
    page.locator("#id_description").fill("Draws at random, never peeks.")
    page.get_by_role("button", name=make).click()
    expect(page.locator("#main")).to_contain_text(once)
    token = page.locator("#bot-token").input_value()
    assert token.startswith("omb_")
    assert serious(page) == []
    shot_at_both_sizes(page, f"bot-token-{locale}")
    in_a_thread(online, bot_name)
    # Its page, and the lobby's bots online.
    page.goto(f"{site}/bots/{bot_name}/")
    expect(page.locator("h1 .badge.bot")).to_have_text(mark)
    expect(page.locator(".bot-facts")).to_contain_text(is_online)
    assert serious(page) == []
    shot_at_both_sizes(page, f"bot-page-{locale}")
    page.goto(f"{site}/")
    expect(page.locator(".bot-list")).to_contain_text(bot_name)
    expect(page.locator(".bot-list .badge.bot")).to_have_text(mark)
    assert serious(page) == []
    shot_at_both_sizes(page, f"bot-lobby-{locale}")
    # The profile lists it.
    page.goto(f"{site}/accounts/profile/")
    expect(page.locator(".bot-list")).to_contain_text(bot_name)
    assert serious(page) == []
    shot_at_both_sizes(page, f"bot-profile-{locale}")
    # The new-game form offers it in the opponents' seats.
    page.goto(f"{site}/new/")
    expect(page.locator("fieldset.bots legend")).to_have_text(instead)
    expect(page.locator("fieldset.bots")).to_contain_text(bot_name)
    assert serious(page) == []
    # A waiting room of the player's: the bot is invited, and sits down with its mark.
    code = in_a_thread(waiting_room_of, who)
    page.goto(f"{site}/r/{code}/")
    expect(page.locator("#invite-bot-title")).to_have_text(invite)
    page.locator("#invite-bot").select_option(bot_name)
    page.locator("form[action$='invite-bot/'] button").click()
    expect(page.locator(".bot-invites")).to_contain_text(bot_name)
    in_a_thread(seat_the_bot, code, bot_name)
    seat = page.locator("#seats li[data-seat='1']")
    expect(seat).to_contain_text(bot_name)  # live, over the room's socket
    expect(seat.locator(".seat-what")).to_have_text(mark)
    # Seated, it is no longer waited for nor offered.
    expect(page.locator(".bot-invites li")).to_have_count(0)
    expect(page.locator("#invite-bot option")).to_have_count(0)
    expect(page.locator("form[action$='invite-bot/']")).to_be_hidden()
    assert serious(page) == []
    shot_at_both_sizes(page, f"bot-room-{locale}")
    # At the table, the bot's name tag says so too.
    in_a_thread(
        rooms.services.start_match,
        room_id=selectors.room_by_code(code).pk,
        actor=Actor(user_id=selectors.bot_named(bot_name).owner_id),
        fill_with_computers=True,
    )
    tag = page.locator(".seat-tag[data-tag-seat='1']")
    expect(tag).to_contain_text(bot_name)
    expect(tag).to_contain_text(mark)
    shot_at_both_sizes(page, f"bot-table-{locale}")
