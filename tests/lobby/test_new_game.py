from html.parser import HTMLParser

import pytest
from django.test import Client

from games.models import Room, Seat
from tests.rooms import NEW_GAME_FORM, post_new_game

pytestmark = pytest.mark.django_db


def test_guest_starts_a_computer_game_at_once(client):
    response = post_new_game(client)
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    assert room.status == "playing" and room.mode == "computer"
    assert client.get(response["Location"]).status_code == 200


def test_a_guest_hosts_a_friends_room_and_is_shown_the_invitation(client):
    response = post_new_game(client, mode="friends", seat_count=3)
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    assert room.mode == "friends" and room.status == "waiting"
    assert room.host_id is None and room.host_guest == client.session["guest_id"]
    page = client.get(response["Location"]).content.decode()
    assert f"/join/{room.token}/" in page


def test_a_guest_host_is_named_by_the_name_typed_in_or_else_guest(client):
    post_new_game(client, mode="friends", host_name="  Ann  ")
    room = Room.objects.get()
    assert room.seats.get(index=0).name == "Ann"
    invitation = Client().get(f"/join/{room.token}/").content.decode()
    assert "Ann invites you to play Babanuki" in invitation
    other = Client()
    post_new_game(other, mode="friends", host_name="   ")
    assert Room.objects.latest("pk").seats.get(index=0).name == "Guest"


def test_a_guest_hosts_listed_room_is_named_by_that_name_in_the_lobby(client):
    post_new_game(client, mode="friends", host_name="Ann", listed="on")
    room = Room.objects.get()
    row = Client().get("/").content.decode()
    assert f'data-code="{room.code}"' in row and "<td>Ann</td>" in row


def test_a_guest_hosts_name_is_refused_beside_the_field_when_too_long(client):
    response = post_new_game(client, mode="friends", host_name="x" * 31)
    assert response.status_code == 200
    assert response.context["form"].errors["host_name"]
    assert "at most 30 characters" in response.content.decode()
    assert not Room.objects.exists()


def test_the_host_name_is_asked_of_guests_only_and_read_only_with_friends(client, host):
    post_new_game(client, host_name="Ann")  # versus the computer: not read
    assert Room.objects.get().seats.get(index=0).name == "Guest"
    assert 'name="host_name"' in client.get("/new/").content.decode()
    client.force_login(host)
    assert 'name="host_name"' not in client.get("/new/").content.decode()


def test_guest_plays_on_one_device(client):
    post_new_game(client, mode="same_device", seat_count=3)
    room = Room.objects.get()
    assert room.mode == "same_device" and room.status == "playing"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"variant": "jijinuki", "seat_count": 2}, "seat_count", "3 to 8 players"),
        ({"seat_count": 9}, "seat_count", "Select a valid choice"),
        ({"reverse": "on"}, "reverse", "Reverse needs a one-loser game"),
        ({"rounds": 2}, "rounds", "Select a valid choice"),
        ({"variant": "old_maid", "strike_limit": 0}, "strike_limit", "Select a valid choice"),
        ({"variant": "old_maid", "first_dealer": 5}, "first_dealer", "Choose one of the table"),
        ({"variant": "canasta"}, "variant", "Select a valid choice"),
    ],
)
def test_invalid_combinations_are_refused_next_to_the_field(client, changes, field, message):
    response = post_new_game(client, **changes)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert response.context["form"].errors[field]
    assert not Room.objects.exists()


def test_signed_in_friends_room_with_house_rules(client, host):
    client.force_login(host)
    response = post_new_game(
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
    # Five-seat Schwarzer Peter is fair with its own deal: no balanced deal there.
    assert room.options == {"same_colour_pairs": True, "reverse": True, "balanced_deal": False}
    assert room.rules["strike_limit"] == 2


def test_forms_need_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/new/", NEW_GAME_FORM).status_code == 403
    assert client.post("/accounts/login/", {"username": "a", "password": "b"}).status_code == 403


class FieldWrappers(HTMLParser):
    """For each form control's name: the attributes of the element that wraps it (the
    nearest ``.field``, ``.choice`` or fieldset), and every label's text by its ``for``."""

    def __init__(self):
        super().__init__()
        self.stack, self.wrappers, self.labels, self._label = [], {}, {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("div", "fieldset", "p"):
            self.stack.append(attrs)
        if tag in ("input", "select") and attrs.get("name"):
            wrapper = next((a for a in reversed(self.stack) if "field" in a.get("class", "")), {})
            shown = next((a for a in reversed(self.stack) if "data-modes" in a), {})
            wrapper = {**wrapper, **{k: v for k, v in shown.items() if k == "data-modes"}}
            self.wrappers.setdefault(attrs["name"], {**wrapper, "control": attrs})
        if tag == "label":
            self._label = attrs.get("for")
            self.labels[self._label] = ""

    def handle_endtag(self, tag):
        if tag in ("div", "fieldset", "p") and self.stack:
            self.stack.pop()
        if tag == "label":
            self._label = None

    def handle_data(self, data):
        if self._label:
            self.labels[self._label] += data


def parsed(client, **headers) -> FieldWrappers:
    parser = FieldWrappers()
    parser.feed(client.get("/new/", **headers).content.decode())
    return parser


def test_each_option_says_when_it_applies(client):
    form = parsed(client)
    w = form.wrappers
    assert w["strike_limit"]["data-scoring"] == "strikes"
    assert w["rounds"]["data-scoring"] == "points"
    assert w["reverse"]["data-scoring"] == "strikes"
    assert w["computer_level"]["data-modes"] == "computer friends"
    assert w["computer_speed"]["data-modes"] == "computer friends"
    assert w["listed"]["data-modes"] == "friends"
    assert w["first_dealer"]["data-variants"] == "old_maid schwarzer_peter"
    assert "single_round" not in w  # the match length is one control per scoring
    for always in ("seat_count", "same_colour_pairs"):
        assert not {"data-modes", "data-scoring", "data-variants"} & set(w[always]), always
    # One name per seat, inside the part shown only when everyone plays on this device.
    for i in range(8):
        assert w[f"seat_name_{i}"]["data-modes"] == "same_device"
        assert w[f"seat_name_{i}"]["control"]["value"] == f"Player {i + 1}"


def test_labels_end_without_a_colon_and_help_sits_under_the_field(client):
    form = parsed(client)
    for name in ("same_colour_pairs", "reverse", "listed", "seat_count", "computer_speed"):
        label = form.labels[f"id_{name}"].strip()
        assert label and not label.endswith(":"), label
    assert form.labels["id_rounds"].strip() == form.labels["id_strike_limit"].strip()
    assert form.labels["id_rounds"].strip() == "Match length"
    text = client.get("/new/").content.decode()
    for name in (
        "seat_count",
        "computer_level",
        "computer_speed",
        "rounds",
        "strike_limit",
        "reverse",
        "listed",
    ):
        assert f'id="id_{name}_helptext"' in text
        assert f"id_{name}_helptext" in form.wrappers[name]["control"]["aria-describedby"]
    assert "new_game.js" in text


@pytest.mark.parametrize(
    ("language", "seat", "player", "rounds"),
    [
        ("ja", "1番の席", "プレイヤー1", "先に負けが3つになるまで"),
        ("zh-hans", "1 号座位", "玩家 1", "直到有人先累计 3 次失败"),
    ],
)
def test_the_form_speaks_the_readers_language(client, language, seat, player, rounds):
    text = client.get("/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert seat in text and player in text and rounds in text


@pytest.mark.parametrize(
    ("changes", "check"),
    [
        # Points games read no strike limit, one-loser games no rounds: whatever those
        # fields hold (left over from another choice) refuses nothing.
        ({"strike_limit": "0"}, lambda r: r.rules["scoring"] == "points"),
        (
            {"variant": "old_maid", "rounds": "2"},
            lambda r: r.rules["scoring"] == "strikes" and r.rules["strike_limit"] == 3,
        ),
        (
            {"variant": "old_maid", "rounds": "7", "strike_limit": "1"},
            lambda r: r.rules["single_round"] and r.rules["strike_limit"] == 1,
        ),
        ({"first_dealer": "2"}, lambda r: r.first_dealer is None),  # random in Babanuki
        ({"listed": "on"}, lambda r: not r.listed),  # only friends rooms are listed
        (
            {"mode": "same_device", "seat_count": 3, "computer_level": "bogus"},
            lambda r: r.computer_level == "medium",
        ),
    ],
)
def test_options_that_do_not_apply_are_not_read(client, changes, check):
    response = post_new_game(client, **changes)
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    assert check(room)


def test_one_device_players_get_the_names_given(client):
    names = {"seat_name_0": " Mum ", "seat_name_1": "Kenji", "seat_name_2": "", "seat_name_3": "x"}
    response = post_new_game(client, mode="same_device", seat_count=3, **names)
    room = Room.objects.get()
    assert response["Location"] == f"/r/{room.code}/"
    # Blank is "Player n"; names beyond the number of players are left out.
    assert [s.name for s in room.seats.all()] == ["Mum", "Kenji", "Player 3"]
    assert all(s.guest and not s.is_computer for s in room.seats.all())
    page = client.get(response["Location"]).content.decode()
    assert "Mum" in page and "Kenji" in page


def test_one_device_default_names_are_in_the_readers_language(client):
    client.post(
        "/new/",
        {**NEW_GAME_FORM, "mode": "same_device", "seat_count": 2},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert [s.name for s in Seat.objects.order_by("index")] == ["プレイヤー1", "プレイヤー2"]


@pytest.mark.parametrize(
    ("names", "field", "message"),
    [
        ({"seat_name_1": "a" * 31}, "seat_name_1", "at most 30 characters"),
        ({"seat_name_0": "Bo\tb"}, "seat_name_0", "control characters"),
        (
            {"seat_name_0": "Ann", "seat_name_1": " ann "},
            "seat_name_1",
            "Two players are called ann",
        ),
    ],
)
def test_one_device_names_that_do_not_fit_are_refused(client, names, field, message):
    response = post_new_game(client, mode="same_device", seat_count=2, **names)
    assert response.status_code == 200 and message in response.content.decode()
    assert response.context["form"].errors[field]
    assert not Room.objects.exists()


def test_names_are_not_read_for_a_game_against_the_computer(client):
    post_new_game(client, seat_name_0="a" * 50, seat_name_1="\x00")
    assert [s.display_name for s in Room.objects.get().seats.all()][0] == "Guest"
