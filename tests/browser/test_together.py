"""In a real browser: two friends at a table see each other play. The giver's page lifts
the card the drawer's hand hovers over and says so politely; a reaction shows as a
bubble at its sender's name tag; an Easy computer's face gives its joker away."""

import re

from playwright.sync_api import expect

from games import selectors
from tests import matrix
from tests.browser.axe import serious
from tests.browser.conftest import SETTLED, in_a_thread, needs_browser, shot, table_page
from tests.rooms import (
    signed_in_easy_room_where_the_computer_gives_the_joker,
    signed_in_friends_room,
)
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

SIZES = matrix.SIZES


def settled_shot(page, name):
    page.wait_for_function(SETTLED)
    shot(page, name)


#: The bubble has come in (its entrance is over): it shows for 4 s only, too short to
#: wait for the whole table to settle on a busy machine.
BUBBLE_IN = (
    "() => [...document.querySelectorAll('.reaction-bubble')]"
    ".some(b => b.getAnimations().every(a => a.playState === 'finished'))"
)


def bubble_shot(page, name):
    page.wait_for_function(BUBBLE_IN)
    shot(page, name)


@matrix.parametrize("locale", "size")
def test_the_giver_sees_the_pointed_card_lifted_and_a_reaction_bubble_at_the_senders_tag(
    site, new_page, locale, size
):
    room, keys, state = in_a_thread(_friends_room_where_the_giver_holds_two_cards)
    drawer_seat, giver_seat = state["drawer"], state["giver"]
    drawer = table_page(new_page, site, keys[drawer_seat], room.code, locale, size)
    giver = table_page(new_page, site, keys[giver_seat], room.code, locale, size)

    # The drawer's hand hovers over the giver's second card: it lifts on the giver's page.
    expect(drawer.locator("#giver-hand .card")).to_have_count(state_count(state, giver_seat))
    drawer.locator("#giver-hand .card").nth(1).hover()
    expect(giver.locator("#my-hand .card").nth(1)).to_have_class(re.compile(r"\bpointed\b"))
    expect(giver.locator("#my-hand .card.pointed")).to_have_count(1)
    if locale == "en-US":
        colour = ["Red", "Green"][drawer_seat]
        expect(giver.locator("#together-live")).to_have_text(
            f"{colour} is pointing at your card 2."
        )
    settled_shot(giver, f"together-giver-watching-{locale}-{size}")

    # Moving away to the next card moves the lift with it.
    drawer.locator("#giver-hand .card").nth(0).hover()
    expect(giver.locator("#my-hand .card.pointed")).to_have_count(1)
    expect(giver.locator("#my-hand .card").nth(0)).to_have_class(re.compile(r"\bpointed\b"))

    # A spectator sees the same card lift in the giver's fan.
    watcher = new_page(locale=locale, viewport=SIZES[size])
    watcher.goto(f"{site}/r/{room.code}/?t={room.token}")
    last = state_count(state, giver_seat) - 1  # a dealt hand may be short: 3 cards, or 2
    # A point is never stored: the spectator sees the ones sent once its table is up.
    fan = watcher.locator(f'[data-fan-seat="{giver_seat}"] .card')
    expect(fan).to_have_count(last + 1)
    drawer.locator("#giver-hand .card").nth(last).hover()
    expect(watcher.locator(f'[data-fan-seat="{giver_seat}"] .card').nth(last)).to_have_class(
        re.compile(r"\bpointed\b")
    )
    expect(giver.locator("#my-hand .card.pointed")).to_have_count(1)
    # The hand leaves the cards: nothing is pointed at; the keyboard's focus points too.
    drawer.locator("#status-line").hover()
    expect(giver.locator("#my-hand .card.pointed")).to_have_count(0)
    drawer.locator("#giver-buttons button").nth(last).focus()
    expect(giver.locator("#my-hand .card").nth(last)).to_have_class(re.compile(r"\bpointed\b"))
    expect(watcher.locator(f'[data-fan-seat="{giver_seat}"] .card.pointed')).to_have_count(1)

    # The giver reacts from the menu at their seat: a bubble at their tag on both pages.
    giver.locator("#react-button").click()
    expect(giver.locator("#react-menu")).to_be_visible()
    giver.locator('#react-menu [data-reaction="oh_no"]').click()
    expect(giver.locator("#react-menu")).to_be_hidden()
    for page in (drawer, giver, watcher):
        bubble = page.locator(f'[data-tag-seat="{giver_seat}"] .reaction-bubble')
        expect(bubble).to_be_visible()
        expect(bubble).to_have_attribute("data-reaction", "oh_no")
    if locale == "en-US":
        expect(drawer.locator(f'[data-tag-seat="{giver_seat}"] .reaction-bubble')).to_contain_text(
            "Oh no!"
        )
    bubble_shot(drawer, f"together-reaction-bubble-{locale}-{size}")
    assert serious(giver) == []


def _friends_room_where_the_giver_holds_two_cards():
    """Two friends at a started table whose giver holds two cards at least (a dealt hand
    may be a single card: the hover on the second card would wait for ever), and the
    round's state."""
    for attempt in range(40):
        room, keys = signed_in_friends_room(2, 2, rounds=1, tag=f"-{attempt}")
        state = selectors.snapshot(room.pk)["round"]["state"]
        if len(state["hands"][state["giver"]]) >= 2:
            return room, keys, state
    raise AssertionError("no deal gave the giver two cards")


def state_count(state, seat):
    return len(state["hands"][seat])


@matrix.parametrize("locale", "size")
def test_an_easy_computers_face_shows_worried_when_its_joker_is_pointed_at(
    site, new_page, locale, size
):
    room, joker, key = in_a_thread(signed_in_easy_room_where_the_computer_gives_the_joker)
    page = table_page(new_page, site, key, room.code, locale, size)
    page.locator("#giver-hand .card").nth(joker).hover()
    bubble = page.locator('[data-tag-seat="1"] .reaction-bubble')
    expect(bubble).to_have_attribute("data-reaction", "worried")
    expect(bubble).to_be_visible()
    bubble_shot(page, f"together-computer-worried-{locale}-{size}")
