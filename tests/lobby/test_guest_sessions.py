"""A guest's games survive every log-in, and looking at pages stores no session."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client

from games import services
from games.models import Room, Seat
from tests.lobby.conftest import COMPUTER_GAME, PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


def guest_room(client) -> str:
    response = client.post("/new/", COMPUTER_GAME)
    assert response.status_code == 302
    return response["Location"].split("/")[2]


def test_a_guest_who_logs_in_keeps_their_room_and_seat(client, make_account):
    user = make_account("returning")
    code = guest_room(client)
    response = client.post("/accounts/login/", {"username": "returning", "password": PASSWORD})
    assert response.status_code == 302
    page = client.get(f"/r/{code}/")
    assert page.status_code == 200
    seat = Seat.objects.get(room__code=code, index=0)
    assert seat.user_id == user.pk and seat.guest == ""
    room = Room.objects.get(code=code)
    assert room.host_id == user.pk and room.host_guest == ""
    assert page.context["seated"]
    assert code in client.get("/").content.decode()  # among "your games"


def test_claiming_moves_each_claimed_rooms_version_on(client, make_account):
    make_account("versioned")
    code = guest_room(client)
    before = Room.objects.get(code=code).version
    client.post("/accounts/login/", {"username": "versioned", "password": PASSWORD})
    assert Room.objects.get(code=code).version == before + 1


def test_an_account_already_seated_keeps_its_seat_and_the_guest_seat_stays(
    client, make_account, make_friends_room, host
):
    room = make_friends_room(seats=3)
    # The account sits at seat 1 from another device ...
    services.join_room(room_id=room.pk, actor=services.Actor(user_id=host.pk), name="other")
    # ... and, as a guest in this browser, at seat 2.
    guest_client = Client()
    guest_client.post(f"/join/{room.token}/", {"name": "Guest me"})
    guest = guest_client.session["guest_id"]
    assert Seat.objects.get(room=room, index=1).guest == guest
    guest_client.post("/accounts/login/", {"username": "hana", "password": PASSWORD})
    seats = {s.index: s for s in Seat.objects.filter(room=room)}
    assert [i for i, s in seats.items() if s.user_id == host.pk] == [0]
    assert seats[1].guest == guest and seats[1].user_id is None


def test_signing_up_still_keeps_the_guests_games(client):
    code = guest_room(client)
    client.post(
        "/accounts/signup/", {"username": "fresh", "password1": PASSWORD, "password2": PASSWORD}
    )
    user = User.objects.get(username="fresh")
    assert Seat.objects.get(room__code=code, index=0).user_id == user.pk
    assert client.get(f"/r/{code}/").status_code == 200


def test_looking_at_pages_stores_no_session(make_friends_room):
    room = make_friends_room(seats=3)
    watch = f"/r/{room.code}/?t={room.watch_token}"
    for _ in range(3):
        for path in ("/", "/rules/", f"/join/{room.token}/", watch, "/new/"):
            assert Client().get(path).status_code == 200, path
    visitor = Client()
    for path in ("/", "/rules/", f"/join/{room.token}/", watch):
        visitor.get(path)
    assert Session.objects.count() == 0


def test_a_guest_creating_a_room_gets_a_session_and_keeps_their_seat(client):
    client.get("/")
    assert Session.objects.count() == 0
    code = guest_room(client)
    assert Session.objects.count() == 1
    guest = client.session["guest_id"]
    assert Seat.objects.get(room__code=code, index=0).guest == guest
    assert client.get(f"/r/{code}/").status_code == 200
    assert code in client.get("/").content.decode()
