"""The new-game form's match length (one control per scoring, one round included), its
table sizes (each game's own, from the engine) and the computer speed: every boundary
posted as a page without scripts would post it, the last allowed and the first refused."""

import pytest

from games.engine import VARIANTS
from games.engine.match import MAX_STRIKE_LIMIT, ROUND_CHOICES
from games.models import Room
from tests.rooms import NEW_GAME_FORM, post_new_game

pytestmark = pytest.mark.django_db


def created(response) -> Room:
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"
    return room


def refused(response, field, message):
    assert response.status_code == 200
    assert message in response.content.decode()
    assert response.context["form"].errors[field]
    assert not Room.objects.exists()


@pytest.mark.parametrize("key", list(VARIANTS))
@pytest.mark.parametrize("edge", ["low", "high"])
def test_each_game_takes_its_own_table_sizes_and_refuses_the_next(client, key, edge):
    variant = VARIANTS[key]
    allowed = variant.min_players if edge == "low" else variant.max_players
    room = created(post_new_game(client, variant=key, seat_count=allowed))
    assert room.seat_count == allowed
    Room.objects.all().delete()
    beyond = allowed - 1 if edge == "low" else allowed + 1
    sentence = f"is played by {variant.min_players} to {variant.max_players} players."
    if 2 <= beyond <= 8:  # offered by the page for another game: refused in words
        refused(post_new_game(client, variant=key, seat_count=beyond), "seat_count", sentence)
    else:  # no game is played by that many: not a choice at all
        refused(
            post_new_game(client, variant=key, seat_count=beyond), "seat_count", "Select a valid"
        )


def test_jiji_nuki_refuses_two_players_in_the_readers_language(client):
    response = client.post(
        "/new/",
        {**NEW_GAME_FORM, "variant": "jijinuki", "seat_count": 2},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    refused(response, "seat_count", "ジジ抜き")


def test_the_page_says_each_games_table_sizes_and_marks_them_for_the_script(client):
    text = client.get("/new/").content.decode()
    for key, variant in VARIANTS.items():
        assert f'data-min-players="{variant.min_players}"' in text
        assert f'data-max-players="{variant.max_players}"' in text
        assert f'<span class="limit" data-variants="{key}">' in text
    assert "Jiji-nuki is played by 3 to 8 players." in text


@pytest.mark.parametrize("key", ["babanuki", "jijinuki"])
@pytest.mark.parametrize("rounds", ROUND_CHOICES)
def test_points_games_are_one_three_or_five_rounds(client, key, rounds):
    room = created(post_new_game(client, variant=key, rounds=rounds))
    assert room.rules["scoring"] == "points" and room.rules["rounds"] == rounds
    assert room.rules["single_round"] is (rounds == 1)


@pytest.mark.parametrize("rounds", [0, 2, 4, 6])
def test_points_games_refuse_other_lengths(client, rounds):
    refused(
        post_new_game(client, variant="babanuki", rounds=rounds), "rounds", "Select a valid choice"
    )


@pytest.mark.parametrize("key", ["old_maid", "schwarzer_peter"])
@pytest.mark.parametrize("limit", [1, 2, MAX_STRIKE_LIMIT])
def test_strikes_games_are_one_round_or_first_to_n_strikes(client, key, limit):
    room = created(post_new_game(client, variant=key, strike_limit=limit))
    assert room.rules["scoring"] == "strikes" and room.rules["strike_limit"] == limit
    assert room.rules["single_round"] is (limit == 1)


@pytest.mark.parametrize("limit", [0, MAX_STRIKE_LIMIT + 1, "three"])
def test_strikes_games_refuse_other_lengths(client, limit):
    refused(
        post_new_game(client, variant="old_maid", strike_limit=limit),
        "strike_limit",
        "valid choice",
    )


def test_the_match_length_says_what_a_match_is_in_each_scoring(client):
    text = client.get("/new/").content.decode()
    for words in ("One round", "3 rounds", "5 rounds", "First to 2 strikes", "First to 10 strikes"):
        assert f">{words}</option>" in text
    assert "Just one round" not in text  # no second control for the same thing
    assert "the highest total after the last round wins" in text
    assert "the first to reach the number chosen loses the match" in text


@pytest.mark.parametrize("speed", ["slow", "normal", "fast"])
def test_the_computer_speed_is_stored_with_the_room(client, speed):
    assert created(post_new_game(client, computer_speed=speed)).computer_speed == speed


def test_no_speed_sent_is_the_normal_one_and_an_unknown_one_is_refused(client):
    assert created(post_new_game(client)).computer_speed == "normal"
    Room.objects.all().delete()
    refused(post_new_game(client, computer_speed="warp"), "computer_speed", "Select a valid choice")


def test_the_speed_of_a_game_without_computers_is_not_read(client):
    room = created(post_new_game(client, mode="same_device", seat_count=2, computer_speed="warp"))
    assert room.computer_speed == "normal"


def test_the_invitation_says_the_rooms_computer_speed(client, host):
    client.force_login(host)
    room = created(post_new_game(client, variant="old_maid", mode="friends", computer_speed="slow"))
    client.logout()
    text = client.get(f"/join/{room.token}/").content.decode()
    assert "Computer speed" in text and "<dd>Slow</dd>" in text
