"""What the bots seated or asked in a room are told as it changes (docs/bots.md): a match
starting or ending, a seat freed, a challenge withdrawn. Called inside the change by the
room services (``rooms``, ``matches``), sent after the commit (``publish``); it imports
none of them, so the bots' services (``bots``) may use the rooms' without a circle."""

from __future__ import annotations

from functools import partial

from django.utils import timezone

from games.models import Challenge, Room
from games.services import publish


def game_facts(room: Room, seat: int) -> dict:
    """What a bot is told of a game it has a seat in (``gameStart``, ``gameFinish``)."""
    return {"room": room.code, "seat": seat, "variant": room.variant, "seats": room.seat_count}


def withdraw_challenges(room: Room) -> None:
    """Inside a change that starts ``room``: its pending challenges are withdrawn, and
    each bot asked is told (``challengeCanceled``) after the commit."""
    pending = list(room.challenges.filter(status=Challenge.Status.PENDING))
    if not pending:
        return
    Challenge.objects.filter(pk__in=[c.pk for c in pending]).update(
        status=Challenge.Status.CANCELED, answered_at=timezone.now()
    )
    for made in pending:
        event = {"type": "challengeCanceled", "challenge": {"id": made.pk, "room": room.code}}
        publish.after_commit(partial(publish.bot_event, made.bot_id, event))


def tell_seated(room: Room, kind: str, seats=None) -> None:
    """Inside a change: each bot seated in ``room`` (or in ``seats``) is told ``kind``
    (``gameStart`` as a match begins, ``gameFinish`` as it ends or the bot's seat is
    freed) after the commit."""
    if seats is None:
        seats = room.seats.filter(bot=True)
    for seat in seats:
        if seat.bot and seat.user_id is not None:
            event = {"type": kind, "game": game_facts(room, seat.index)}
            publish.after_commit(partial(publish.bot_event, seat.user_id, event))
