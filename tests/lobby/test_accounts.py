import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Room, Seat
from lobby.templatetags.seat_names import seat_name
from tests.lobby.conftest import COMPUTER_GAME, PASSWORD
from tests.play import play_match_out
from tests.rooms import actor_of, computer_room

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_sign_up_logs_in_and_returns_to_next(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, "next": "/new/"},
    )
    assert response.status_code == 302 and response["Location"] == "/new/"
    assert client.get("/accounts/profile/").status_code == 200


def test_sign_up_refuses_weak_passwords_with_a_message(client):
    response = client.post(
        "/accounts/signup/", {"username": "x", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert "too short" in response.content.decode()
    assert not User.objects.filter(username="x").exists()


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]
)
def test_no_open_redirect_through_next(client, make_account, target):
    response = client.post(
        "/accounts/signup/",
        {"username": "s1", "password1": PASSWORD, "password2": PASSWORD, "next": target},
    )
    assert response["Location"] == "/"
    make_account("l1")
    other = Client()
    response = other.post(
        "/accounts/login/", {"username": "l1", "password": PASSWORD, "next": target}
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_signing_up_keeps_the_guests_games(client):
    client.get("/new/")
    response = client.post("/new/", COMPUTER_GAME)
    code = response["Location"].split("/")[2]
    guest = client.session["guest_id"]
    assert Seat.objects.filter(room__code=code, guest=guest).exists()
    client.post(
        "/accounts/signup/", {"username": "kept", "password1": PASSWORD, "password2": PASSWORD}
    )
    user = User.objects.get(username="kept")
    seat = Seat.objects.get(room__code=code, index=0)
    assert seat.user_id == user.pk and seat.guest == ""
    assert Room.objects.get(code=code).host_id == user.pk
    assert code in client.get("/").content.decode()


def test_logout_is_post_only(client, make_account):
    user = make_account("bye")
    client.force_login(user)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_change_password(client, make_account):
    user = make_account("pw")
    client.force_login(user)
    new = "another-strong-secret-7"
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response["Location"] == "/accounts/password/done/"
    user.refresh_from_db()
    assert user.check_password(new)


def test_profile_shows_matches_by_variant(client, make_account):
    user = make_account("pro")
    room = computer_room(user, rounds=1)
    services.resign(room_id=room.pk, actor=services.Actor(user_id=user.pk))
    client.force_login(user)
    text = client.get("/accounts/profile/").content.decode()
    assert "Babanuki" in text and f"/r/{room.code}/" in text and "lost" in text


def test_room_page_lists_each_rounds_loser_and_length(client, make_account):
    user = make_account("hist")
    room = computer_room(user, variant="old_maid", strike_limit=1)
    play_match_out(room.pk, {0: actor_of(user)})
    rnd = room.matches.get().rounds.get()
    client.force_login(user)
    text = client.get(f"/r/{room.code}/").content.decode()
    assert "Rounds played" in text and "Left holding the odd card" in text
    # The table's roles and each cell's column name (its label on a phone) aside.
    text = re.sub(r' (?:role|data-label)="[^"]*"', "", text)
    # Each seat as every page names it (tests/lobby/test_seat_names.py says how).
    dealer, holder = (seat_name(room.seats.get(index=i)) for i in (rnd.dealer, rnd.holder))
    row = f"<tr><td>1</td><td>{dealer}</td><td>{holder}</td>"
    assert f'{row}<td>{rnd.draws.count()}</td><td><a href="/replay/{rnd.replay_id}/">' in text
