"""The profile's record, hand-counted: per game, matches played, won and lost with a
rounded win rate, rounds played and times left holding the odd card, places in words
for points games; the match list with dates in the reader's language, the game and the
result in words, and a link to the room."""

import re

import pytest
from django.utils import timezone, translation

from games import selectors
from games.models import Match, Room, Seat
from lobby.profile import places_text, win_rate
from tests.lobby.records import record, room_for

pytestmark = pytest.mark.django_db


def figure(value, label):
    return f'<span class="value">{value}</span> <span class="label">{label}</span>'


def test_a_hand_counted_record(make_account, client):
    me = make_account("counted")
    # Babanuki, seat 0, three seats: two matches of three rounds and one still playing.
    a = room_for(me)
    record(a, [([0, 1, 2], 2), ([1, 0, 2], 2), ([0, 2, 1], 1)], winners=[0])
    b = room_for(me)
    record(b, [([2, 1, 0], 0), ([1, 2, 0], 0), ([0, 1, 2], 2)], winners=[1])
    c = room_for(me)
    record(c, [([0, 2, 1], 1)], finished=False)
    # Old Maid, strikes: won once, lost twice; places are not kept.
    for winners in ([0, 1], [1], [1]):
        d = room_for(me, variant="old_maid", seats=2)
        record(d, [(None, 1 if 0 in winners else 0)], winners=winners)
    # One device: listed, not counted.
    e = room_for(me, mode=Room.Mode.SAME_DEVICE)
    record(e, [([0, 1, 2], 2)], winners=[0])

    stats = selectors.player_stats(me.pk)
    baba = stats["by_variant"]["babanuki"]
    assert (baba["matches"], baba["won"], baba["lost"]) == (2, 1, 1)
    assert baba["rounds"] == 7 and baba["held_odd"] == 2  # b's rounds 1 and 2
    assert baba["places"] == {1: 4, 2: 1, 3: 2}
    maid = stats["by_variant"]["old_maid"]
    assert (maid["matches"], maid["won"], maid["lost"], maid["held_odd"]) == (3, 1, 2, 2)
    assert maid["places"] == {}
    outcomes = [m["outcome"] for m in stats["matches"]]
    # Nobody is at c's table: it is unfinished, not in progress (test_profile_unfinished).
    assert sorted(outcomes) == sorted(
        ["won", "lost", "unfinished", "won", "lost", "lost", "shared"]
    )

    client.force_login(me)
    page = client.get("/accounts/profile/").content.decode()
    baba_card = page.split('id="record-babanuki"')[1].split("</section>")[0]
    assert figure("50\xa0%", "Win rate") in baba_card
    assert figure("2", "Times left holding the odd card") in baba_card
    assert "<li>1st: 4 times</li><li>2nd: 1 time</li><li>3rd: 2 times</li>" in baba_card
    maid_card = page.split('id="record-old_maid"')[1].split("</section>")[0]
    assert figure("33.3\xa0%", "Win rate") in maid_card
    assert "Places" not in maid_card  # loser-only games keep no places
    assert "Places (1st, 2nd" not in page and "1: 1" not in page
    rows = re.findall(r'<li class="outcome-(\w+)">(.*?)</li>', page, re.S)
    assert len(rows) == 7
    first_won = next(row for outcome, row in rows if outcome == "won")
    assert ">Nov. 30, 2026</time>" in first_won and ">Won</span>" in first_won
    assert re.search(r"<span>(Babanuki|Old Maid)</span>", first_won)
    assert "3 rounds finished" in page and "1 round finished" in page
    assert f'href="/r/{a.code}/"' in page and f"Room {a.code}, match 1" in page
    assert ">Played on one device<" in page and ">Unfinished<" in page


@pytest.mark.parametrize(
    ("language", "date", "places", "rate"),
    [
        ("ja", "2026年11月30日", ["1位：2回", "2位：1回"], "66.7%"),
        ("zh-hans", "2026年11月30日", ["第1名：2次", "第2名：1次"], "66.7%"),
    ],
)
def test_the_record_reads_in_japanese_and_chinese(
    make_account, client, language, date, places, rate
):
    me = make_account("yomu")
    for winners in ([0], [0], [1]):
        room = room_for(me, seats=2, rounds=1)
        record(room, [([0, 1] if 0 in winners else [1, 0], 1 if 0 in winners else 0)], winners)
    client.force_login(me)
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert date in page
    for line in places:
        assert f"<li>{line}</li>" in page
    assert f'<span class="value">{rate}</span>' in page
    assert "Won" not in page and "Babanuki" not in page


@translation.override("en")
def test_win_rates_are_rounded_to_one_decimal_at_most():
    assert [win_rate(x) for x in (2 / 3, 1 / 2, 7 / 9, 1 / 8, 1.0, 0.0, None)] == [
        "66.7\xa0%",
        "50\xa0%",
        "77.8\xa0%",
        "12.5\xa0%",
        "100\xa0%",
        "0\xa0%",
        "–",
    ]


@translation.override("en")
def test_places_use_ordinals_and_plural_forms():
    assert places_text({1: 1, 2: 2, 3: 1, 8: 5}) == [
        "1st: 1 time",
        "2nd: 2 times",
        "3rd: 1 time",
        "8th: 5 times",
    ]


def test_a_left_match_is_listed_not_counted(make_account):
    me = make_account("leaver")
    room = room_for(me, seats=3)
    record(room, [([1, 0, 2], 2)], winners=[0])  # the computer won for the seat
    Seat.objects.filter(room=room, index=0).update(left=True)
    stats = selectors.player_stats(me.pk)
    assert stats["by_variant"]["babanuki"]["matches"] == 0
    assert [m["outcome"] for m in stats["matches"]] == ["left"]


def test_an_abandoned_match_is_listed_not_counted(make_account):
    me = make_account("quitter")
    room = room_for(me, seats=2, rounds=1)
    record(room, [], how="abandoned")
    stats = selectors.player_stats(me.pk)
    assert stats["by_variant"]["babanuki"]["matches"] == 0
    assert stats["matches"][0]["outcome"] == "abandoned"
    assert Match.objects.get().finished_at is not None
    assert timezone.is_aware(stats["matches"][0]["date"])
