"""The lobby's list: the listed rooms waiting for players."""

from __future__ import annotations

from games.models import Room


def lobby_rooms(limit: int = 100) -> list[dict]:
    """Listed rooms waiting for players, newest first, as plain data for the lobby.

    Language-neutral (the variant's key, never its name): the same list goes to every
    lobby socket, and each page names the games in its own reader's language."""
    rooms = (
        Room.objects.filter(listed=True, status=Room.Status.WAITING)
        .select_related("host")
        .prefetch_related("seats")
        .order_by("-created_at")[:limit]
    )
    return [
        {
            "code": room.code,
            "variant": room.variant,
            "taken": sum(1 for s in room.seats.all() if not s.is_empty),
            "seats": room.seat_count,
            "options": room.options,
            "rules": room.rules,
            "host": room.host_label(list(room.seats.all())),
        }
        for room in rooms
    ]
