import re
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Bot, Room
from games.realtime import streams
from games.services import bots
from tests.lobby.conftest import logged_in

pytestmark = pytest.mark.django_db


def test_lobby_lists_listed_waiting_rooms_only(client, make_friends_room, host):
    actor = services.Actor(user_id=host.pk)
    listed = make_friends_room(listed=True)
    private = make_friends_room(listed=False)
    playing = make_friends_room(listed=True)
    services.start_match(room_id=playing.pk, actor=actor, fill_with_computers=True)
    finished = make_friends_room(seats=2, listed=True)
    services.start_match(room_id=finished.pk, actor=actor, fill_with_computers=True)
    services.resign(room_id=finished.pk, actor=actor)
    statuses = Room.objects.filter(pk__in=[playing.pk, finished.pk]).order_by("pk")
    assert [room.status for room in statuses] == [Room.Status.PLAYING, Room.Status.FINISHED]
    text = client.get("/").content.decode()
    assert listed.code in text
    assert not [room.code for room in (private, playing, finished) if room.code in text]
    assert "1/3" in text and "hana" in text


def test_started_rooms_leave_the_lobby(client, make_friends_room, host):
    room = make_friends_room(listed=True)
    services.start_match(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    assert room.code not in client.get("/").content.decode()


def test_my_active_rooms_have_a_rejoin_link(client, make_friends_room, host):
    room = make_friends_room()
    text = logged_in(client, host).get("/").content.decode()
    assert f"/r/{room.code}/" in text and "Rejoin" in text


def test_empty_lobby_says_so(client):
    assert "No open rooms right now" in client.get("/").content.decode()


def test_rules_page_has_one_privacy_section_and_a_plain_title(client):
    text = client.get("/rules/").content.decode()
    assert text.count('id="privacy"') == 1
    title = text.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title and "Rules and help" in title


# -- the bots online ------------------------------------------------------------------------


def listed_bots(page: str) -> list[str]:
    """The names in the home page's list of bots online."""
    found = re.search(r'<ul class="room-list bot-list">(.*?)</ul>', page, re.S)
    return re.findall(r'<a href="/bots/([^/"]+)/">', found.group(1)) if found else []


def test_the_home_page_lists_exactly_the_bots_whose_stream_is_open(client, make_account):
    owner = make_account("ann")
    made = {
        name: bots.create_bot(owner_id=owner.pk, name=name)[0].pk
        for name in ("Open", "Closed", "Lapsed", "Revoked", "Never")
    }
    streams.claim(made["Open"])
    streams.release(made["Closed"], streams.claim(made["Closed"]))
    streams.claim(made["Lapsed"])  # then its keep-alives stopped: its hold ran out
    Bot.objects.filter(pk=made["Lapsed"]).update(online_until=timezone.now() - timedelta(1))
    streams.claim(made["Revoked"])
    bots.revoke_token(owner_id=owner.pk, bot_id=made["Revoked"])
    assert listed_bots(client.get("/").content.decode()) == ["Open"]
    assert streams.claim(made["Open"]) is None, "one stream at a time"
    assert streams.claim(made["Lapsed"]) is not None, "a lapsed hold is free for a new stream"
    assert listed_bots(client.get("/").content.decode()) == ["Lapsed", "Open"]


def add_bots(owner, first: int, count: int) -> None:
    """``count`` bots with a token and no stream open, at bulk speed."""
    users = get_user_model().objects.bulk_create(
        [
            get_user_model()(username=f"bulk{i:06}", password="!")
            for i in range(first, first + count)
        ],
        batch_size=5000,
    )
    Bot.objects.bulk_create(
        [Bot(user=u, owner=owner, token_hash=f"{u.pk:064x}") for u in users], batch_size=5000
    )


def home_page(client) -> tuple[str, list, float]:
    """``GET /``: the page, the statements it ran (SQL and parameters), how long it took."""
    statements = []

    def record(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    started = time.perf_counter()
    with connection.execute_wrapper(record):
        page = client.get("/").content.decode()
    return page, statements, time.perf_counter() - started


def test_the_home_page_reads_the_bots_online_alike_with_10_and_20000_bots(client, make_account):
    owner = make_account("ann")
    online = [bots.create_bot(owner_id=owner.pk, name=f"Online{i}")[0] for i in range(3)]
    held = {bot.pk: streams.claim(bot.pk) for bot in online}
    assert all(held.values())
    add_bots(owner, 0, 7)
    home_page(client)  # the templates loaded: both figures below are of a warm process
    few_page, few, few_took = home_page(client)
    add_bots(owner, 7, 19_993)
    # The streams' keep-alives, which adding 20,000 bots on a loaded machine can outlast.
    assert all(streams.refresh(bot_id, stream) for bot_id, stream in held.items())
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # the tables' statistics, as autovacuum keeps them
            cursor.execute(f'ANALYZE "{Bot._meta.db_table}", "{owner._meta.db_table}"')
    many_page, many, many_took = home_page(client)
    print(f"GET / with 10 bots: {few_took * 1000:.0f} ms; with 20,000: {many_took * 1000:.0f} ms")

    assert listed_bots(few_page) == listed_bots(many_page) == ["Online0", "Online1", "Online2"]
    assert len(few) == len(many)
    reads = [(sql, params) for sql, params in many if f'FROM "{Bot._meta.db_table}"' in sql]
    assert len(reads) == 1, reads
    sql, params = reads[0]
    assert re.search(r"\bLIMIT\b", sql), f"the bots online are read without a bound: {sql}"
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "online_until" in plan and "Seq Scan on games_bot" not in plan, plan
