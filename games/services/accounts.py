"""Accounts and the games they hold."""

from __future__ import annotations

from django.db import transaction

from games.models import Room, Seat


def claim_guest_games(*, guest: str, user_id: int) -> int:
    """A guest who signs up keeps their games: their seats and rooms become the user's."""
    if not guest:
        return 0
    with transaction.atomic():
        seats = Seat.objects.filter(guest=guest).update(guest="", user_id=user_id)
        Room.objects.filter(host_guest=guest).update(host_guest="", host_id=user_id)
    return seats
