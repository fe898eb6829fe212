"""One person can open only so many rooms: an hourly count in the shared cache and a
number of rooms open at once; the form says so, and nothing is created."""

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from games.errors import ActionError
from games.models import Room
from games.services import limits
from tests.lobby.conftest import COMPUTER_GAME, LANGUAGES, REFUSED

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.ROOM_CREATION_PER_HOUR = 3
    settings.ROOMS_OPEN_AT_ONCE = 2
    settings.ROOM_CREATION_PER_ADDRESS_PER_HOUR = 5


def create(client, language="en", address="127.0.0.1"):
    return client.post("/new/", COMPUTER_GAME, HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_guest_may_open_rooms_up_to_the_hourly_limit_and_no_more(client, language):
    assert [create(client, language).status_code for _ in range(3)] == [302, 302, 302]
    refused = create(client, language)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert REFUSED["hourly"][language] in page and 'role="alert"' in page
    assert Room.objects.count() == 3
    assert create(client, language).status_code == 200 and Room.objects.count() == 3


def test_an_account_is_counted_on_its_own(client, make_account):
    client.force_login(make_account("busy"))
    assert [create(client).status_code for _ in range(4)] == [302, 302, 302, 200]
    # Someone else (another guest) is not held back by it.
    assert create(Client()).status_code == 302
    assert Room.objects.count() == 4


def test_the_count_is_kept_in_the_shared_cache_per_person_not_per_process(client):
    create(client)
    actor = services.Actor(guest=client.session["guest_id"])
    key = limits.creation_key(actor)
    assert cache.get(key) == 1
    assert key == f"room-creation:guest:{actor.guest}"  # no process id in it
    assert limits.creation_key(services.Actor(user_id=7)) == "room-creation:user:7"


@pytest.mark.parametrize("language", LANGUAGES)
def test_rooms_open_at_once_are_limited_and_closing_one_frees_a_place(client, language):
    for _ in range(2):
        assert create(client, language).status_code == 302
    Room.objects.update(unattended_since=None)  # both pages are open (connected)
    refused = create(client, language)
    assert refused.status_code == 200 and REFUSED["open"][language] in refused.content.decode()
    assert Room.objects.count() == 2
    # One page is closed: its room is nobody's any more, and a new one may open.
    Room.objects.filter(pk=Room.objects.first().pk).update(unattended_since="2026-01-01T00:00Z")
    assert create(client, language).status_code == 302
    assert Room.objects.count() == 3


def test_a_room_that_fails_to_open_is_not_counted(client, monkeypatch):
    create(client)

    def refuse(**kwargs):
        raise ActionError("not_allowed", "no")

    monkeypatch.setattr(services, "create_room", refuse)
    assert create(client).status_code == 200
    assert cache.get(limits.creation_key(services.Actor(guest=client.session["guest_id"]))) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_guests_of_one_address_together_may_open_rooms_up_to_its_hourly_limit(language):
    """A new guest is a cleared cookie away: the guests of one address share a count.
    Five guests' rooms are the last allowed, the sixth refused; a guest elsewhere and an
    account at that address are not held back."""
    statuses = [create(Client(), language, "198.51.100.7").status_code for _ in range(5)]
    assert statuses == [302] * 5
    refused = create(Client(), language, "198.51.100.7")
    assert refused.status_code == 200
    page = refused.content.decode()
    assert REFUSED["address"][language] in page and 'role="alert"' in page
    assert Room.objects.count() == 5
    assert create(Client(), language, "203.0.113.9").status_code == 302
    assert Room.objects.count() == 6


def test_an_account_is_not_counted_by_its_address(make_account):
    for _ in range(5):
        assert create(Client(), address="198.51.100.7").status_code == 302
    signed_in = Client()
    signed_in.force_login(make_account("at-the-same-address"))
    assert create(signed_in, address="198.51.100.7").status_code == 302
    assert cache.get(limits.address_key("198.51.100.7")) == 5


def test_a_guest_refused_by_its_own_limit_is_not_counted_against_its_address(client):
    for _ in range(3):
        assert create(client, address="198.51.100.7").status_code == 302
    assert create(client, address="198.51.100.7").status_code == 200  # its own hourly limit
    assert cache.get(limits.address_key("198.51.100.7")) == 3
