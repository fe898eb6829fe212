import pytest
from django.test import Client

from games.models import Room

pytestmark = pytest.mark.django_db

BASE = {
    "variant": "babanuki",
    "seat_count": 4,
    "mode": "computer",
    "computer_level": "medium",
    "rounds": 3,
    "strike_limit": 3,
}


def post(client, **changes):
    return client.post("/new/", {**BASE, **changes})


def test_guest_starts_a_computer_game_at_once(client):
    response = post(client)
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    assert room.status == "playing" and room.mode == "computer"
    assert client.get(response["Location"]).status_code == 200


def test_guest_plays_on_one_device(client):
    post(client, mode="same_device", seat_count=3)
    room = Room.objects.get()
    assert room.mode == "same_device" and room.status == "playing"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"variant": "jijinuki", "seat_count": 2}, "seat_count", "3 to 8 players"),
        ({"seat_count": 9}, "seat_count", "Select a valid choice"),
        ({"reverse": "on"}, "reverse", "Reverse needs a one-loser game"),
        ({"rounds": 2}, "rounds", "Select a valid choice"),
        ({"variant": "old_maid", "strike_limit": 0}, "strike_limit", "greater than or equal to 1"),
        ({"mode": "friends"}, "mode", "Log in or sign up to invite friends"),
        ({"first_dealer": 5}, "first_dealer", "Choose one of the table"),
        ({"variant": "canasta"}, "variant", "Select a valid choice"),
    ],
)
def test_invalid_combinations_are_refused_next_to_the_field(client, changes, field, message):
    response = post(client, **changes)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert response.context["form"].errors[field]
    assert not Room.objects.exists()


def test_signed_in_friends_room_with_house_rules(client, host):
    client.force_login(host)
    response = post(
        client,
        variant="schwarzer_peter",
        mode="friends",
        seat_count=5,
        strike_limit=2,
        reverse="on",
        same_colour_pairs="on",
        listed="on",
        first_dealer=2,
    )
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    assert room.status == "waiting" and room.listed and room.first_dealer == 2
    assert room.options == {"same_colour_pairs": True, "reverse": True}
    assert room.rules["strike_limit"] == 2


def test_forms_need_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/new/", BASE).status_code == 403
    assert client.post("/accounts/login/", {"username": "a", "password": "b"}).status_code == 403
