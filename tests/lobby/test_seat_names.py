"""Every page names a seat as the table does: its colour chip with a letter, its one short
name ("Clara") and "computer · easy" as text on a second line (read to screen readers
inside a sentence too), never the nested "Clara (computer, easy)": the room page's seats
and rounds played, the invitation, in each language."""

import re

import pytest
from django.test import Client

from games import services
from tests.lobby.conftest import logged_in
from tests.play import play_match_out
from tests.rooms import actor_of, computer_room, friends_room

pytestmark = pytest.mark.django_db

#: Seats 1 and 2 at a hard computer's table, and the nested name no page may show, written
#: out here (not read from the catalogues) so that a missing translation fails.
WORDS = {
    "en": {"names": ("Bruno", "Clara"), "what": "computer · hard", "nested": "(computer, hard)"},
    "ja": {
        "names": ("タロウ", "ユキ"),
        "what": "コンピューター・むずかしい",
        "nested": "（コンピューター・むずかしい）",
    },
    "zh-hans": {"names": ("阿明", "小雪"), "what": "电脑·困难", "nested": "（电脑·困难）"},
}
LETTERS = {"en": ("R", "G", "Y"), "ja": ("赤", "緑", "黄"), "zh-hans": ("红", "绿", "黄")}


def seat_cells(html: str) -> list[dict]:
    """Each seat as the seat_name tag wrote it: colour, letter, name, second line, and
    whether that line is for screen readers only."""
    pattern = re.compile(
        r'<span class="seat-cell (\w+)( inline)?"><span class="seat-chip" aria-hidden="true">'
        r'([^<]*)</span> <span class="seat-words name"><span class="seat-name">([^<]*)</span>'
        r'(?: <span class="seat-what( visually-hidden)?">([^<]*)</span>)?</span></span>'
    )
    return [
        {
            "colour": m[0],
            "inline": bool(m[1]),
            "letter": m[2],
            "name": m[3],
            "what": m[5],
            "hidden": bool(m[4]),
        }
        for m in pattern.findall(html)
    ]


def section(html: str, start: str, end: str) -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


@pytest.fixture
def rei(make_account):
    return make_account("rei")


@pytest.mark.parametrize("language", list(WORDS))
def test_the_room_pages_seats_have_a_short_name_and_a_second_line(client, rei, language):
    room = computer_room(rei, seats=3, computer_level="hard", rounds=1)
    page = logged_in(client, rei).get(f"/r/{room.code}/", HTTP_ACCEPT_LANGUAGE=language)
    html = page.content.decode()
    words = WORDS[language]
    seats = seat_cells(section(html, '<ol id="seats"', "</ol>"))
    assert seats == [
        {
            "colour": colour,
            "inline": False,
            "letter": letter,
            "name": name,
            "what": what,
            "hidden": False,
        }
        for colour, letter, name, what in zip(
            ("red", "green", "yellow"),
            LETTERS[language],
            ("rei", *words["names"]),
            ("", words["what"], words["what"]),
            strict=True,
        )
    ]
    assert words["nested"] not in html


@pytest.mark.parametrize("language", list(WORDS))
def test_rounds_played_name_each_seat_once_with_what_it_is(client, rei, language):
    room = computer_room(rei, seats=3, computer_level="hard", variant="old_maid", strike_limit=1)
    play_match_out(room.pk, {0: actor_of(rei)})
    rnd = room.matches.get().rounds.get()
    logged_in(client, rei)
    html = client.get(f"/r/{room.code}/history/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    words = WORDS[language]
    row = section(html, '<tbody role="rowgroup">', "</tr>")
    dealer, holder = seat_cells(row)
    names = {0: "rei", 1: words["names"][0], 2: words["names"][1]}
    for cell, index in ((dealer, rnd.dealer), (holder, rnd.holder)):
        assert cell["name"] == names[index] and cell["letter"] == LETTERS[language][index]
        # In a table cell there is room: the second line is shown.
        assert cell["what"] == ("" if index == 0 else words["what"]) and not cell["hidden"]
    assert words["nested"] not in html


@pytest.mark.parametrize(
    ("language", "resigned", "won_by"),
    [
        ("en", " resigned · ", "won by "),
        ("ja", "が投了", "勝者："),
        ("zh-hans", "认输", "获胜者："),
    ],
)
def test_a_resignation_names_the_winner_and_says_it_is_the_computer(
    client, rei, language, resigned, won_by
):
    room = computer_room(rei, computer_level="hard", rounds=1)
    services.resign(room_id=room.pk, actor=services.Actor(user_id=rei.pk))
    logged_in(client, rei)
    html = client.get(f"/r/{room.code}/history/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    heading = section(html, "<h3>", "</h3>")
    resigner, winner = seat_cells(heading)
    assert resigner == {
        "colour": "red",
        "inline": True,
        "letter": LETTERS[language][0],
        "name": "rei",
        "what": "",
        "hidden": False,
    }
    # Inside the sentence, "computer · hard" is read to screen readers, not shown.
    assert winner == {
        "colour": "green",
        "inline": True,
        "letter": LETTERS[language][1],
        "name": WORDS[language]["names"][0],
        "what": WORDS[language]["what"],
        "hidden": True,
    }
    assert resigned in heading and won_by in heading
    assert WORDS[language]["nested"] not in html


@pytest.mark.parametrize("language", list(WORDS))
def test_the_invitation_names_its_seats_as_the_table_does(host, language):
    room = friends_room(host, seats=3)
    Client().post(f"/join/{room.token}/", {"name": "Mia"})
    html = Client().get(f"/join/{room.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    seats = seat_cells(section(html, '<ol class="seats"', "</ol>"))
    free = {"en": "free", "ja": "空き", "zh-hans": "空位"}[language]
    assert [(s["letter"], s["name"], s["what"]) for s in seats] == [
        (LETTERS[language][0], host.get_username(), ""),
        (LETTERS[language][1], "Mia", ""),
        (LETTERS[language][2], free, ""),
    ]
    assert '<span class="tag">' not in html  # the old numbered disc is gone
