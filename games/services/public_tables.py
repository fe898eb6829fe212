"""Play now: a seat at a public table with whoever asked for the same game and table size
within the last few seconds (docs/architecture.md, "Play now").

The queue is the database's: for each game and size, the oldest waiting public table with
a free seat. Pressing Play now locks that game and size's ``PlayNowLine`` row, then takes
the table's first free seat, or opens a new table when none has one, so two people
pressing at the same moment, in any process, sit at one table. A table starts when its
last seat is taken, or by itself ``PLAY_NOW_WAIT_SECONDS`` after its first person sat
down (``games.schedule``: ``start_table``), with online bots whose owners opted them in,
then the computer, in its empty seats. Someone whose page is not connected while the table
waits (closed, or never opened) gives their seat back after ``PLAY_NOW_AWAY_SECONDS``
(``free_seat``; a reload keeps it); a table nobody waits at any more waits for nobody.

Limits (docs/operations.md, "Play now"): one waiting seat per person at a time;
``PLAY_NOW_JOINS_PER_MINUTE`` presses a minute per browser and
``PLAY_NOW_JOINS_PER_MINUTE_PER_ADDRESS`` per address (counted in the shared cache);
``PLAY_NOW_WAITING_PER_GAME`` people waiting for one game at once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import fairness_data
from games.engine import MatchRules, Options, get_variant
from games.errors import ActionError
from games.identity import Actor
from games.labels import VARIANT_NAMES
from games.models import SEAT_HELD, Bot, PlayNowLine, Presence, Room, Seat
from games.names import name_key
from games.services.bot_news import withdraw_challenges
from games.services.change import changing
from games.services.limits import count_one
from games.services.matches import new_match

#: The per-minute counts' window.
MINUTE = 60


def join(
    *, actor: Actor, variant: object, seat_count: object, name: str, address: str = ""
) -> Room:
    """Seat ``actor`` under ``name`` at the public table for ``variant`` with
    ``seat_count`` seats that is filling now (a new one when none is). Returns the table;
    refused (``ActionError``) past any limit, with nothing changed."""
    v, seats = _checked_table(variant, seat_count)
    if actor.user_id is None and not actor.guest:
        raise ActionError("not_seated", _("Open the site in a browser to play."))
    _count_press(actor, address)
    with transaction.atomic():
        _lock_line(v.key, seats)
        waiting_at = _waiting_table_of(actor)
        if waiting_at is not None:
            raise ActionError(
                "already_waiting",
                _("You are already waiting at a table: %(code)s.") % {"code": waiting_at.code},
            )
        if waiting_for(v.key) >= settings.PLAY_NOW_WAITING_PER_GAME:
            raise ActionError(
                "queue_full",
                _("Too many people are waiting for %(game)s right now. Try again in a minute.")
                % {"game": VARIANT_NAMES[v.key]},
            )
        table = (
            Room.objects.filter(
                public=True, status=Room.Status.WAITING, variant=v.key, seat_count=seats
            )
            .order_by("created_at")
            .first()
        )
        if table is None:
            table = _open_table(v, seats)
        _sit(table.pk, actor, name)
    return table


def _checked_table(variant: object, seat_count: object):
    try:
        v = get_variant(str(variant))
        seats = int(str(seat_count))
        v.check_players(seats)
    except (TypeError, ValueError) as exc:
        raise ActionError("not_allowed", _("Choose a game and a table size.")) from exc
    return v, seats


def _count_press(actor: Actor, address: str) -> None:
    """One more press of Play now for ``actor`` and ``address``: refused past either
    minute's limit (every press counts, refused or not: a flood costs a cache write)."""
    who = f"user:{actor.user_id}" if actor.user_id is not None else f"guest:{actor.guest}"
    message = _("You pressed Play now many times in a minute. Wait a moment and try again.")
    if count_one(f"play-now:{who}", MINUTE) > settings.PLAY_NOW_JOINS_PER_MINUTE:
        raise ActionError("too_many_joins", message)
    if address:
        limit = settings.PLAY_NOW_JOINS_PER_MINUTE_PER_ADDRESS
        if count_one(f"play-now:address:{address}", MINUTE) > limit:
            raise ActionError(
                "too_many_joins",
                _(
                    "Many people on your network pressed Play now in the last minute. "
                    "Try again soon."
                ),
            )


def _lock_line(variant: str, seat_count: int) -> None:
    """Hold the game and size's line until the transaction ends: an UPDATE locks the row
    on PostgreSQL and takes SQLite's write lock, so the look for a table and the seat
    taken at it are one step for everyone pressing at once."""
    PlayNowLine.objects.get_or_create(variant=variant, seat_count=seat_count)
    PlayNowLine.objects.filter(variant=variant, seat_count=seat_count).update(
        touched_at=timezone.now()
    )


def _waiting_table_of(actor: Actor) -> Room | None:
    held = actor.seats_query(through="seats__")
    if held is None:
        return None
    return Room.objects.filter(held, public=True, status=Room.Status.WAITING).first()


def waiting_for(variant: str) -> int:
    """People seated at the waiting public tables of ``variant``, every size together."""
    return (
        Seat.objects.filter(
            room__public=True, room__status=Room.Status.WAITING, room__variant=variant
        )
        .filter(SEAT_HELD)
        .count()
    )


def _open_table(v, seat_count: int) -> Room:
    """A new public table: the game's own rules, the site's default deal, the computer at
    its medium level in the seats nobody takes."""
    balanced = fairness_data.balanced_deal(v.key, seat_count) is not None
    room = Room.objects.create(
        variant=v.key,
        seat_count=seat_count,
        options=Options.parse({"balanced_deal": balanced}, v).as_dict(),
        rules=MatchRules.for_variant(v).as_dict(),
        computer_level="medium",
        mode=Room.Mode.FRIENDS,
        public=True,
        unattended_since=timezone.now(),
    )
    Seat.objects.bulk_create(Seat(room=room, index=i) for i in range(seat_count))
    return room


def _sit(room_id: int, actor: Actor, name: str) -> None:
    with changing(room_id) as change:
        room = change.room
        seats = list(room.seats.all())
        taken = {name_key(s.name) for s in seats if not s.is_empty}
        free = next(s for s in seats if s.is_empty)
        free.user_id, free.guest = actor.user_id, "" if actor.user_id else actor.guest
        free.name = _unique(name, taken)
        # Away until their page connects: a person who never opens it gives the seat back
        # after PLAY_NOW_AWAY_SECONDS (free_waiting_seat), as one whose page closes does.
        free.away_since = timezone.now()
        free.save()
        if len(taken) == 0:  # the first person at the table: its wait starts now
            room.starts_at = timezone.now() + timedelta(seconds=settings.PLAY_NOW_WAIT_SECONDS)
            room.save(update_fields=["starts_at"])
        if all(not s.is_empty for s in seats):
            _start(room)
            change.commit({"kind": "match_started"})
        else:
            change.commit({"kind": "seat_taken", "seat": free.index})


def _unique(name: str, taken: set[str]) -> str:
    """Strangers may share a name: the second "Ann" at a table is "Ann 2"."""
    if name_key(name) not in taken:
        return name
    number = 2
    while name_key(f"{name} {number}") in taken:
        number += 1
    return f"{name} {number}"


def start_table(*, room_id: int, version: int):
    """The driver starts a waiting public table whose wait has ended (``start_table``);
    the new state, or None when it is not (or no longer) due."""
    with changing(room_id, version) as change:
        room = change.room
        if not room.public or room.status != Room.Status.WAITING or room.starts_at is None:
            return None
        if room.starts_at > timezone.now():
            return None
        _start(room)
        return change.commit({"kind": "match_started"})


def _start(room: Room) -> None:
    """Inside a change: the table's empty seats go to online bots that play at public
    tables (at most one each, and one bot per table), then to the computer; the match
    starts."""
    empty = [s for s in room.seats.all() if s.is_empty]
    bot = _bot_for(room) if empty else None
    for seat in empty:
        if bot is not None:
            seat.user_id, seat.name, seat.bot = bot.pk, bot.name, True
            bot = None
        else:
            seat.is_computer = True
        seat.save()
    room.starts_at = None
    room.save(update_fields=["starts_at"])
    withdraw_challenges(room)
    new_match(room)


def _bot_for(room: Room) -> Bot | None:
    """An online bot that plays at public tables and is at none now, the longest idle
    first."""
    busy = Seat.objects.filter(
        bot=True,
        room__public=True,
        room__status__in=[Room.Status.WAITING, Room.Status.PLAYING],
    ).values("user_id")
    return (
        Bot.objects.filter(plays_public=True, online_until__gt=timezone.now())
        .exclude(pk__in=busy)
        .exclude(token_hash="")
        .select_related("user")
        .order_by("user__last_login", "pk")
        .first()
    )


def free_waiting_seat(*, room_id: int, seat_index: int, version: int):
    """The driver gives back the seat of a person whose page has not been connected to a
    waiting public table for ``PLAY_NOW_AWAY_SECONDS`` (closed, or never opened); the new
    state, or None when that is not (or no longer) due."""
    with changing(room_id, version) as change:
        room = change.room
        seat = next((s for s in change.seats if s.index == seat_index), None)
        if not room.public or room.status != Room.Status.WAITING or seat is None:
            return None
        grace = timedelta(seconds=settings.PLAY_NOW_AWAY_SECONDS)
        if seat.is_empty or seat.away_since is None or timezone.now() - seat.away_since < grace:
            return None
        leave_waiting(change, [seat])
        return change.commit({"kind": "seat_freed", "seat": seat_index})


def leave_waiting(change, seats: list[Seat]) -> list[int]:
    """Inside a change of a waiting public table: ``seats`` are free again (their
    people's pages closed or never opened, or they chose to leave); a table nobody waits
    at any more stops counting down. The seats freed."""
    room = change.room
    freed = []
    for seat in seats:
        Presence.objects.filter(seat=seat).delete()
        seat.user_id, seat.guest, seat.name, seat.away_since = None, "", "", None
        seat.save(update_fields=["user", "guest", "name", "away_since"])
        freed.append(seat.index)
    if not Seat.objects.filter(room=room).filter(SEAT_HELD).exists():
        room.starts_at = None
        room.save(update_fields=["starts_at"])
    return freed


def leave(*, room_id: int, actor: Actor) -> None:
    """``actor`` gives back their seat at a waiting public table (the page's Leave)."""
    with changing(room_id) as change:
        room = change.room
        mine = actor.seats_in(list(room.seats.all()))
        if not (room.public and room.status == Room.Status.WAITING and mine):
            raise ActionError("not_allowed", _("You are not waiting at this table."))
        freed = leave_waiting(change, mine)
        change.commit({"kind": "seat_freed", "seat": freed[0]})
