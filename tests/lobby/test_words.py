"""Names and counted words: computer seats named apart in every language, plural forms
in Python and in the pages, and the words the table's scripts take from the page."""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import ngettext

from config.asgi import application
from games import selectors
from games.labels import COMPUTER_NAMES, computer_first_name, computer_name, computer_what
from tests.rooms import computer_room, friends_room

LANGUAGES = ["en", "ja", "zh-hans"]


# Computer names.


@pytest.mark.parametrize("language", LANGUAGES)
def test_computer_names_differ_by_seat_and_level_in_every_language(language):
    with translation.override(language):
        names = {
            level: [computer_name(seat, level) for seat in range(8)]
            for level in ("easy", "medium", "hard")
        }
        computer = str(translation.gettext("Computer"))
    everything = [n for level in names.values() for n in level]
    assert len(set(everything)) == 24  # no two seats, no two levels alike
    for name in everything:
        assert computer.lower() in name.lower()  # says in words it is the computer
        assert not name.startswith(computer)  # ... yet is a name of its own
    if language != "en":
        with translation.override("en"):
            english = [computer_name(seat, "easy") for seat in range(8)]
        assert not set(english) & set(names["easy"])  # translated, not English
        assert not re.search(r"[A-Za-z]", "".join(names["easy"]))


def test_computer_names_in_each_language():
    expected = {
        "en": "Bruno (computer, easy)",
        "ja": "タロウ（コンピューター・やさしい）",
        "zh-hans": "阿明（电脑·简单）",
    }
    for language, name in expected.items():
        with translation.override(language):
            assert computer_name(1, "easy") == name


@pytest.mark.django_db
def test_each_computer_seat_has_a_short_name_and_a_second_line(make_account):
    room = computer_room(make_account("rei"), seats=3, computer_level="hard", rounds=1)
    seats = list(room.seats.all())
    assert [s.display_name for s in seats] == [
        "rei",
        "Bruno (computer, hard)",
        "Clara (computer, hard)",
    ]
    # What the pages show (tests/lobby/test_seat_names.py): a name, and what it is.
    assert [(s.short_name, s.what) for s in seats] == [
        ("rei", ""),
        ("Bruno", "computer · hard"),
        ("Clara", "computer · hard"),
    ]
    with translation.override("ja"):
        assert [(s.short_name, s.what) for s in seats[1:]] == [
            ("タロウ", "コンピューター・むずかしい"),
            ("ユキ", "コンピューター・むずかしい"),
        ]


@pytest.mark.django_db
def test_the_replay_names_computer_seats(client):
    from tests.lobby.replays import finished_round

    _room, rnd = finished_round("old_maid", 3)
    text = client.get(f"/replay/{rnd.replay_id}/").content.decode()
    data = json.loads(re.search(r'id="replay-data"[^>]*>(.*?)</script>', text, re.S).group(1))
    # One short name per seat, as on the table; the page adds "computer · medium".
    assert [(s["name"], s["kind"]) for s in data["seats"][1:]] == [
        ("Bruno", "computer"),
        ("Clara", "computer"),
    ]
    assert data["level"] == "medium"


# The words the table's scripts read.


def seat_labels(language) -> dict:
    with translation.override(language):
        html = render_to_string("lobby/_seat_labels.html")
    assert 'id="seat-labels"' in html
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', html))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_gets_every_computer_name_and_level_word(language):
    labels = seat_labels(language)
    names = labels["computer-names"].split("|")
    assert len(names) == len(COMPUTER_NAMES) == 8 and len(set(names)) == 8
    what = labels["computer-what"]
    assert "{level}" in what and "computer-format" not in labels
    # The script's name and second line are the server's.
    with translation.override(language):
        for seat in (1, 5):
            assert names[seat] == computer_first_name(seat)
        for level in ("easy", "medium", "hard"):
            built = what.replace("{level}", labels[f"computer-level-{level}"])
            assert built == computer_what(level)


@pytest.mark.parametrize(
    ("language", "one", "other"),
    [
        ("en", "{n} card", "{n} cards"),
        ("ja", "{n}枚", "{n}枚"),
        ("zh-hans", "{n} 张牌", "{n} 张牌"),
    ],
)
def test_the_table_gets_a_singular_and_a_plural_for_each_count(language, one, other):
    labels = seat_labels(language)
    assert labels["cards-one"] == one and labels["cards-other"] == other
    for key in ("your-turn", "points", "strikes", "spectators"):
        assert "{n}" in labels[f"{key}-one"] and "{n}" in labels[f"{key}-other"]
    if language == "en":
        assert labels["strikes-one"] == "{n} strike" and labels["strikes-other"] == "{n} strikes"


# Plural forms in Python and in the pages.

PLURALS = [
    ("Messages are at most %(bytes)s byte.", "Messages are at most %(bytes)s bytes."),
    ("Unexpected field: %(fields)s.", "Unexpected fields: %(fields)s."),
    (
        "%(game)s is played by %(low)s to %(high)s player.",
        "%(game)s is played by %(low)s to %(high)s players.",
    ),
    (
        "Events are kept for %(days)s day: choose days from %(first)s to %(last)s.",
        "Events are kept for %(days)s days: choose days from %(first)s to %(last)s.",
    ),
    ("A name is at most %(max)s character long.", "A name is at most %(max)s characters long."),
]


@pytest.mark.parametrize(("singular", "plural"), PLURALS)
def test_python_counts_have_plural_forms_in_every_language(singular, plural):
    with translation.override("en"):
        assert ngettext(singular, plural, 1) == singular
        assert ngettext(singular, plural, 2) == plural
    for language in ("ja", "zh-hans"):
        with translation.override(language):
            one, two = ngettext(singular, plural, 1), ngettext(singular, plural, 2)
        assert one == two != singular  # one form, translated


@pytest.mark.django_db
def test_an_unexpected_field_is_named_in_the_singular(client):
    from games.errors import ActionError
    from games.realtime.frames import parse_action

    with pytest.raises(ActionError) as caught:
        parse_action('{"type": "sync", "extra": 1}', None)
    assert caught.value.message == "Unexpected field: extra."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "limit", "text"),
    [
        ("en", 1, "Each round's loser takes a strike; 1 strike loses the match"),
        ("en", 3, "Each round's loser takes a strike; 3 strikes lose the match"),
        ("ja", 1, "各ラウンドの負けた人に負け1つ。負けが1つになるとマッチの負けです"),
        ("ja", 3, "各ラウンドの負けた人に負け1つ。負けが3つになるとマッチの負けです"),
        ("zh-hans", 1, "每局的输家记一次失败；先累计 1 次失败的人输掉整场比赛"),
        ("zh-hans", 3, "每局的输家记一次失败；先累计 3 次失败的人输掉整场比赛"),
    ],
)
def test_the_invitation_counts_strikes_in_the_readers_language(client, host, language, limit, text):
    page = invitation(client, host, language, variant="old_maid", strike_limit=limit)
    assert text in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "1 of 2 seats taken"),
        ("ja", "2席中1席が埋まっています"),
        ("zh-hans", "2 个座位中已有 1 个有人"),
    ],
)
def test_the_invitation_counts_seats_in_the_readers_language(client, host, language, text):
    page = invitation(client, host, language, variant="babanuki", rounds=3)
    assert text in page
    if language == "en":
        assert "3 rounds, scored by finishing place" in page


def invitation(client, host, language: str, **rules) -> str:
    """The invitation page of a new two-seat friends room of ``host``'s, in ``language``."""
    room = friends_room(host, **rules)
    return client.get(f"/join/{room.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


# The lobby's live list.


@pytest.mark.django_db
def test_the_lobby_list_is_language_neutral_and_each_page_names_the_games(client, host):
    friends_room(host, variant="schwarzer_peter", seats=3, listed=True)
    with translation.override("ja"):
        in_japanese = selectors.lobby_rooms()
    with translation.override("en"):
        in_english = selectors.lobby_rooms()
    assert in_japanese == in_english
    assert in_english[0]["variant"] == "schwarzer_peter" and "variant_name" not in in_english[0]
    for language, name in [("en", "Schwarzer Peter"), ("ja", "シュヴァルツァー・ペーター")]:
        page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        row = page.split('<tbody id="lobby-rooms"', 1)[1].split("</tbody>", 1)[0]
        assert f"<td>{name}</td>" in row
        # The live list's script names the games from the page's own words.
        labels = page.split('id="lobby-labels"', 1)[1].split("</template>", 1)[0]
        assert f'data-variant-schwarzer-peter="{name}"' in labels


async def lobby_socket(language):
    socket = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"accept-language", language.encode()),
        ],
    )
    assert (await socket.connect(timeout=30))[0]
    return socket


async def next_message(socket) -> dict:
    return json.loads(await socket.receive_from(timeout=5))


@pytest.mark.django_db(transaction=True)
async def test_lobby_sockets_get_the_same_words_whatever_the_senders_language(make_account):
    """Once, the list reached every socket in the language of whoever changed a room."""
    host = await database_sync_to_async(make_account)("kai")
    english, japanese = await lobby_socket("en"), await lobby_socket("ja")
    assert (await next_message(english))["rooms"] == (await next_message(japanese))["rooms"] == []

    def open_room_in_japanese():
        with translation.override("ja"):
            return friends_room(host, seats=3, listed=True)

    room = await database_sync_to_async(open_room_in_japanese)()
    for_english, for_japanese = await next_message(english), await next_message(japanese)
    assert for_english == for_japanese
    (listed,) = for_english["rooms"]
    assert listed["code"] == room.code and listed["variant"] == "babanuki"
    text = json.dumps(for_english, ensure_ascii=False)
    assert "ババ抜き" not in text and "Babanuki" not in text
    await english.disconnect()
    await japanese.disconnect()
