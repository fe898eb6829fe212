"""What the table socket reads: whether a socket may see a room (``socket_access``) and
the room's state as of one moment (``snapshot``)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction

from games.engine.shapes import RoomState
from games.models import Room
from games.selectors.rooms import may_view, room_by_code
from games.state import load, room_state


@dataclass(frozen=True)
class Access:
    room_id: int
    same_device: bool


def socket_access(code: str, actor, token: str) -> Access | bool | None:
    """May this socket see the room? Seated players, the host, anyone in a listed room,
    and anyone holding the invitation or the watch token. ``None``: no such room (a
    malformed code counts as none); ``False``: a room this socket may not see (a malformed
    token counts as a wrong one)."""
    room = room_by_code(code)
    if room is None:
        return None
    if not may_view(room, actor, token):
        return False
    return Access(room_id=room.pk, same_device=room.mode == Room.Mode.SAME_DEVICE)


def snapshot(room_id: int) -> RoomState | None:
    """The room's state as of one moment: its version matches its content, even while a
    draw commits between the statements that read it."""
    with _one_moment():
        room = Room.objects.filter(pk=room_id).first()
        return room_state(room, load(room)) if room else None


@contextmanager
def _one_moment():
    """A read-only transaction whose statements all see one snapshot of the database.

    PostgreSQL's default (read committed) lets each statement see what committed before
    it; repeatable read fixes the snapshot at the first. SQLite's transactions are
    serialised (``BEGIN IMMEDIATE``, config/settings.py), so every transaction is one
    moment there."""
    if connection.in_atomic_block:  # already inside a change: its reads are its own
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield
