"""A snapshot is one moment of the room: a draw that commits while it is being read does
not give it one version's number with the next version's cards."""

import threading

import pytest
from django.db import connection

from games import selectors, services
from games.models import Room
from games.selectors import sockets
from tests.rooms import friends_room

pytestmark = pytest.mark.django_db(transaction=True)

needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite serialises whole transactions; read committed is PostgreSQL's question",
)


def playing_room() -> tuple[Room, list[services.Actor]]:
    actors = [services.Actor(guest="g-ann"), services.Actor(guest="g-bob")]
    room = friends_room(actors[0], {"Bob": actors[1]}, name="Ann", start=True)
    return room, actors


@needs_postgresql
def test_a_draw_committed_between_the_snapshots_reads_is_not_in_it(monkeypatch):
    room, actors = playing_room()
    before = selectors.snapshot(room.pk)
    drawer = actors[before["round"]["state"]["drawer"]]
    load = sockets.load

    def load_after_a_draw(*args, **kwargs):
        # Between the room's row and its rounds, another connection commits a draw.
        writer = threading.Thread(
            target=lambda: (
                services.draw(room_id=room.pk, actor=drawer, position=0),
                connection.close(),
            )
        )
        writer.start()
        writer.join()
        return load(*args, **kwargs)

    monkeypatch.setattr(sockets, "load", load_after_a_draw)
    during = selectors.snapshot(room.pk)
    monkeypatch.setattr(sockets, "load", load)
    assert during["version"] == before["version"]
    assert during["round"] == before["round"]
    after = selectors.snapshot(room.pk)
    assert after["version"] == before["version"] + 1
    assert after["round"] != before["round"]
