import pytest
from django.contrib.auth import get_user_model

from tests import rooms

PASSWORD = "correct-horse-battery-9"

#: The site's languages, as a reader's Accept-Language names them.
LANGUAGES = ["en", "ja", "zh-hans"]

#: What the lobby's forms say when they refuse, in each language: written out here, not
#: read from the catalogues, so that a missing translation fails.
REFUSED = {
    "invisible": {
        "en": "A name cannot contain invisible characters or control characters.",
        "ja": "名前に見えない文字や制御文字は使えません。",
        "zh-hans": "名字里不能有不可见字符或控制字符。",
    },
    "taken": {
        "en": "Someone at this table is already called",
        "ja": "このテーブルにはもう「",
        "zh-hans": "这张牌桌上已经有人叫",
    },
    "hourly": {
        "en": "You have started 3 games in the last hour, the most there can be.",
        "ja": "この1時間に始めたゲームが3つになり、上限に達しました。",
        "zh-hans": "你在过去一小时里已经开了 3 局游戏，已达上限。",
    },
    "open": {
        "en": "You already have 2 games open. Close one of them before starting another.",
        "ja": "開いているゲームがすでに2つあります。",
        "zh-hans": "你已经有 2 局游戏开着了。",
    },
    "address": {
        "en": "Many games have been started from your network in the last hour.",
        "ja": "この1時間に、お使いのネットワークから多くのゲームが始められました。",
        "zh-hans": "过去一小时里，你所在的网络已经开了很多局游戏。",
    },
}

#: The new-game form for a short game against the computer.
COMPUTER_GAME = {
    "variant": "babanuki",
    "seat_count": 3,
    "mode": "computer",
    "computer_level": "easy",
    "rounds": 1,
    "strike_limit": 3,
}


@pytest.fixture
def make_account(db):
    def make(name, **extra):
        return get_user_model().objects.create_user(username=name, password=PASSWORD, **extra)

    return make


@pytest.fixture
def host(make_account):
    return make_account("hana")


@pytest.fixture
def make_friends_room(host):
    def make(seats=3, listed=False, variant="babanuki"):
        return rooms.friends_room(
            host, seats=seats, listed=listed, variant=variant, **rooms.one_round(variant)
        )

    return make


def logged_in(client, user):
    client.force_login(user)
    return client
