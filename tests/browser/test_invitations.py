"""In a real browser: sign up, open a friends room, and bring a friend in by its link."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import needs_browser, shot, sign_up
from tests.browser.test_accessibility import serious
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def test_friend_joins_through_the_invitation_link(site, new_page):
    host = new_page()
    sign_up(host, site, "hostess")
    expect(host.get_by_role("link", name="hostess")).to_be_visible()

    host.goto(f"{site}/new/")
    host.get_by_label("Babanuki").check()
    host.get_by_label("With friends (send a link)").check()
    host.get_by_label("Players").select_option("3")
    host.get_by_label("List the room in the lobby").check()
    host.get_by_role("button", name="Create the game").click()
    expect(host).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = host.url.rstrip("/").split("/")[-1]
    invite = host.get_by_label("Invitation link").input_value()
    assert "/join/" in invite
    # Beside it, a link that only watches.
    watch = host.locator("#watch-link").input_value()
    assert f"/r/{code}/?t=" in watch and watch.split("?t=")[1] not in invite
    expect(host.locator('[data-seat="0"] .name')).to_contain_text("hostess")
    shot(host, "room-waiting")

    # A visitor sees the room in the lobby, live.
    lobby = new_page()
    lobby.goto(f"{site}/")
    row = lobby.locator(f'tr[data-code="{code}"]')
    expect(row).to_contain_text("1/3")

    # The visitor opens the link, signs up, comes back to the invitation, which says
    # which game it is and seats nobody until the button is pressed.
    friend = new_page()
    friend.goto(invite)
    expect(friend).to_have_url(re.compile(r"/accounts/login/"))
    friend.locator("#main").get_by_role("link", name="Sign up").click()
    sign_up(friend, site, "friendo", next_url=invite)
    expect(friend).to_have_url(invite)
    expect(friend.get_by_role("heading", level=1)).to_have_text(
        "hostess invites you to play Babanuki"
    )
    expect(friend.locator("main")).to_contain_text("1 of 3 taken")
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("(empty)")
    shot(friend, "join-invitation")
    assert serious(friend) == []
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend).to_have_url(f"{site}/r/{code}/")
    expect(friend.locator('[data-seat="1"] .name')).to_contain_text("friendo")
    expect(friend.locator('[data-seat="0"] .name')).to_contain_text("hostess")

    # The host sees the friend's seat appear without reloading; so does the lobby.
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("friendo")
    expect(row).to_contain_text("2/3")
    expect(host.get_by_role("button", name="Remove friendo")).to_be_visible()
    shot(host, "room-friend-joined")

    # The host starts, filling the last seat with the computer; the room leaves the lobby.
    host.get_by_role("button", name="Fill empty seats with the computer and start").click()
    expect(host.locator("#room-status")).to_have_text("Playing")
    expect(friend.locator("#room-status")).to_have_text("Playing")
    expect(friend.locator('[data-seat="2"] .name')).to_contain_text("Computer")
    expect(row).to_have_count(0)

    # The link to watch stays once play starts (below the table), and it watches.
    expect(host.locator("#watch-section")).to_be_visible()
    watcher = new_page()
    watcher.goto(watch)
    expect(watcher.locator("#room-status")).to_have_text("Playing")
    expect(watcher.locator('[data-seat="1"] .name')).to_contain_text("friendo")
