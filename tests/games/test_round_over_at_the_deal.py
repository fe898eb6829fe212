"""A round over at the deal (RULES.md section 2, rule 3): with two seats, one seat left with
no cards after the initial discard leaves a single active seat, so the round is over
before its first draw. It is recorded as finished, the match ends if that decided it, and
nothing waits for a drawer that does not exist."""

import pytest

from games import schedule, selectors, services
from games.engine import seeded
from games.models import Room
from games.replay import replay_steps
from games.services import matches
from tests.rooms import actor_of, friends_room

pytestmark = pytest.mark.django_db


def seed_over_at_the_deal(room: Room) -> bytes:
    """The first seed (counting up from 0) whose deal by seat 0 in ``room`` (two seats, its
    own house rules) is over at once."""
    for number in range(100_000):
        seed = number.to_bytes(seeded.SEED_BYTES, "big")
        state, _ = seeded.new_deal(room.variant, room.seat_count, 0, seed, room.options)
        if state.over:
            return seed
    raise AssertionError("no such seed")


@pytest.fixture
def first_deal_over(monkeypatch):
    """The next round dealt in the room is over at the deal; later rounds are dealt as
    usual."""

    def use(room: Room) -> None:
        seeds = [seed_over_at_the_deal(room)]
        real = matches.secrets.token_bytes
        monkeypatch.setattr(
            matches.secrets, "token_bytes", lambda n: seeds.pop() if seeds else real(n)
        )
        monkeypatch.setattr(matches, "_system_random", FirstDealer())

    return use


class FirstDealer:
    """Seat 0 deals the first round, as the seed was searched for."""

    def randrange(self, n):
        return 0


def test_a_one_round_match_over_at_the_deal_is_finished_with_its_ranking(
    django_user_model, first_deal_over
):
    host = django_user_model.objects.create_user("host")
    friend = django_user_model.objects.create_user("friend")
    room = friends_room(host, {"friend": friend}, rounds=1)
    first_deal_over(room)
    services.start_match(room_id=room.pk, actor=actor_of(host))

    rnd = room.matches.get().rounds.get()
    assert rnd.finished_at is not None
    assert sorted(rnd.ranking) == [0, 1] and rnd.holder == rnd.ranking[-1]
    state = selectors.snapshot(room.pk)
    assert state["round"]["over"] and state["match"]["over"]
    assert Room.objects.get(pk=room.pk).status == Room.Status.FINISHED
    assert schedule.next_due(state) is None


def test_a_longer_match_over_at_the_deal_waits_for_the_next_round_and_deals_it(
    django_user_model, first_deal_over
):
    host = django_user_model.objects.create_user("host")
    friend = django_user_model.objects.create_user("friend")
    room = friends_room(host, {"friend": friend}, variant="schwarzer_peter")
    first_deal_over(room)
    services.start_match(room_id=room.pk, actor=actor_of(host))

    state = selectors.snapshot(room.pk)
    assert state["round"]["over"] and not state["match"]["over"]
    due = schedule.next_due(state)  # nobody is connected: only the room's abandonment
    assert due is not None and due.kind == "abandon"
    services.next_round(
        room_id=room.pk,
        actor=actor_of(host),
        at={"match": state["match"]["number"], "round": state["round"]["number"]},
    )
    assert selectors.snapshot(room.pk)["round"]["number"] == 2


def test_a_round_over_at_the_deal_replays_as_its_deal_alone(django_user_model, first_deal_over):
    host = django_user_model.objects.create_user("host")
    friend = django_user_model.objects.create_user("friend")
    room = friends_room(host, {"friend": friend}, rounds=1)
    first_deal_over(room)
    services.start_match(room_id=room.pk, actor=actor_of(host))

    steps = replay_steps(room.matches.get().rounds.get())
    assert len(steps) == 1
