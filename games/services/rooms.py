"""Opening rooms, filling their seats, starting and dealing matches and rounds, and ending
a room nobody is at."""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast
from games.engine import MatchRules, Options, check_level, get_variant, seeded
from games.errors import ActionError
from games.identity import Actor
from games.models import Match, Presence, Room, Round, Seat
from games.names import name_key
from games.services.change import Change, changing, check_ply
from games.state import match_score

_system_random = random.SystemRandom()


def create_room(
    *,
    actor: Actor,
    name: str,
    variant: str,
    seat_count: int,
    mode: str,
    computer_level: str = "medium",
    rounds: int | None = None,
    strike_limit: int | None = None,
    single_round: bool = False,
    options: dict | None = None,
    listed: bool = False,
    first_dealer: int | None = None,
    seat_names: list[str] | None = None,
) -> Room:
    """Open a room. Versus computer and same-device rooms start at once.

    ``seat_names`` holds one name per seat, used for the seats the creator holds (the
    computer's and friends' seats are named otherwise); without it those seats are
    called ``name`` ("name 1", "name 2", ... on one device)."""
    try:
        v = get_variant(variant)
        v.check_players(seat_count)
        opts = Options.parse(options or {}, v)
        rules = MatchRules.for_variant(
            v,
            rounds=rounds,
            strike_limit=strike_limit,
            single_round=single_round,
            reverse=opts.reverse,
        )
        check_level(computer_level)
    except ValueError as exc:
        raise ActionError("not_allowed", str(exc)) from exc
    if mode not in Room.Mode.values:
        raise ActionError("not_allowed", _("Unknown way to play: %(mode)s.") % {"mode": mode})
    if first_dealer is not None and not (0 <= first_dealer < seat_count):
        raise ActionError(
            "not_allowed",
            _("The first dealer must be one of the table's seats."),
        )
    if seat_names is not None and (
        len(seat_names) != seat_count
        or not all(isinstance(n, str) and 0 < len(n.strip()) <= 150 for n in seat_names)
    ):
        raise ActionError("not_allowed", _("Give every seat a name."))
    if actor.user_id is None and not actor.guest:
        raise ActionError("not_seated", _("Open the site in a browser to create a room."))
    with transaction.atomic():
        room = Room.objects.create(
            host_id=actor.user_id,
            host_guest="" if actor.user_id else actor.guest,
            variant=v.key,
            seat_count=seat_count,
            options=opts.as_dict(),
            rules=rules.as_dict(),
            computer_level=computer_level,
            mode=mode,
            listed=listed and mode == Room.Mode.FRIENDS,
            first_dealer=first_dealer,
            # Nobody is connected until the page opens its socket.
            unattended_since=timezone.now(),
        )
        for index in range(seat_count):
            seat = Seat(room=room, index=index)
            human = index == 0 or mode == Room.Mode.SAME_DEVICE
            if human:
                seat.user_id, seat.guest = actor.user_id, "" if actor.user_id else actor.guest
                if seat_names is not None:
                    seat.name = seat_names[index].strip()
                elif mode == Room.Mode.SAME_DEVICE:
                    seat.name = f"{name} {index + 1}"
                else:
                    seat.name = name
            elif mode == Room.Mode.COMPUTER:
                # Computer seats store no name: each page names them in its language.
                seat.is_computer = True
            seat.save()
        if mode != Room.Mode.FRIENDS:
            change = Change(room)
            _start_match(room)
            change.commit({"kind": "match_started"})
        elif room.listed:
            broadcast.after_commit(broadcast.lobby_changed)
    return room


def join_room(*, room_id: int, actor: Actor, name: str) -> Seat:
    """Take the first free seat of a waiting friends room (again: the same seat) under
    ``name``, refused when someone at the table already has that name (``games.names``:
    compared normalised and casefolded, with the room locked, so two people typing it at
    once cannot both have it)."""
    with changing(room_id) as change:
        room = change.room
        seats = list(room.seats.all())
        mine = next((s for s in seats if actor.controls(s)), None)
        if mine is not None:
            return mine
        refusal = join_refusal(room, seats)
        if refusal is not None:
            raise refusal
        if any(not s.is_empty and name_key(s.name) == name_key(name) for s in seats):
            raise ActionError(
                "name_taken",
                _("Someone at this table is already called %(name)s; choose another name.")
                % {"name": name},
            )
        free = next(s for s in seats if s.is_empty)
        free.user_id, free.guest = actor.user_id, "" if actor.user_id else actor.guest
        free.name = name
        free.save()
        change.commit({"kind": "seat_taken", "seat": free.index})
        return free


def join_refusal(room: Room, seats: list[Seat]) -> ActionError | None:
    """Why nobody can take a seat in ``room`` now (its ``seats``), or None while one is
    free: what ``join_room`` refuses with, for pages to say before anyone tries."""
    if room.mode != Room.Mode.FRIENDS:
        return ActionError("not_allowed", _("Only friends rooms take new players."))
    if room.status != Room.Status.WAITING:
        return ActionError("already_started", _("This match has already started."))
    if not any(s.is_empty for s in seats):
        return ActionError("room_full", _("Every seat is taken."))
    return None


def remove_player(*, room_id: int, actor: Actor, seat_index: int) -> None:
    """The host frees a waiting player's seat before the start. The player's open sockets
    get the spectator's view from the next state on."""
    with changing(room_id) as change:
        room = change.room
        if not actor.owns(room):
            raise ActionError("not_host", _("Only the host may remove a player."))
        if room.status != Room.Status.WAITING:
            raise ActionError("already_started", _("Players can only be removed before the start."))
        seat = room.seats.filter(index=seat_index).first()
        if seat is None or seat.index == 0 or seat.is_empty:
            raise ActionError("not_allowed", _("There is no waiting player in that seat."))
        seat.user_id, seat.guest, seat.name, seat.is_computer = None, "", "", False
        seat.away_since = None
        seat.save()
        Presence.objects.filter(seat=seat).delete()
        change.commit({"kind": "seat_freed", "seat": seat_index})


def start_match(*, room_id: int, actor: Actor, fill_with_computers: bool = False) -> None:
    """The host starts a waiting friends room, filling empty seats with computers if asked."""
    with changing(room_id) as change:
        room = change.room
        if not actor.owns(room):
            raise ActionError("not_host", _("Only the host may start the match."))
        if room.status != Room.Status.WAITING:
            raise ActionError("already_started", _("The match has already started."))
        empty = [s for s in room.seats.all() if s.is_empty]
        if empty and not fill_with_computers:
            raise ActionError(
                "seats_empty",
                _(
                    "Some seats are still empty: invite more players "
                    "or fill them with the computer."
                ),
            )
        for seat in empty:
            seat.is_computer = True
            seat.save()
        _start_match(room)
        change.commit({"kind": "match_started"})


def _start_match(room: Room) -> Match:
    number = (room.matches.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    first_dealer = room.first_dealer
    if first_dealer is None:
        first_dealer = _system_random.randrange(room.seat_count)
    match = Match.objects.create(
        room=room, number=number, rules=room.rules, first_dealer=first_dealer
    )
    room.status = Room.Status.PLAYING
    _deal_round(room, match, 1, first_dealer)
    return match


def _deal_round(room: Room, match: Match, number: int, dealer: int) -> Round:
    seed = secrets.token_bytes(seeded.SEED_BYTES)
    state, record = seeded.new_deal(room.variant, room.seat_count, dealer, seed, room.options)
    return Round.objects.create(
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
    )


def latest_match(room: Room) -> Match:
    match = room.matches.order_by("-number").first()
    if match is None:
        raise ActionError("not_started", _("The match has not started yet."))
    return match


def next_round(*, room_id: int, actor: Actor, at: dict | None = None) -> Round:
    """Deal the match's next round once the current one is over (any seated human)."""
    with changing(room_id) as change:
        room = change.room
        require_seated(room, actor)
        match = latest_match(room)
        rounds = list(match.rounds.all())
        rnd = rounds[-1]
        check_ply(at, match=match, rnd=rnd)
        if match.finished_at is not None:
            raise ActionError("match_over", _("The match is over: start a rematch instead."))
        if rnd.finished_at is None:
            raise ActionError("round_in_play", _("The round is still being played."))
        score = match_score(room, match, rounds)
        new = _deal_round(room, match, rnd.number + 1, score.next_dealer)
        change.commit({"kind": "round_started", "round": new.number})
        return new


def rematch(*, room_id: int, actor: Actor, at: dict | None = None) -> Match:
    """A new match with the same seats once the match is over.

    Leaving is per match (RULES.md section 6: the computer plays a seat whose human has
    left the match, until that human returns): the finished match keeps who left it
    (``Match.left``), and in the new one a leaver's seat is still theirs, covered, so the
    computer plays it until they come back to the table (``presence.connect`` hands a
    covered seat back)."""
    with changing(room_id) as change:
        room = change.room
        require_seated(room, actor)
        match = latest_match(room)
        check_ply(at, match=match)
        if match.finished_at is None:
            raise ActionError("match_in_play", _("The match is still being played."))
        leavers = [s for s in room.seats.all() if s.left]
        if leavers:
            match.left = sorted({*match.left, *(s.index for s in leavers)})
            match.save(update_fields=["left"])
        for seat in leavers:
            seat.left, seat.covered, seat.away_since = False, True, None
            seat.save(update_fields=["left", "covered", "away_since"])
        new = _start_match(room)
        change.commit({"kind": "match_started"})
        return new


def require_seated(room: Room, actor: Actor) -> list[Seat]:
    mine = [s for s in room.seats.all() if actor.controls(s) and not s.left]
    if not mine:
        raise ActionError("not_seated", _("Only the players at this table may do that."))
    return mine


def end_match(room: Room, match: Match, winners, losers, ended_by=None) -> None:
    """Record the match's result; the room is finished (a rematch may follow)."""
    match.winners, match.losers, match.ended_by = winners, losers, ended_by
    match.finished_at = timezone.now()
    match.save(update_fields=["winners", "losers", "ended_by", "finished_at"])
    room.status = Room.Status.FINISHED


def abandon_room(*, room_id: int, version: int) -> dict | None:
    """End a playing room that no human has been connected to for
    ``ABANDON_AFTER_SECONDS``: its match ends with no winner, and the room, its page and
    its history say it was abandoned. Called by the driver with the version it planned
    against; returns the new state, or None when the room is not (or no longer) due."""
    from django.conf import settings

    with changing(room_id, version) as change:
        room = change.room
        since = room.unattended_since
        if room.status != Room.Status.PLAYING or since is None:
            return None
        if (timezone.now() - since).total_seconds() < settings.ABANDON_AFTER_SECONDS:
            return None
        end_match(room, latest_match(room), [], [], {"how": "abandoned"})
        return change.commit({"kind": "abandoned"})
