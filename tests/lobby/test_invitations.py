import pytest

from games.models import Room, Seat
from tests.lobby.conftest import logged_in

pytestmark = pytest.mark.django_db


def test_visitor_is_sent_to_log_in_and_back(client, friends_room):
    room = friends_room()
    response = client.get(f"/join/{room.token}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=%2Fjoin%2F{room.token}%2F"
    text = client.get(response["Location"]).content.decode()
    assert f"/accounts/signup/?next=/join/{room.token}/" in text.replace("%2F", "/")


def test_signed_in_user_takes_a_free_seat(client, friends_room, make_user):
    room = friends_room()
    guest = make_user("gus")
    response = logged_in(client, guest).get(f"/join/{room.token}/")
    assert response["Location"] == f"/r/{room.code}/"
    assert Seat.objects.get(room=room, user=guest).index == 1
    # Opening the link again changes nothing.
    logged_in(client, guest).get(f"/join/{room.token}/")
    assert Seat.objects.filter(room=room, user=guest).count() == 1


def test_full_or_started_room_offers_to_watch(client, friends_room, make_user, host):
    room = friends_room(seats=2)
    logged_in(client, make_user("first")).get(f"/join/{room.token}/")
    late = make_user("late")
    response = logged_in(client, late).get(f"/join/{room.token}/")
    assert response.status_code == 200
    assert "Every seat is taken" in response.content.decode()
    assert f"/r/{room.code}/?t={room.token}" in response.content.decode()
    watch = client.get(f"/r/{room.code}/?t={room.token}")
    assert watch.status_code == 200


@pytest.mark.parametrize("token", ["x", "0" * 43, "guessed-token"])
def test_wrong_tokens_are_a_plain_404(client, friends_room, token, make_user):
    friends_room()
    for c in (client, logged_in(client.__class__(), make_user(f"u{len(token)}"))):
        response = c.get(f"/join/{token}/")
        assert response.status_code == 404
        assert "room" not in response.content.decode().lower().split("<main", 1)[1]


def test_host_can_remove_a_waiting_player_and_others_cannot(client, friends_room, make_user, host):
    room = friends_room()
    guest = make_user("gone")
    logged_in(client, guest).get(f"/join/{room.token}/")
    other = make_user("other")
    logged_in(client, other).get(f"/join/{room.token}/")
    response = logged_in(client, other).post(f"/r/{room.code}/remove/1/")
    assert Seat.objects.get(room=room, index=1).user_id == guest.pk
    response = logged_in(client, host).post(f"/r/{room.code}/remove/1/", follow=True)
    assert "The seat is free again" in response.content.decode()
    assert Seat.objects.get(room=room, index=1).is_empty


def test_host_starts_early_filling_with_the_computer(client, friends_room, host, make_user):
    room = friends_room(seats=4)
    guest = make_user("early")
    logged_in(client, guest).get(f"/join/{room.token}/")
    response = logged_in(client, guest).post(f"/r/{room.code}/start/", {"fill": "1"}, follow=True)
    assert "Only the host may start" in response.content.decode()
    response = logged_in(client, host).post(f"/r/{room.code}/start/", {"fill": "0"}, follow=True)
    assert "Some seats are still empty" in response.content.decode()
    logged_in(client, host).post(f"/r/{room.code}/start/", {"fill": "1"})
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    assert [s.is_computer for s in room.seats.all()] == [False, False, True, True]
