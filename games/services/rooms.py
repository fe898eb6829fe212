"""Opening rooms, filling their seats, starting matches, the next round and the rematch,
and ending a room nobody is at (a room's matches and rounds themselves: ``matches.py``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import fairness_data, refusals
from games.engine import MatchRules, Options, check_level, get_variant
from games.engine.seats import plays_as_host
from games.engine.shapes import RoomState
from games.errors import ActionError
from games.identity import Actor
from games.labels import VARIANT_NAMES
from games.models import Challenge, Match, Presence, Room, Round, Seat
from games.names import name_key
from games.refusals import refuse
from games.schedule import COMPUTER_SPEEDS
from games.services import publish
from games.services.bot_news import tell_seated, withdraw_challenges
from games.services.change import Change, changing, checked_ply
from games.services.matches import (
    deal_round,
    end_match,
    latest_match,
    new_match,
    seated_at_latest_match,
)
from games.state import load, match_score


def create_room(
    *,
    actor: Actor,
    name: str,
    variant: str,
    seat_count: int,
    mode: str,
    computer_level: str = "medium",
    computer_speed: str = "normal",
    rounds: int | None = None,
    strike_limit: int | None = None,
    single_round: bool = False,
    options: dict | None = None,
    listed: bool = False,
    first_dealer: int | None = None,
    seat_names: list[str] | None = None,
    bot: bool = False,
) -> Room:
    """Open a room. Versus computer and same-device rooms start at once.

    ``seat_names`` holds one name per seat, used for the seats the creator holds (the
    computer's and friends' seats are named otherwise); without it those seats are
    called ``name`` ("name 1", "name 2", ... on one device). ``bot``: the creator is a bot
    account (``games.services.bots.open_bot_game``), its seat marked so.

    ``options["balanced_deal"]`` left out takes the site's default
    (``fairness_data.balanced_deal``: on where it is offered); asked for where it is not
    offered, it is refused."""
    try:
        v = get_variant(variant)
        v.check_players(seat_count)
        options = dict(options or {})
        offered = fairness_data.balanced_deal(v.key, seat_count) is not None
        if options.get("balanced_deal") is True and not offered:
            raise ActionError(
                "not_allowed",
                _(
                    "%(game)s with %(n)s players has no balanced deal: "
                    "its own deal is already fair there."
                )
                % {"game": VARIANT_NAMES[v.key], "n": seat_count},
            )
        options.setdefault("balanced_deal", offered)
        opts = Options.parse(options, v)
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
    if computer_speed not in COMPUTER_SPEEDS:
        raise ActionError(
            "not_allowed",
            _("Unknown computer speed: %(speed)s.") % {"speed": computer_speed},
        )
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
            computer_speed=computer_speed,
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
                seat.bot = bot
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
            new_match(room)
            change.commit({"kind": "match_started"})
        elif room.listed:
            publish.after_commit(publish.lobby_changed)
    return room


def join_room(*, room_id: int, actor: Actor, name: str) -> Seat:
    """Take the first free seat of a waiting friends room (again: the same seat) under
    ``name``, refused when someone at the table already has that name (``games.names``:
    compared normalised and casefolded, with the room locked, so two people typing it at
    once cannot both have it)."""
    with changing(room_id) as change:
        room = change.room
        seats = list(room.seats.all())
        mine = next(iter(actor.seats_in(seats, including_left=True)), None)
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
        # A seat a bot is invited to is kept for it while another is free.
        pending = room.challenges.filter(status=Challenge.Status.PENDING)
        asked = set(pending.values_list("seat", flat=True))
        empty = [s for s in seats if s.is_empty]
        free = next((s for s in empty if s.index not in asked), empty[0])
        free.user_id, free.guest = actor.user_id, "" if actor.user_id else actor.guest
        free.name = name
        free.save()
        change.commit({"kind": "seat_taken", "seat": free.index})
        return free


def join_refusal(room: Room, seats: list[Seat]) -> ActionError | None:
    """Why nobody can take a seat in ``room`` now (its ``seats``), or None while one is
    free: what ``join_room`` refuses with, for pages to say before anyone tries
    (``refusals.joining``)."""
    return refusals.joining(
        friends=room.mode == Room.Mode.FRIENDS,
        waiting=room.status == Room.Status.WAITING,
        free=any(s.is_empty for s in seats),
    )


def _require_host_before_start(room: Room, actor: Actor, *, not_host: str, started: str) -> None:
    """What the host's moves before the start check first, each refusal in the words of
    the move: the actor is the host, and the match has not started."""
    if not actor.owns(room):
        raise ActionError("not_host", not_host)
    if room.status != Room.Status.WAITING:
        raise ActionError("already_started", started)


def remove_player(*, room_id: int, actor: Actor, seat_index: int) -> None:
    """The host frees a waiting player's seat before the start. The player's open sockets
    get the spectator's view from the next state on."""
    with changing(room_id) as change:
        room = change.room
        _require_host_before_start(
            room,
            actor,
            not_host=_("Only the host may remove a player."),
            started=_("Players can only be removed before the start."),
        )
        seats = list(room.seats.all())
        seat = next((s for s in seats if s.index == seat_index), None)
        # The host's own seat is not a waiting player's.
        if seat is None or seat.index == room.host_seat(seats) or seat.is_empty:
            raise ActionError("not_allowed", _("There is no waiting player in that seat."))
        if seat.bot:
            tell_seated(room, "gameFinish", [seat])
        seat.user_id, seat.guest, seat.name, seat.is_computer = None, "", "", False
        seat.away_since, seat.bot = None, False
        seat.save()
        Presence.objects.filter(seat=seat).delete()
        change.commit({"kind": "seat_freed", "seat": seat_index})


def start_match(*, room_id: int, actor: Actor, fill_with_computers: bool = False) -> None:
    """The host starts a waiting friends room, filling empty seats with computers if asked."""
    with changing(room_id) as change:
        room = change.room
        _require_host_before_start(
            room,
            actor,
            not_host=_("Only the host may start the match."),
            started=_("The match has already started."),
        )
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
        withdraw_challenges(room)
        new_match(room)
        change.commit({"kind": "match_started"})


def next_round(*, room_id: int, actor: Actor, at: dict | None = None) -> Round:
    """Deal the match's next round once the current one is over (any seated human)."""
    at = checked_ply(at)
    with changing(room_id) as change:
        room = change.room
        _, match, rounds = seated_at_latest_match(change, actor, at, answers="round")
        over = rounds[-1].finished_at is not None
        refuse(refusals.next_round(match_is_over=match.finished_at is not None, round_is_over=over))
        score = match_score(room, match, rounds)
        new = deal_round(room, match, rounds[-1].number + 1, score.next_dealer)
        change.commit({"kind": "round_started", "round": new.number})
        return new


def deal_next_round(*, room_id: int, version: int) -> RoomState | None:
    """The server deals the match's next round by itself: the driver, when the round is
    over and no person plays a seat (``games.schedule``: bots, the computer, or
    people it covers; nobody presses the page's button), ``ROUND_PAUSE_SECONDS`` after
    the round ended. Called with the version it planned against; returns the new state,
    or None when that is not (or no longer) due."""
    with changing(room_id, version) as change:
        room = change.room
        if room.status != Room.Status.PLAYING:
            return None
        loaded = load(room, change.seats)
        seats, match, rounds = loaded.seats, loaded.match, loaded.rounds
        if match is None or match.finished_at is not None or not rounds:
            return None
        if rounds[-1].finished_at is None or any(s.played_in_person for s in seats):
            return None
        score = match_score(room, match, rounds)
        new = deal_round(room, match, rounds[-1].number + 1, score.next_dealer)
        return change.commit({"kind": "round_started", "round": new.number})


def rematch(*, room_id: int, actor: Actor, at: dict | None = None) -> Match:
    """A new match with the same seats once the match is over.

    Leaving is per match (RULES.md section 6: the computer plays a seat whose human has
    left the match, until that human returns): the finished match keeps who left it
    (``Match.left``), and in the new one a leaver's seat is still theirs, covered, so the
    computer plays it until they come back to the table (``presence.connect`` hands a
    covered seat back)."""
    at = checked_ply(at)
    with changing(room_id) as change:
        room = change.room
        _, match, _ = seated_at_latest_match(change, actor, at, answers="match")
        refuse(refusals.rematch(match_is_over=match.finished_at is not None))
        leavers = [s for s in room.seats.all() if s.left]
        if leavers:
            match.left = sorted({*match.left, *(s.index for s in leavers)})
            match.save(update_fields=["left"])
        for seat in leavers:
            seat.left, seat.covered, seat.away_since = False, True, None
            seat.save(update_fields=["left", "covered", "away_since"])
        new = new_match(room)
        change.commit({"kind": "match_started"})
        return new


def set_computer_speed(*, room_id: int, actor: Actor, speed: object) -> None:
    """The host sets how fast the computer plays its seats (``schedule.COMPUTER_SPEEDS``):
    the next computer move is planned at the new pace."""
    with changing(room_id) as change:
        room = change.room
        seats = [s.facts for s in change.seats]
        host = plays_as_host(actor, seats, room.host_id, room.host_guest)
        refuse(refusals.speed_change(host=host, speed=speed))
        if speed == room.computer_speed:
            return
        room.computer_speed = speed
        # Its own statement: the commit's swap updates the same row.
        Room.objects.filter(pk=room.pk).update(computer_speed=speed)
        change.commit({"kind": "speed_changed", "seat": 0})


def abandon_room(*, room_id: int, version: int) -> RoomState | None:
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
