"""The lobby list updates live as listed rooms open, fill and start."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import services
from tests.rooms import friends_room

pytestmark = pytest.mark.django_db(transaction=True)


async def next_list(socket) -> list[dict]:
    message = json.loads(await socket.receive_from(timeout=30))
    assert message["type"] == "lobby"
    return message["rooms"]


async def lobby_socket():
    """A lobby socket, open, its first (empty) list read."""
    socket = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")],
    )
    assert (await socket.connect(timeout=30))[0]
    assert await next_list(socket) == []
    return socket


async def test_lobby_follows_rooms_opening_filling_and_starting(make_account):
    host = await database_sync_to_async(make_account)("hal")
    guest = await database_sync_to_async(make_account)("gil")
    socket = await lobby_socket()

    room = await database_sync_to_async(friends_room)(
        host, variant="old_maid", seats=3, listed=True
    )
    (listed,) = await next_list(socket)
    assert listed["code"] == room.code and listed["taken"] == 1 and listed["host"] == "hal"

    await database_sync_to_async(services.join_room)(
        room_id=room.pk, actor=services.Actor(user_id=guest.pk), name="gil"
    )
    assert (await next_list(socket))[0]["taken"] == 2

    await database_sync_to_async(services.start_match)(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    assert await next_list(socket) == []

    private = await database_sync_to_async(friends_room)(
        host, variant="old_maid", seats=3, listed=False
    )
    assert private and await socket.receive_nothing(timeout=0.3)
    await socket.send_to(text_data="{}")
    assert json.loads(await socket.receive_from(timeout=30))["code"] == "unknown_action"
    await socket.disconnect()


async def test_a_playing_listed_room_sends_the_lobby_nothing(make_account):
    host = await database_sync_to_async(make_account)("hal")
    actor = services.Actor(user_id=host.pk)
    socket = await lobby_socket()

    def open_room():
        return friends_room(host, variant="old_maid", seats=3, listed=True)

    room = await database_sync_to_async(open_room)()
    assert len(await next_list(socket)) == 1
    await database_sync_to_async(services.start_match)(
        room_id=room.pk, actor=actor, fill_with_computers=True
    )
    assert await next_list(socket) == []  # it left the list
    # Changes of the playing room (the host sits down, a computer draws) ...
    await database_sync_to_async(services.connect)(room_id=room.pk, actor=actor, channel_name="c1")
    await database_sync_to_async(services.disconnect)(room_id=room.pk, channel_name="c1")
    # ... send nothing: the next list is the one a new listed room sends.
    await database_sync_to_async(open_room)()
    assert len(await next_list(socket)) == 1
    await socket.disconnect()
