"""A room's matches and their rounds, for the services that change them: starting a match,
dealing a round, the latest match, recording a result, and what every action between
draws (next round, rematch, leaving, resigning) checks first."""

from __future__ import annotations

import random
import secrets

from django.utils import timezone

from games import refusals
from games.engine import seeded
from games.identity import Actor
from games.models import Match, Room, Round, Seat
from games.services import bot_news
from games.services.attendance import away_from_now
from games.services.change import Change
from games.state import load, match_score

_system_random = random.SystemRandom()


def new_match(room: Room) -> Match:
    """The room's next match, its first round dealt; the room is playing."""
    number = (room.matches.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    first_dealer = room.first_dealer
    if first_dealer is None:
        first_dealer = _system_random.randrange(room.seat_count)
    match = Match.objects.create(
        room=room, number=number, rules=room.rules, first_dealer=first_dealer
    )
    room.status = Room.Status.PLAYING
    # A player (a person or a bot) not connected as its match starts is away from now
    # on, so the seat grace applies to it as to a player gone away: the computer covers
    # it until it comes.
    away_from_now(room)
    bot_news.tell_seated(room, "gameStart")
    deal_round(room, match, 1, first_dealer)
    return match


def deal_round(room: Room, match: Match, number: int, dealer: int) -> Round:
    """Round ``number`` of ``match``, dealt by ``dealer`` from a fresh seed (committed to
    before the first draw: ``games.engine.seeded``).

    A round can be over at the deal (RULES.md section 2, rule 3: a seat left with no cards
    after the initial discard is finished at once; with two seats that leaves one): it is
    then recorded as finished, and the match ends if that round decided it."""
    seed = secrets.token_bytes(seeded.SEED_BYTES)
    state, record = seeded.new_deal(room.variant, room.seat_count, dealer, seed, room.options)
    over = state.over
    rnd = Round.objects.create(
        match=match,
        number=number,
        dealer=dealer,
        seed=seed.hex(),
        commitment=seeded.commitment(seed),
        deal_version=record.version,
        deal_start=record.start,
        deal_counts=None if record.counts is None else list(record.counts),
        dealt=state.dealt,
        removed=list(state.removed),
        state=state.to_dict(),
        ranking=state.ranking if over else None,
        holder=state.holder,
        finished_at=timezone.now() if over else None,
    )
    if over:
        end_match_if_decided(room, match, match.rounds.order_by("number"))
    return rnd


def latest_match(room: Room) -> Match:
    """The room's latest match; refused (``not_started``) before the first."""
    match = room.matches.order_by("-number").first()
    if match is None:
        raise refusals.not_started()
    return match


def end_match_if_decided(room: Room, match: Match, rounds) -> None:
    """After a round of ``match`` ended (``rounds``: its rounds in order, that one
    finished): the match's result, if the rounds played decide it."""
    score = match_score(room, match, rounds)
    if score.over:
        end_match(room, match, score.winners(), score.losers())


def end_match(room: Room, match: Match, winners, losers, ended_by=None) -> None:
    """Record the match's result; the room is finished (a rematch may follow)."""
    match.winners, match.losers, match.ended_by = winners, losers, ended_by
    match.finished_at = timezone.now()
    match.save(update_fields=["winners", "losers", "ended_by", "finished_at"])
    room.status = Room.Status.FINISHED
    bot_news.tell_seated(room, "gameFinish")


def seated_at_latest_match(
    change: Change, actor: Actor, at: dict | None, *, answers: str
) -> tuple[list[Seat], Match, list[Round]]:
    """What every action between draws checks first (``refusals.between_matches``): the
    seats ``actor`` plays, the latest match and its rounds; refused for nobody's seat, no
    match yet, or another move than ``at``, which names the ``answers`` ("match" or
    "round") it was made at."""
    loaded = load(change.room, change.seats)
    seats, match, rounds = loaded.seats, loaded.match, loaded.rounds
    rnd = rounds[-1] if rounds else None
    mine = actor.seats_in(seats)
    refusals.refuse(
        refusals.between_matches(
            seated=bool(mine),
            started=match is not None and (rnd is not None or answers == "match"),
            at=at,
            now=refusals.ply(
                match=match.number if match else None,
                round=rnd.number if rnd and answers == "round" else None,
            ),
        )
    )
    # Refused above unless a match has started.
    assert match is not None
    return mine, match, rounds
