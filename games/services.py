"""The only code that changes a room (DESIGN.md: one writer per room).

Every change runs inside ``transaction.atomic()`` with the room row locked, checks the
version the action was made against, applies the change, moves ``Room.version`` on by
one (a compare-and-swap, so the rule holds on SQLite too), and broadcasts the new state
only after the commit. Human draws, computer draws, takeovers, leaving and resigning all
go through here; computer seats are not special paths.
"""

from __future__ import annotations

import random
import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast, rows
from games.engine import (
    MatchRules,
    Options,
    RoundState,
    RulesError,
    arrange_after_own_draw,
    check_level,
    choose_position,
    get_variant,
    seeded,
)
from games.errors import ActionError
from games.models import Draw, Match, Presence, Room, Round, Seat, Watcher
from games.state import load, match_score, room_state

_system_random = random.SystemRandom()


@dataclass(frozen=True)
class Actor:
    """Who is acting: a signed-in user or a guest browser."""

    user_id: int | None = None
    guest: str = ""

    def controls(self, seat: Seat) -> bool:
        if self.user_id is not None and seat.user_id == self.user_id:
            return True
        return bool(self.guest) and seat.guest == self.guest

    def owns(self, room: Room) -> bool:
        if self.user_id is not None and room.host_id == self.user_id:
            return True
        return bool(self.guest) and room.host_guest == self.guest


# -- the one way to change a room ------------------------------------------------------


class _Change:
    """The room, locked, inside a transaction; ``commit`` bumps the version."""

    def __init__(self, room: Room):
        self.room = room
        #: The room's seats, latest match and its rounds, once read for this change
        #: (``state.load``); the new state is built from them, as changed.
        self.loaded: tuple | None = None

    def commit(self, event: dict | None = None) -> None:
        room = self.room
        now = timezone.now()
        before = room.version
        room.version, room.updated_at = before + 1, now
        updated = rows.update(room, ["version", "status", "updated_at"], where={"version": before})
        if updated != 1:  # someone else changed the room first
            room.version = before
            raise ActionError("stale_version", _("The table changed before this action."))
        state = room_state(room, event, self.loaded)
        transaction.on_commit(lambda: broadcast.room_changed(room.pk, state))
        if room.listed:
            transaction.on_commit(broadcast.lobby_changed)


@contextmanager
def _changing(room_id: int, version: object = None):
    """A transaction holding the room's row lock, refusing a stale ``version``."""
    version = _check_version(version)
    with transaction.atomic():
        yield _locked(room_id, version)


def _locked(room_id: int, version: int | None) -> _Change:
    room = rows.lock_room(room_id)  # with the spectator count, for the new state
    if room is None:
        raise ActionError("not_allowed", _("This room does not exist."))
    if version is not None and version != room.version:
        raise ActionError(
            "stale_version",
            _("The table has moved on (you acted on version %(yours)s, it is at %(now)s).")
            % {"yours": version, "now": room.version},
        )
    return _Change(room)


def _check_version(version: object) -> int | None:
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int):
        raise ActionError("malformed", _("version must be a whole number."))
    return version


# -- creating and filling rooms ----------------------------------------------------------


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
) -> Room:
    """Open a room. Versus computer and same-device rooms start at once."""
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
        )
        for index in range(seat_count):
            seat = Seat(room=room, index=index)
            human = index == 0 or mode == Room.Mode.SAME_DEVICE
            if human:
                seat.user_id, seat.guest = actor.user_id, "" if actor.user_id else actor.guest
                seat.name = name if mode != Room.Mode.SAME_DEVICE else f"{name} {index + 1}"
            elif mode == Room.Mode.COMPUTER:
                # Computer seats store no name: each page names them in its language.
                seat.is_computer = True
            seat.save()
        if mode != Room.Mode.FRIENDS:
            change = _Change(room)
            _start_match(room)
            change.commit({"kind": "match_started"})
        elif room.listed:
            transaction.on_commit(broadcast.lobby_changed)
    return room


def join_room(*, room_id: int, actor: Actor, name: str) -> Seat:
    """Take the first free seat of a waiting friends room (again: the same seat)."""
    with _changing(room_id) as change:
        room = change.room
        seats = list(room.seats.all())
        mine = next((s for s in seats if actor.controls(s)), None)
        if mine is not None:
            return mine
        if room.mode != Room.Mode.FRIENDS:
            raise ActionError("not_allowed", _("Only friends rooms take new players."))
        if room.status != Room.Status.WAITING:
            raise ActionError("already_started", _("This match has already started."))
        free = next((s for s in seats if s.is_empty), None)
        if free is None:
            raise ActionError("room_full", _("Every seat is taken."))
        free.user_id, free.guest = actor.user_id, "" if actor.user_id else actor.guest
        free.name = name
        free.save()
        change.commit({"kind": "seat_taken", "seat": free.index})
        return free


def remove_player(*, room_id: int, actor: Actor, seat_index: int) -> None:
    """The host frees a waiting player's seat before the start."""
    with _changing(room_id) as change:
        room = change.room
        if not actor.owns(room):
            raise ActionError("not_host", _("Only the host may remove a player."))
        if room.status != Room.Status.WAITING:
            raise ActionError("already_started", _("Players can only be removed before the start."))
        seat = room.seats.filter(index=seat_index).first()
        if seat is None or seat.index == 0 or seat.is_empty:
            raise ActionError("not_allowed", _("There is no waiting player in that seat."))
        seat.user_id, seat.guest, seat.name, seat.is_computer = None, "", "", False
        seat.save()
        change.commit({"kind": "seat_freed", "seat": seat_index})


def start_match(*, room_id: int, actor: Actor, fill_with_computers: bool = False) -> None:
    """The host starts a waiting friends room, filling empty seats with computers if asked."""
    with _changing(room_id) as change:
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
    state = RoundState.deal_from_seed(room.variant, room.seat_count, dealer, seed, room.options)
    return Round.objects.create(
        match=match,
        number=number,
        dealer=dealer,
        seed=seed.hex(),
        commitment=seeded.commitment(seed),
        dealt=state.dealt,
        removed=list(state.removed),
        state=state.to_dict(),
    )


# -- play ---------------------------------------------------------------------------------


def _current(room: Room) -> tuple[Match, Round, RoundState]:
    match = room.matches.order_by("-number").first()
    if match is None:
        raise ActionError("not_started", _("The match has not started yet."))
    rnd = match.rounds.order_by("-number").first()
    return match, rnd, RoundState.from_dict(rnd.state)


def draw(*, room_id: int, actor: Actor, version: int | None, position: object) -> Draw:
    """A human draws the card at ``position`` of the giver's hand."""
    if isinstance(position, bool) or not isinstance(position, int):
        raise ActionError("malformed", _("position must be a whole number."))
    with _changing(room_id, version) as change:
        match, rnd, state, seat = _playable(change)
        if not actor.controls(seat):
            raise ActionError("not_your_turn", _("It is not your turn to draw."))
        if seat.played_by_computer:
            raise ActionError("not_your_turn", _("The computer is playing this seat."))
        return _apply_draw(change, match, rnd, state, seat, position, by_computer=False)


def computer_turn(*, room_id: int, version: int) -> Draw | None:
    """The computer draws for the current drawer, if the computer plays that seat.

    Called by the driver with the version it planned against, so a computer never draws
    twice for one turn: a second call for the same turn finds the version moved on.
    """
    with _changing(room_id, version) as change:
        match, rnd, state, seat = _playable(change)
        if not seat.played_by_computer:
            return None
        position = choose_position(state, _system_random)
        return _apply_draw(change, match, rnd, state, seat, position, by_computer=True)


def _playable(change: _Change) -> tuple[Match, Round, RoundState, Seat]:
    """The match, round and round state to draw in, and the drawer's seat."""
    room = change.room
    if room.status == Room.Status.WAITING:
        raise ActionError("not_started", _("The match has not started yet."))
    seats, match, rounds = change.loaded = load(room)
    if match is None or not rounds:
        raise ActionError("not_started", _("The match has not started yet."))
    rnd = rounds[-1]
    state = RoundState.from_dict(rnd.state)
    if match.finished_at is not None:
        raise ActionError("match_over", _("The match is over."))
    if state.over:
        raise ActionError("round_over", _("The round is over."))
    seat = next(s for s in seats if s.index == state.drawer)
    return match, rnd, state, seat


def _apply_draw(change, match, rnd, state, seat, position, *, by_computer) -> Draw:
    try:
        result = state.draw(position)
    except RulesError as exc:
        raise ActionError(
            "bad_position", _("That card is not in the hand you are drawing from.")
        ) from exc
    level = change.room.computer_level if seat.played_by_computer else None
    arrange_after_own_draw(state, result.drawer, _system_random, level)
    row = Draw(
        round=rnd,
        number=result.number,
        drawer=result.drawer,
        giver=result.giver,
        position=result.position,
        card=result.card,
        paired_with=result.paired_with or "",
        finished=list(result.finished),
        hand_after=state.hand(result.drawer),
        by_computer=by_computer,
    )
    rows.insert(row)
    rnd.state = state.to_dict()
    fields = ["state"]
    if state.over:
        rnd.ranking, rnd.holder, rnd.finished_at = state.ranking, state.holder, timezone.now()
        fields += ["ranking", "holder", "finished_at"]
    rows.update(rnd, fields)
    if state.over:
        _finish_round(change.room, match, change.loaded[2])
    event = {"kind": "draw", **result.as_dict(), "by_computer": by_computer}
    event["hand_after"] = row.hand_after
    change.commit(event)
    return row


def _finish_round(room: Room, match: Match, rounds: list[Round]) -> None:
    score = match_score(room, match, rounds)
    if score.over:
        _end_match(room, match, score.winners(), score.losers())


def _end_match(room: Room, match: Match, winners, losers, ended_by=None) -> None:
    match.winners, match.losers, match.ended_by = winners, losers, ended_by
    match.finished_at = timezone.now()
    match.save(update_fields=["winners", "losers", "ended_by", "finished_at"])
    room.status = Room.Status.FINISHED


def next_round(*, room_id: int, actor: Actor, version: int | None) -> Round:
    """Deal the match's next round once the current one is over (any seated human)."""
    with _changing(room_id, version) as change:
        room = change.room
        _require_seated(room, actor)
        match, rnd, state = _current(room)
        if match.finished_at is not None:
            raise ActionError("match_over", _("The match is over: start a rematch instead."))
        if not state.over:
            raise ActionError("round_in_play", _("The round is still being played."))
        score = match_score(room, match, list(match.rounds.all()))
        new = _deal_round(room, match, rnd.number + 1, score.next_dealer)
        change.commit({"kind": "round_started", "round": new.number})
        return new


def rematch(*, room_id: int, actor: Actor, version: int | None) -> Match:
    """A new match with the same seats once the match is over."""
    with _changing(room_id, version) as change:
        room = change.room
        _require_seated(room, actor)
        match = room.matches.order_by("-number").first()
        if match is None or match.finished_at is None:
            raise ActionError("match_in_play", _("The match is still being played."))
        new = _start_match(room)
        change.commit({"kind": "match_started"})
        return new


def _require_seated(room: Room, actor: Actor) -> list[Seat]:
    mine = [s for s in room.seats.all() if actor.controls(s) and not s.left]
    if not mine:
        raise ActionError("not_seated", _("Only the players at this table may do that."))
    return mine


# -- leaving, resigning, takeovers ------------------------------------------------------------


def leave_match(*, room_id: int, actor: Actor, version: int | None) -> None:
    """With 3+ seats: the computer plays the leaver's seat for the rest of the match."""
    with _changing(room_id, version) as change:
        room = change.room
        if room.seat_count < 3:
            raise ActionError("not_allowed", _("With two seats, resign instead of leaving."))
        if room.status != Room.Status.PLAYING:
            raise ActionError("not_started", _("The match is not being played."))
        mine = _require_seated(room, actor)
        for seat in mine:
            seat.left, seat.covered = True, False
            seat.save(update_fields=["left", "covered"])
        change.commit({"kind": "seat_left", "seats": [s.index for s in mine]})


def resign(*, room_id: int, actor: Actor, version: int | None) -> None:
    """With 2 seats: the match ends as a loss for the resigner."""
    with _changing(room_id, version) as change:
        room = change.room
        if room.seat_count != 2:
            raise ActionError(
                "not_allowed",
                _("With three or more seats, leave instead: the computer takes over."),
            )
        if room.status != Room.Status.PLAYING:
            raise ActionError("not_started", _("The match is not being played."))
        (seat,) = _require_seated(room, actor)[:1]
        match, _rnd, _state = _current(room)
        other = 1 - seat.index
        _end_match(room, match, [other], [seat.index], {"seat": seat.index, "how": "resign"})
        change.commit({"kind": "resigned", "seat": seat.index})


def cover_seat(*, room_id: int, seat_index: int, version: int) -> bool:
    """The computer starts playing a human seat whose connection stayed down too long."""
    with _changing(room_id, version) as change:
        seat = change.room.seats.get(index=seat_index)
        grace = timedelta(seconds=settings.SEAT_GRACE_SECONDS)
        if (
            seat.is_computer
            or seat.covered
            or seat.left
            or seat.away_since is None
            or timezone.now() - seat.away_since < grace
            or change.room.status != Room.Status.PLAYING
        ):
            return False
        seat.covered = True
        seat.save(update_fields=["covered"])
        change.commit({"kind": "seat_covered", "seat": seat_index})
        return True


# -- presence: which humans are connected ----------------------------------------------------


def connect(*, room_id: int, actor: Actor, channel_name: str) -> list[int]:
    """A socket opened: record its presence and hand covered seats back to their human."""
    with _changing(room_id) as change:
        mine = [
            s
            for s in change.room.seats.all()
            if actor.controls(s) and not s.is_computer and not s.left
        ]
        now = timezone.now()
        changed = []
        for seat in mine:
            Presence.objects.update_or_create(
                channel_name=channel_name, seat=seat, defaults={"last_seen": now}
            )
            if seat.covered or seat.away_since is not None:
                changed.append(seat.index)
                seat.covered, seat.away_since = False, None
                seat.save(update_fields=["covered", "away_since"])
        if changed:
            change.commit({"kind": "seat_back", "seats": changed})
        return [s.index for s in mine]


def heartbeat(*, channel_name: str) -> None:
    rows.touch(channel_name, timezone.now())


def start_watching(*, room_id: int, channel_name: str) -> None:
    """A spectator's socket opened: everyone sees the spectator count change."""
    Watcher.objects.update_or_create(
        channel_name=channel_name, defaults={"room_id": room_id, "last_seen": timezone.now()}
    )
    _spectators_changed(room_id)


def stop_watching(*, room_id: int, channel_name: str) -> None:
    Watcher.objects.filter(channel_name=channel_name).delete()
    _spectators_changed(room_id)


def _spectators_changed(room_id: int) -> None:
    from games.selectors import spectator_count

    count = spectator_count(room_id)
    transaction.on_commit(lambda: broadcast.spectators_changed(room_id, count))


def disconnect(*, room_id: int, channel_name: str) -> None:
    """A socket closed: a seat with no other fresh connection is now away."""
    with _changing(room_id) as change:
        seat_ids = list(
            Presence.objects.filter(channel_name=channel_name).values_list("seat_id", flat=True)
        )
        Presence.objects.filter(channel_name=channel_name).delete()
        if _mark_away(change.room, seat_ids, timezone.now()):
            change.commit({"kind": "seat_away"})


def _mark_away(room: Room, seat_ids, since) -> bool:
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    changed = False
    for seat in Seat.objects.filter(pk__in=seat_ids, room=room, away_since__isnull=True):
        if not seat.presences.filter(last_seen__gte=fresh).exists():
            seat.away_since = since
            seat.save(update_fields=["away_since"])
            changed = True
    return changed


def sweep_stale_presences(*, room_id: int) -> bool:
    """Connections left by a process that died: drop them and mark their seats away."""
    stale_before = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    with _changing(room_id) as change:
        stale = Presence.objects.filter(seat__room=change.room, last_seen__lt=stale_before)
        seat_ids = list(stale.values_list("seat_id", flat=True))
        if not seat_ids:
            return False
        stale.delete()
        watchers = Watcher.objects.filter(room=change.room, last_seen__lt=stale_before)
        if watchers.delete()[0]:
            _spectators_changed(room_id)
        if _mark_away(change.room, seat_ids, stale_before):
            change.commit({"kind": "seat_away"})
            return True
        return False


# -- accounts ---------------------------------------------------------------------------------


def claim_guest_games(*, guest: str, user_id: int) -> int:
    """A guest who signs up keeps their games: their seats and rooms become the user's."""
    if not guest:
        return 0
    with transaction.atomic():
        seats = Seat.objects.filter(guest=guest).update(guest="", user_id=user_id)
        Room.objects.filter(host_guest=guest).update(host_guest="", host_id=user_id)
    return seats


__all__ = [
    "claim_guest_games",
    "Actor",
    "computer_turn",
    "connect",
    "cover_seat",
    "create_room",
    "disconnect",
    "draw",
    "heartbeat",
    "join_room",
    "leave_match",
    "next_round",
    "rematch",
    "remove_player",
    "resign",
    "start_match",
    "sweep_stale_presences",
]
