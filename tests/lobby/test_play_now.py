"""Play now from the lobby: the form, a public table's page and its start, opted-in bots
before the computer, leaving while waiting, and the lobby's live counts. (Many people
pressing at once, over one or two processes, and the limits: tests/system/test_play_now.py.)"""

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games import schedule, selectors, services
from games.models import Bot, Room, Seat
from games.services import bots
from tests.lobby.conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_factory():
    """A new browser each call (its own session: a guest of its own)."""
    from django.test import Client

    return Client


def press(client, **form):
    return client.post("/play-now/", {"variant": "babanuki", "seat_count": "4", **form})


def table_of(response) -> Room:
    assert response.status_code == 302, response.content.decode()[-2000:]
    return Room.objects.get(code=response["Location"].split("/")[2])


def test_the_home_page_offers_babanuki_for_four_and_asks_a_guest_for_a_name(client):
    page = client.get("/").content.decode()
    assert 'action="/play-now/"' in page
    assert '<option value="babanuki" selected>' in page
    assert '<option value="4" selected>' in page
    assert 'name="name"' in page


def test_a_signed_in_player_sits_down_under_their_username(client, make_account):
    user = make_account("maya")
    logged_in(client, user)
    assert 'name="name"' not in client.get("/").content.decode()
    table = table_of(press(client))
    (seat,) = [s for s in table.seats.all() if not s.is_empty]
    assert (seat.user_id, seat.name) == (user.pk, "maya")
    assert table.public and not table.listed and table.host_id is None


def test_a_guest_without_a_name_is_asked_for_one_and_nothing_changes(client):
    response = press(client, name="  ")
    assert response.status_code == 400
    assert "Type a name." in response.content.decode()
    assert not Room.objects.exists()


def test_a_size_the_game_is_not_played_at_is_refused_with_the_games_sizes(client):
    response = press(client, variant="jijinuki", seat_count="2", name="Ann")
    assert response.status_code == 400
    assert "Jiji-nuki is played by 3 to 8 players." in response.content.decode()
    assert not Room.objects.exists()


def test_a_guests_name_is_kept_for_their_next_press(client):
    table = table_of(press(client, name="Robin"))
    assert 'value="Robin"' in client.get("/").content.decode()
    assert table.seats.get(index=0).name == "Robin"


def test_strangers_with_one_name_are_told_apart_at_the_table(client_factory):
    codes = {table_of(press(client_factory(), name="Ann")).code for _ in range(3)}
    (code,) = codes
    names = [s.name for s in Room.objects.get(code=code).seats.all() if not s.is_empty]
    assert names == ["Ann", "Ann 2", "Ann 3"]


def test_a_waiting_public_table_counts_down_on_its_page_and_anyone_may_watch(
    client, client_factory
):
    table = table_of(press(client, name="Ann"))
    page = client.get(f"/r/{table.code}/").content.decode()
    assert 'id="public-wait"' in page and 'id="starts-in"' in page
    assert f'data-starts-at="{round(table.starts_at.timestamp() * 1000)}"' in page
    assert "Leave this table" in page and "Invite friends" not in page
    watcher = client_factory().get(f"/r/{table.code}/")
    assert watcher.status_code == 200 and "Leave this table" not in watcher.content.decode()


def test_the_driver_starts_a_table_at_its_time_with_an_opted_in_bot_then_the_computer(
    client, make_account
):
    owner = make_account("owner")
    bot, _ = bots.create_bot(owner_id=owner.pk, name="Sharp")
    shy, _ = bots.create_bot(owner_id=owner.pk, name="Shy")
    for b in (bot, shy):
        bots.claim_stream(b.pk, 60)
    bots.play_public(owner_id=owner.pk, bot_id=bot.pk, on=True)
    table = table_of(press(client, name="Ann"))
    Seat.objects.filter(room=table).update(away_since=None)  # Ann's page is connected
    state = selectors.snapshot(table.pk)
    due = schedule.next_due(state)
    assert (due.kind, due.at) == ("start_table", table.starts_at.timestamp())
    # Not before its time.
    assert services.start_table(room_id=table.pk, version=state["version"]) is None
    Room.objects.filter(pk=table.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    started = services.start_table(room_id=table.pk, version=state["version"])
    assert started["room"]["status"] == "playing" and started["room"]["starts_at"] is None
    kinds = [(s["name"], s["kind"], s["bot"]) for s in started["seats"]]
    assert kinds == [
        ("Ann", "human", False),
        ("Sharp", "human", True),
        ("", "computer", False),
        ("", "computer", False),
    ]


def test_a_seat_whose_page_never_connects_is_given_back_after_its_grace(client, settings):
    settings.PLAY_NOW_AWAY_SECONDS = 8
    table = table_of(press(client, name="Ann"))
    seat = table.seats.get(index=0)
    state = selectors.snapshot(table.pk)
    due = schedule.next_due(state)
    assert (due.kind, due.seat, due.at) == ("free_seat", 0, seat.away_since.timestamp() + 8)
    assert services.free_waiting_seat(room_id=table.pk, seat_index=0, version=due.version) is None
    Seat.objects.filter(pk=seat.pk).update(away_since=timezone.now() - timedelta(seconds=8))
    freed = services.free_waiting_seat(room_id=table.pk, seat_index=0, version=due.version)
    assert freed["seats"][0]["kind"] == "empty" and freed["room"]["starts_at"] is None
    assert freed["event"] == {"kind": "seat_freed", "seat": 0}
    assert schedule.next_due(freed) is None


def test_a_bot_at_one_public_table_is_not_seated_at_another(client_factory, make_account):
    owner = make_account("owner")
    bot, _ = bots.create_bot(owner_id=owner.pk, name="Sharp")
    bots.claim_stream(bot.pk, 60)
    bots.play_public(owner_id=owner.pk, bot_id=bot.pk, on=True)
    seated = []
    for variant in ("babanuki", "old_maid"):
        table = table_of(press(client_factory(), variant=variant, name="Ann"))
        Room.objects.filter(pk=table.pk).update(starts_at=timezone.now())
        state = services.start_table(room_id=table.pk, version=table.version)
        seated.append(sum(s["bot"] for s in state["seats"]))
    assert seated == [1, 0]


def test_leaving_a_waiting_table_frees_the_seat_and_stops_its_countdown(client):
    table = table_of(press(client, name="Ann"))
    response = client.post(f"/r/{table.code}/leave/")
    assert (response.status_code, response["Location"]) == (302, "/")
    table.refresh_from_db()
    assert table.starts_at is None and all(s.is_empty for s in table.seats.all())
    assert schedule.next_due(selectors.snapshot(table.pk)) is None
    # Leaving again: nothing to leave, said so.
    again = client.post(f"/r/{table.code}/leave/", follow=True)
    assert "You are not waiting at this table." in again.content.decode()


def test_an_owner_opts_a_bot_in_and_out_of_public_tables(client, make_account):
    owner = make_account("owner")
    bot, _ = bots.create_bot(owner_id=owner.pk, name="Sharp")
    logged_in(client, owner)
    page = client.post(f"/accounts/profile/bots/{bot.pk}/public/", {"on": "1"}, follow=True)
    assert "Sharp now takes empty seats at public tables while it is online." in (
        page.content.decode()
    )
    assert Bot.objects.get(pk=bot.pk).plays_public
    client.post(f"/accounts/profile/bots/{bot.pk}/public/", {"on": "0"})
    assert not Bot.objects.get(pk=bot.pk).plays_public
    # Someone else's bot: refused, unchanged.
    logged_in(client, make_account("other"))
    client.post(f"/accounts/profile/bots/{bot.pk}/public/", {"on": "1"})
    assert not Bot.objects.get(pk=bot.pk).plays_public


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_counts_the_people_waiting_and_lists_tables_in_play(
    client_factory,
):
    socket = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")],
    )
    assert (await socket.connect(timeout=30))[0]
    first = json.loads(await socket.receive_from(timeout=30))
    assert (first["waiting"], first["tables"]) == ([], [])

    async def next_frame():
        return json.loads(await socket.receive_from(timeout=30))

    post = database_sync_to_async(
        lambda: table_of(press(client_factory(), seat_count="2", name="A"))
    )
    await post()
    assert (await next_frame())["waiting"] == [{"variant": "babanuki", "seats": 2, "waiting": 1}]
    table = await post()  # the second seat: the table starts at once
    frame = await next_frame()
    assert frame["waiting"] == []
    assert frame["tables"] == [{"code": table.code, "variant": "babanuki", "seats": 2, "people": 2}]
    await socket.disconnect()
