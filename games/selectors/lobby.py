"""The lobby's lists: the listed rooms waiting for players, how many wait for each game
and size at Play now, and the public tables in play."""

from __future__ import annotations

from django.db.models import Count, Q

from games.models import SEAT_HELD, Room, Seat


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


def play_now_lines() -> list[dict]:
    """How many people wait at Play now for each game and size, where anyone does."""
    rows = (
        Seat.objects.filter(room__public=True, room__status=Room.Status.WAITING)
        .filter(SEAT_HELD)
        .values("room__variant", "room__seat_count")
        .annotate(waiting=Count("pk"))
        .order_by("room__variant", "room__seat_count")
    )
    return [
        {"variant": r["room__variant"], "seats": r["room__seat_count"], "waiting": r["waiting"]}
        for r in rows
    ]


def public_tables(limit: int = 20) -> list[dict]:
    """Public tables in play, newest first, for anyone to watch: the game, the size and
    how many of its seats people (or their bots) hold."""
    rooms = (
        Room.objects.filter(public=True, status=Room.Status.PLAYING)
        .annotate(people=Count("seats", filter=Q(seats__is_computer=False)))
        .order_by("-created_at")[:limit]
    )
    return [
        {"code": r.code, "variant": r.variant, "seats": r.seat_count, "people": r.people}
        for r in rooms
    ]


def lobby() -> dict:
    """Everything the lobby shows live, as the lobby socket sends it."""
    return {"rooms": lobby_rooms(), "waiting": play_now_lines(), "tables": public_tables()}
