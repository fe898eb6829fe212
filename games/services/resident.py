"""The rooms this process keeps in memory between draws, so a draw is one statement.

After a draw commits, the process keeps what the draw read and changed: the room, its
seats, the latest match and its rounds, at the room's new ``version``. The next draw in
that room starts from them instead of locking and reading the rows again, and becomes
durable with one statement (``games.services.sql.execute(guarded=True)``): the room's
compare-and-swap on its version, with the ``Draw`` row and the round riding along only
if the swap changed the row. Nothing else runs without the lock:

- every other change (``games.services.change.changing``) forgets the room here first,
  so a join, a leave or a presence change is always read from the database;
- a swap that fails (another process changed the room), a refusal, or a draw that ends
  its round is tried again on the locked path, which reads the room afresh and answers
  as it always did (``stale_version``, the refusal, the round's end and the match's).

A room's version moves on with every write to its room, seats, match or rounds (every
change goes through the services), so a kept room at the database's version is the
database's room. Rooms a process has not drawn in lately cost nothing: the kept rooms are
bounded (``KEPT_ROOMS``), oldest forgotten first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass

from games.errors import ActionError
from games.models import Room
from games.state import Loaded

#: How many rooms one process keeps at most (a few KB each).
KEPT_ROOMS = 4096


class Missed(Exception):
    """The kept room cannot make this change: make it on the locked path."""


@dataclass(frozen=True)
class Kept:
    room: Room
    #: The room's seats, latest match and its rounds (``games.state.load``), as changed.
    loaded: Loaded


_kept: OrderedDict[int, Kept] = OrderedDict()
_guard = threading.Lock()
#: One draw per room at a time in a process: rooms share these locks by their key.
_draw_locks = [threading.Lock() for _ in range(64)]


def keep(room: Room, loaded: Loaded) -> None:
    """After a draw's commit: ``room`` and what it loaded (seats, match, rounds), as
    changed, are the room at its new version."""
    with _guard:
        _kept[room.pk] = Kept(room, loaded)
        _kept.move_to_end(room.pk)
        while len(_kept) > KEPT_ROOMS:
            _kept.popitem(last=False)


def forget(room_id: int) -> None:
    with _guard:
        _kept.pop(room_id, None)


def forget_all() -> None:
    with _guard:
        _kept.clear()


@contextmanager
def kept(room_id: int, version: int | None = None, *, wait: bool = True):
    """The kept room, for a draw made without the lock; raises ``Missed`` when there is
    none (or not at ``version``, the one a computer move was planned against), and turns
    what the kept room cannot answer for into ``Missed`` too (a refusal, a failed swap:
    the locked path answers them from the database). One draw per room at a time in a
    process; what a failed attempt changed is forgotten with the room. Without ``wait``
    (the event loop, which must never block), ``Missed`` when another draw of the room
    is under way."""
    lock = _draw_locks[room_id % len(_draw_locks)]
    if not lock.acquire(blocking=wait):
        raise Missed
    try:
        with _guard:
            found = _kept.pop(room_id, None)
        if found is None or (version is not None and version != found.room.version):
            raise Missed
        try:
            yield found
        except ActionError as exc:
            raise Missed from exc
    finally:
        lock.release()
