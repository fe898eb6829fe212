"""Rooms for the pages: a person's rooms, a room by its code, invitation or replay link,
and who may view a room."""

from __future__ import annotations

from games.models import Room


def rooms_of(actor, *, active: bool) -> list[Room]:
    """The rooms where ``actor`` plays a seat (``Actor.plays``: not one they left): still
    open (waiting or playing) or finished."""
    seats = actor.seats_query(through="seats__")
    if seats is None:
        return []
    statuses = [Room.Status.WAITING, Room.Status.PLAYING] if active else [Room.Status.FINISHED]
    return list(
        Room.objects.filter(seats, status__in=statuses).distinct().order_by("-updated_at")[:50]
    )


def room_by_code(code: str) -> Room | None:
    """The room with this public code (a malformed code finds none)."""
    from games.tokens import well_formed_code

    return Room.objects.filter(code=code).first() if well_formed_code(code) else None


def room_invited_by(token: str) -> Room | None:
    """The room whose invitation to play is ``token`` (never its watch token)."""
    from games.tokens import well_formed_token

    return Room.objects.filter(token=token).first() if well_formed_token(token) else None


def round_by_replay_id(replay_id: str):
    """The round this replay link names, with its match and room."""
    from games.models import Round
    from games.tokens import well_formed_token

    if not well_formed_token(replay_id):
        return None
    return Round.objects.select_related("match__room").filter(replay_id=replay_id).first()


def may_view(room: Room, actor, token: str = "") -> bool:
    """Seated players, the host, anyone for a listed room or a public table (Play now),
    and anyone holding the room's
    invitation token or its watch token. A malformed token is just a wrong one."""
    from games.tokens import token_matches

    if room.listed or room.public or actor.owns(room):
        return True
    if actor.seats_in(room.seats.all(), including_left=True):
        return True
    return token_matches(token, room.token) or token_matches(token, room.watch_token)
