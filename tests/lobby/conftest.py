import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Room

PASSWORD = "correct-horse-battery-9"

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
def make_user(db):
    def make(name, **extra):
        return get_user_model().objects.create_user(username=name, password=PASSWORD, **extra)

    return make


@pytest.fixture
def host(make_user):
    return make_user("hana")


@pytest.fixture
def friends_room(host):
    def make(seats=3, listed=False, variant="babanuki"):
        return services.create_room(
            actor=services.Actor(user_id=host.pk),
            name="hana",
            variant=variant,
            seat_count=seats,
            mode=Room.Mode.FRIENDS,
            listed=listed,
            **({"rounds": 1} if variant in ("babanuki", "jijinuki") else {}),
        )

    return make


def logged_in(client, user):
    client.force_login(user)
    return client
