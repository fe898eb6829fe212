"""Accounts and the games they hold: a guest's games kept when they sign up or log in."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from games.models import Presence, Room
from games.services.attendance import note_attendance
from games.services.change import changing


def claim_guest_games(*, guest: str, user_id: int) -> int:
    """A guest who signs up or logs in keeps their games: their seats, and the rooms they
    host, become the user's. Returns the number of seats claimed.

    Each room is one change of its own (its row locked, its version moved on, the new
    state broadcast after the commit), so the room's open sockets learn who holds each
    seat; the guest's own sockets lose the seat (the spectator's view) and stop counting
    as its connections, until the player opens the table as themselves.

    A room where the account already holds a seat keeps that seat as the account's and
    leaves the guest's seat to the guest id (nobody is given two seats silently: the
    guest seat goes on as any seat whose human is away, and the computer covers it).
    """
    if not guest:
        return 0
    rooms = Room.objects.filter(Q(host_guest=guest) | Q(seats__guest=guest)).distinct()
    claimed = 0
    for room_id in sorted(rooms.values_list("pk", flat=True)):
        claimed += _claim_in_room(room_id, guest=guest, user_id=user_id)
    return claimed


def _claim_in_room(room_id: int, *, guest: str, user_id: int) -> int:
    with changing(room_id) as change:
        room = change.room
        seats = change.seats
        taken = [s.index for s in seats if s.guest == guest]
        if any(s.user_id == user_id for s in seats):
            taken = []  # the account already plays here: it keeps its own seat
        now = timezone.now()
        for seat in seats:
            if seat.index in taken:
                seat.user_id, seat.guest = user_id, ""
                # The guest's open sockets no longer hold the seat (they get the
                # spectator's view): they are not its connections any more, so the seat
                # is away until its player opens the table as themselves, and is covered
                # after the grace period rather than stuck on a socket that cannot play.
                if Presence.objects.filter(seat=seat).delete()[0] and not seat.away_since:
                    seat.away_since = now
                seat.save(update_fields=["user", "guest", "away_since"])
        if taken:
            note_attendance(room)
        hosted = room.host_guest == guest
        if hosted:
            room.host_id, room.host_guest = user_id, ""
            room.save(update_fields=["host", "host_guest"])
        if taken or hosted:
            change.commit({"kind": "seat_claimed", "seats": taken})
        return len(taken)
