"""Replays: finished rounds are shareable by their unguessable link; rounds in play are
never revealed; the replayed steps reproduce every stored draw and the result."""

import pytest

from games import selectors, services
from games.models import Room, Round
from games.replay import ReplayMismatch, replay_steps

pytestmark = pytest.mark.django_db


def finished_round(variant="old_maid", seats=2, **rules):
    host = services.Actor(guest="replayer")
    room = services.create_room(
        actor=host,
        name="Rae",
        variant=variant,
        seat_count=seats,
        mode="computer",
        **(rules or {"strike_limit": 1}),
    )
    while True:
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            break
        state = selectors.snapshot(room.pk)["round"]["state"]
        if state["drawer"] == 0:
            services.draw(room_id=room.pk, actor=host, version=room.version, position=0)
        else:
            services.computer_turn(room_id=room.pk, version=room.version)
    return room, Round.objects.get(match__room=room)


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
    room = services.create_room(
        actor=services.Actor(guest="x"),
        name="x",
        variant="babanuki",
        seat_count=2,
        mode="computer",
        rounds=1,
    )
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
