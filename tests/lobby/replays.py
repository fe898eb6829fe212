"""Finished rounds and their replays: a room versus the computer played to its end, the
data its replay page hands to replay.js and verify.js, and rounds whose replay has the
marks a test looks for."""

import json
import re

from games import services
from games.engine import deal_start_offset, get_variant, seeded
from games.models import Round
from games.replay import replay_steps
from tests.play import play_match_out
from tests.rooms import actor_of, computer_room


def finished_round(variant="old_maid", seats=2, *, old_deal=False, **rules):
    """A room versus the computer played to the end of its one round.

    ``old_deal``: before any draw, deal the round again from its seed through the engine,
    starting one seat after the start today's dealing table gives, and store it with that
    deal record: a round dealt long ago, before the table changed."""
    host = services.Actor(guest="replayer")
    room = computer_room(
        host, name="Rae", variant=variant, seats=seats, **(rules or {"strike_limit": 1})
    )
    if old_deal:
        rnd = Round.objects.get(match__room=room)
        redeal(rnd, (todays_start(room, rnd) + 1) % seats)
    play_match_out(room.pk, {0: actor_of(host)})
    return room, Round.objects.get(match__room=room)


def todays_start(room, rnd) -> int:
    """The seat today's dealing table would deal this round's first card to."""
    offset = deal_start_offset(get_variant(room.variant), room.seat_count)
    return (rnd.dealer + offset) % room.seat_count


def redeal(rnd, start: int) -> None:
    """Deal a round not yet played again from its own seed, starting at seat ``start``."""
    room = rnd.match.room
    state = seeded.deal_from_seed(
        room.variant,
        room.seat_count,
        rnd.dealer,
        bytes.fromhex(rnd.seed),
        room.options,
        version=1,
        start=start,
    )
    Round.objects.filter(pk=rnd.pk).update(
        deal_version=1,
        deal_start=start,
        deal_counts=None,
        dealt=state.dealt,
        removed=list(state.removed),
        state=state.to_dict(),
    )


def replay_data(client, rnd) -> dict:
    """The data the replay page hands to replay.js and verify.js."""
    response = client.get(f"/replay/{rnd.replay_id}/")
    assert response.status_code == 200
    found = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    return json.loads(found.group(1))


def verify_page_data(data: dict) -> bool:
    return seeded.verify(
        variant=data["variant"],
        players=data["players"],
        dealer=data["dealer"],
        seed_hex=data["seed"],
        commitment_hex=data["commitment"],
        dealt=data["dealt"],
        removed=data["removed"],
        deal_version=data["deal_version"],
        deal_start=data["deal_start"],
        deal_counts=data.get("deal_counts"),
        options=data["options"],
    )


TRIES = 30


def marked_round(variant="babanuki", seats=2, level="easy", *, wanted=("hid", "face")):
    """A finished round versus the computer whose replay has every kind of mark in
    ``wanted`` (the deal is random: a few rounds may be played to find one)."""
    for room, rnd, steps in _rounds(variant, seats, level):
        if set(wanted) <= {m["kind"] for step in steps for m in step["marks"]}:
            return room, rnd, steps
    raise AssertionError(f"no round of {TRIES} had the marks {wanted}")


def marked_step(found, variant="babanuki", seats=2, level="easy"):
    """A finished round versus the computer with a step that ``found`` holds for: the
    round, its replay's steps and the first such step's number."""
    for _room, rnd, steps in _rounds(variant, seats, level):
        k = next((k for k, step in enumerate(steps) if found(step)), None)
        if k is not None:
            return rnd, steps, k
    raise AssertionError(f"no round of {TRIES} had the step wanted")


def _rounds(variant, seats, level):
    for _ in range(TRIES):
        room, rnd = finished_round(variant, seats, computer_level=level, rounds=1)
        yield room, rnd, replay_steps(rnd)
