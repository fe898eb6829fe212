"""Replays: finished rounds are shareable by their unguessable link; rounds in play are
never revealed; the replayed steps reproduce every stored draw and the result."""

import pytest

from games import services
from games.engine import balanced_deal, dealt_counts, get_variant, seeded
from games.models import Round
from games.replay import ReplayMismatch, replay_steps
from tests.lobby.replays import finished_round, replay_data, todays_start, verify_page_data
from tests.rooms import computer_room

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("variant", "seats", "rules"),
    [
        ("babanuki", 3, {"rounds": 1}),
        ("jijinuki", 3, {"rounds": 1}),
        ("old_maid", 3, {"strike_limit": 1}),
        ("schwarzer_peter", 3, {"strike_limit": 1}),
    ],
)
def test_replay_reproduces_every_draw_and_the_result(variant, seats, rules):
    _room, rnd = finished_round(variant, seats, **rules)
    steps = replay_steps(rnd)
    assert len(steps) == rnd.draws.count() + 1
    assert [s["draw"]["card"] for s in steps[1:]] == [d.card for d in rnd.draws.all()]
    final = steps[-1]
    assert final["finish_order"] + [rnd.holder] == rnd.ranking
    assert sum(map(len, final["hands"])) == 1


def test_a_tampered_history_does_not_replay():
    _room, rnd = finished_round()
    row = rnd.draws.first()
    row.card = "JK" if row.card != "JK" else "2S"
    row.save()
    with pytest.raises(ReplayMismatch):
        replay_steps(rnd)


@pytest.mark.parametrize("role", ["anonymous", "player", "stranger"])
def test_a_finished_rounds_replay_link_opens_for_anyone(client, django_user_model, role):
    _room, rnd = finished_round()
    if role == "stranger":
        client.force_login(django_user_model.objects.create_user("s", password="x-12345678"))
    response = client.get(f"/replay/{rnd.replay_id}/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "replay-data" in text and rnd.seed in text


def test_a_round_in_play_is_never_revealed(client):
    room = computer_room(services.Actor(guest="x"), name="x", rounds=1)
    rnd = Round.objects.get(match__room=room)
    response = client.get(f"/replay/{rnd.replay_id}/")
    text = response.content.decode()
    assert response.status_code == 200 and "still being played" in text
    assert rnd.seed not in text and "replay-data" not in text
    # It offers to watch live with the watch token, which never takes a seat; the
    # invitation token never appears.
    assert f"/r/{room.code}/?t={room.watch_token}" in text
    assert room.token not in text
    assert client.get(f"/r/{room.code}/?t={room.watch_token}").status_code == 200
    assert client.get(f"/join/{room.watch_token}/").status_code == 404


def test_guessed_replay_ids_are_a_plain_404(client):
    assert client.get("/replay/not-a-real-id/").status_code == 404


def test_room_page_links_each_finished_round_to_its_replay(client):
    room, rnd = finished_round()
    client.cookies.load({})
    session = client.session
    session["guest_id"] = "replayer"
    session.save()
    text = client.get(f"/r/{room.code}/").content.decode()
    assert f"/replay/{rnd.replay_id}/" in text


@pytest.mark.parametrize(
    ("variant", "seats", "rules"),
    [
        ("babanuki", 2, {"rounds": 1}),
        ("jijinuki", 3, {"rounds": 1, "options": {"balanced_deal": False}}),
        ("old_maid", 2, {"strike_limit": 1}),
        ("schwarzer_peter", 3, {"strike_limit": 1, "options": {"same_colour_pairs": True}}),
    ],
)
def test_the_replay_page_gives_the_deal_record_the_round_stored(client, variant, seats, rules):
    room, rnd = finished_round(variant, seats, **rules)
    data = replay_data(client, rnd)
    assert data["deal_version"] == rnd.deal_version == seeded.DEAL_VERSION
    assert data["deal_start"] == rnd.deal_start == todays_start(room, rnd)
    counts = dealt_counts(get_variant(room.variant), room.seat_count, rnd.dealer)
    assert data["deal_counts"] == rnd.deal_counts == counts
    assert "deal_offset" not in data
    assert verify_page_data(data)
    # How the match scores, from the server: replay.js shows places for points only.
    assert data["scoring"] == get_variant(variant).scoring == rnd.match.rules["scoring"]


@pytest.mark.parametrize(
    ("variant", "seats", "rules"),
    [("jijinuki", 3, {"rounds": 1}), ("schwarzer_peter", 8, {"strike_limit": 1})],
)
def test_a_balanced_round_hands_its_counts_to_the_replay_and_verifies(
    client, variant, seats, rules
):
    """A room with the balanced deal (on by default here): the replay page hands out the
    round's balanced counts and start, and the deal checks out by them only."""
    room, rnd = finished_round(variant, seats, **rules)
    assert room.options["balanced_deal"] is True
    counts, start = balanced_deal(get_variant(variant), seats, rnd.dealer)
    data = replay_data(client, rnd)
    assert data["deal_counts"] == rnd.deal_counts == counts
    assert data["deal_start"] == rnd.deal_start == start
    assert verify_page_data(data)
    own = dealt_counts(get_variant(variant), seats, rnd.dealer)
    assert not verify_page_data({**data, "deal_counts": own})


@pytest.mark.parametrize(
    ("variant", "seats", "rules"),
    [("babanuki", 2, {"rounds": 1}), ("old_maid", 3, {"strike_limit": 1})],
)
def test_an_old_round_dealt_from_another_start_still_verifies(client, variant, seats, rules):
    """Old rounds still verify after the dealing table changes: the page hands out the
    start the round stored, and the deal checks out by it (and not by today's start)."""
    room, rnd = finished_round(variant, seats, old_deal=True, **rules)
    assert rnd.deal_start != todays_start(room, rnd)
    data = replay_data(client, rnd)
    assert data["deal_start"] == rnd.deal_start
    assert verify_page_data(data)
    assert not verify_page_data({**data, "deal_start": todays_start(room, rnd)})
