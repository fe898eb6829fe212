import pytest

from games import services
from tests.lobby.conftest import logged_in

pytestmark = pytest.mark.django_db


def test_lobby_lists_listed_waiting_rooms_only(client, friends_room, host):
    listed = friends_room(listed=True)
    private = friends_room(listed=False)
    text = client.get("/").content.decode()
    assert listed.code in text and private.code not in text
    assert "1/3" in text and "hana" in text


def test_started_rooms_leave_the_lobby(client, friends_room, host):
    room = friends_room(listed=True)
    services.start_match(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )
    assert room.code not in client.get("/").content.decode()


def test_my_active_rooms_have_a_rejoin_link(client, friends_room, host):
    room = friends_room()
    text = logged_in(client, host).get("/").content.decode()
    assert f"/r/{room.code}/" in text and "Rejoin" in text


def test_empty_lobby_says_so(client):
    assert "No open rooms right now" in client.get("/").content.decode()


def test_rules_page_has_one_privacy_section_and_a_plain_title(client):
    text = client.get("/rules/").content.decode()
    assert text.count('id="privacy"') == 1
    title = text.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title and "Rules and help" in title
