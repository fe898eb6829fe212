"""In a real browser: sign up, open a friends room, and bring friends in by its link: one
sits down at once as a guest under a name, another signs up on the way. And a guest
hosts: no account, a name typed on the form, a friend by the link, a match played to its
end, and the game kept once the host signs up."""

import re

from playwright.sync_api import expect

from tests.browser.axe import serious
from tests.browser.conftest import (
    join_by_invitation,
    needs_browser,
    play_together,
    shot,
    sign_up,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


def test_friends_join_through_the_invitation_link(site, new_page):
    host = new_page()
    sign_up(host, site, "hostess")
    expect(host.get_by_role("link", name="hostess")).to_be_visible()

    host.goto(f"{site}/new/")
    host.get_by_label("Babanuki").check()
    host.get_by_label("With friends (send a link)").check()
    host.get_by_label("Players").select_option("4")
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
    expect(row).to_contain_text("1/4")

    # A newcomer opens the link: no log-in on the way. The page says who invites them to
    # which game, and seats nobody until the button is pressed.
    friend = new_page()
    friend.goto(invite)
    expect(friend).to_have_url(invite)
    expect(friend.get_by_role("heading", level=1)).to_have_text(
        "hostess invites you to play Babanuki"
    )
    expect(friend.locator("main")).to_contain_text("1 of 4 seats taken")
    expect(friend.locator("main")).to_contain_text("3 rounds, scored by finishing place")
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("(empty)")
    assert serious(friend) == []
    # A name that does not fit is refused beside the field, and nothing changes.
    friend.get_by_label("Your name at the table").fill("x" * 31)
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend.locator(".errorlist")).to_contain_text("at most 30 characters")
    expect(friend.get_by_label("Your name at the table")).to_have_attribute("aria-invalid", "true")
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("(empty)")
    friend.get_by_label("Your name at the table").fill("  Mia  ")
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend).to_have_url(f"{site}/r/{code}/")
    expect(friend.locator('[data-seat="1"] .name')).to_contain_text("Mia")
    expect(friend.locator('[data-seat="0"] .name')).to_contain_text("hostess")

    # The host sees the friend's seat appear without reloading; so does the lobby.
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("Mia")
    expect(row).to_contain_text("2/4")
    expect(host.get_by_role("button", name="Remove Mia")).to_be_visible()

    # Another signs up from the invitation, comes back to it and sits down as themselves.
    other = new_page()
    join_by_invitation(other, site, invite, "sami", sign_up_first=True)
    expect(other).to_have_url(f"{site}/r/{code}/")
    expect(other.locator('[data-seat="2"] .name')).to_contain_text("sami")
    expect(host.locator('[data-seat="2"] .name')).to_contain_text("sami")
    expect(row).to_contain_text("3/4")
    shot(host, "room-friend-joined")

    # The host starts, filling the last seat with the computer; the room leaves the lobby.
    host.get_by_role("button", name="Fill empty seats with the computer and start").click()
    expect(host.locator("#room-status")).to_have_text("Playing")
    expect(friend.locator("#room-status")).to_have_text("Playing")
    expect(friend.locator('[data-seat="3"] .name')).to_contain_text(
        re.compile("computer", re.IGNORECASE)
    )
    expect(row).to_have_count(0)

    # The link to watch stays once play starts (below the table), and it watches.
    expect(host.locator("#watch-section")).to_be_visible()
    watcher = new_page()
    watcher.goto(watch)
    expect(watcher.locator("#room-status")).to_have_text("Playing")
    expect(watcher.locator('[data-seat="1"] .name')).to_contain_text("Mia")


def test_a_guest_hosts_friends_plays_to_the_end_and_keeps_the_game_on_signing_up(site, new_page):
    host, friend = new_page(hurried=True), new_page(hurried=True)
    host.goto(f"{site}/new/")
    host.get_by_label("Old Maid", exact=True).check()
    host.get_by_label("With friends (send a link)").check()
    host.get_by_label("Players").select_option("2")
    host.locator("select[name=strike_limit]").select_option("1")
    host.get_by_label("Your name at the table").fill("Ann")
    host.get_by_role("button", name="Create the game").click()
    expect(host).to_have_url(re.compile(r"/r/[A-Z0-9]+/$"))
    code = host.url.rstrip("/").split("/")[-1]
    invite = host.get_by_label("Invitation link").input_value()

    friend.goto(invite)
    expect(friend.get_by_role("heading", level=1)).to_have_text("Ann invites you to play Old Maid")
    join_by_invitation(friend, site, invite, "Mia")
    expect(host.locator('[data-seat="1"] .name')).to_contain_text("Mia")
    host.locator("button[name=fill][value='0']").click()  # start, no computer needed
    play_together(host, friend)

    # The host signs up, and the profile lists the game played as a guest.
    sign_up(host, site, "ann-at-last")
    host.goto(f"{site}/accounts/profile/")
    expect(host.locator(f"a[href='/r/{code}/']").first).to_be_visible()
