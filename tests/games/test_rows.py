"""Every hand-written statement (``games.rows``, ``games.services.sql``) against the ORM's
own answer, on whichever database the suite runs: SQLite under ``make test``, PostgreSQL
in CI (``.ci/run``)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import rows, services
from games.engine.view import view_for
from games.models import Draw, Match, Presence, Room, Round, Seat, Watcher
from games.services import sql
from games.state import load, room_state
from tests.rooms import friends_room
from tests.support import ply

pytestmark = pytest.mark.django_db(transaction=True)


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def played_room(tag: str = "") -> Room:
    """A friends room two rounds into a match, with draws, a presence and a watcher."""
    host, friend = services.Actor(guest=f"host{tag}"), services.Actor(guest=f"friend{tag}")
    room = friends_room(host, {"friend": friend}, seats=3, rounds=3, start=True, fill=True)
    actors = {0: host, 1: friend}
    for _ in range(400):
        room = Room.objects.get(pk=room.pk)
        state = room_state(room, load(room))
        view = view_for(state)
        if view["round"]["number"] == 2 and view["round"]["draws"] >= 3:
            break
        if view["round"]["over"]:
            services.next_round(room_id=room.pk, actor=host, at=ply(view, "next_round"))
            continue
        drawer = view["round"]["drawer"]
        if drawer in actors:
            services.draw(room_id=room.pk, actor=actors[drawer], position=0, at=ply(view, "draw"))
        else:
            services.computer_turn(room_id=room.pk, version=view["version"])
    seat, now = Seat.objects.get(room=room, index=0), timezone.now()
    Presence.objects.create(seat=seat, channel_name=f"seat-socket{tag}", last_seen=now)
    Watcher.objects.create(room=room, channel_name=f"watcher-socket{tag}", last_seen=now)
    Watcher.objects.create(
        room=room, channel_name=f"stale-watcher{tag}", last_seen=now - timedelta(hours=1)
    )
    return Room.objects.get(pk=room.pk)


def test_the_reads_match_the_orm():
    room = played_room()
    orm_seats = list(Seat.objects.filter(room=room).order_by("index"))
    assert [fields(s) for s in rows.seats(room.pk)] == [fields(s) for s in orm_seats]

    match, rounds = rows.latest_match(room.pk)
    orm_match = Match.objects.filter(room=room).order_by("-number").first()
    assert fields(match) == fields(orm_match)
    orm_rounds = list(Round.objects.filter(match=orm_match).order_by("number"))
    assert [fields(r) for r in rounds] == [fields(r) for r in orm_rounds]
    assert len(rounds) == 2 and all(r.match is match for r in rounds)

    with transaction.atomic():
        locked, seats = sql.lock_room(room.pk)
    assert fields(locked) == fields(room)
    assert locked.spectators_now == 1  # the stale watcher does not count
    assert [fields(s) for s in seats] == [fields(s) for s in orm_seats]
    with transaction.atomic():
        assert sql.lock_room(10**9) == (None, [])


def test_the_writes_match_the_orm():
    room = played_room()
    rnd = Round.objects.filter(match__room=room).order_by("-id").first()
    last = Draw.objects.filter(round=rnd).order_by("-number").first()
    row = Draw(
        round=rnd,
        number=last.number + 1,
        drawer=1,
        giver=0,
        position=2,
        card="QH",
        paired_with="QS",
        finished=[0],
        hand_after=["2C", "KD"],
        by_computer=False,
    )
    with transaction.atomic():
        sql.insert(row)
    assert fields(Draw.objects.get(pk=row.pk)) == fields(row)

    rnd.state = {**rnd.state, "note": "changed"}
    rnd.holder = 2
    with transaction.atomic():
        assert sql.update(rnd, ["state", "holder"]) == 1
    assert fields(Round.objects.get(pk=rnd.pk)) == fields(rnd)

    # A compare-and-swap with riders: all of it, or (a stale version) the riders roll back.
    rider = Draw(**{**fields(row), "id": None, "number": row.number + 1})
    room.version += 1
    with transaction.atomic():
        swap = sql.update_statement(room, ["version"], where={"version": room.version - 1})
        assert sql.execute(swap, riders=[sql.insert_statement(rider)]) == 1
    assert Room.objects.get(pk=room.pk).version == room.version
    assert Draw.objects.filter(round=rnd, number=rider.number).exists()
    stale = Draw(**{**fields(row), "id": None, "number": row.number + 2})
    with pytest.raises(RuntimeError), transaction.atomic():
        swap = sql.update_statement(room, ["version"], where={"version": room.version - 1})
        if sql.execute(swap, riders=[sql.insert_statement(stale)]) != 1:
            raise RuntimeError("stale")  # what Change.commit does: the transaction rolls back
    assert not Draw.objects.filter(round=rnd, number=stale.number).exists()


def test_the_heartbeat_touches_every_socket_and_reads_every_version():
    room = played_room()
    other = played_room("-other")
    moment = timezone.now() + timedelta(minutes=5)
    with transaction.atomic():
        versions, touched = sql.touch(
            ["seat-socket", "watcher-socket", "not-a-socket"], [room.pk, other.pk, 10**9], moment
        )
    assert versions == {room.pk: room.version, other.pk: other.version}
    assert touched == {"seat-socket", "watcher-socket"}
    assert Presence.objects.get(channel_name="seat-socket").last_seen == moment
    assert set(Watcher.objects.filter(last_seen=moment).values_list("channel_name", flat=True)) == {
        "watcher-socket"
    }
