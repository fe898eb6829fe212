"""The one way to change a room, shared by every service.

A change runs inside ``transaction.atomic()`` with the room's row locked, is refused
unless the action answers the move the room is at (its *ply*: match, round and draw
number; ``checked_ply`` checks its shape, ``games.refusals.stale`` compares it), applies
itself, and commits: the room's ``version`` moves on by one with a compare-and-swap (so
the rule holds on SQLite too, where row locks do not exist), the server's next own move is
planned (``Room.due_at``), and the new state is broadcast only after the commit. A draw
reads the room and its seats in one statement and writes everything in one more: its
``Draw`` row and the round ride along with the swap (``Change.insert``, ``update``).
"""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import schedule
from games.engine.shapes import RoomState
from games.errors import ActionError
from games.models import Room
from games.refusals import PLY_FIELDS
from games.services import publish, resident, sql
from games.state import Loaded, load, room_state

#: The bot's token a socket's frame acts with (the bot's id and the token's hash), while
#: its service runs (``with_token``).
_token: ContextVar[tuple[int, str] | None] = ContextVar("bot_token", default=None)


@contextmanager
def bot_token(token: tuple[int, str] | None):
    """For a frame of a socket opened with a bot's token (``token``: the bot's id and the
    token's hash; None for any other socket): a change made within commits only while
    that token is still the bot's, checked in the commit's own statement
    (``sql.while_token``). A token revoked or replaced commits either before the change,
    which is then refused as ``stale_version``, or after it: a frame still on its way as
    its socket is closed for the revoke is never applied after it."""
    if token is None:
        yield
        return
    reset = _token.set(token)
    try:
        yield
    finally:
        _token.reset(reset)


def with_token(token: tuple[int, str] | None, do):
    """``do()`` within ``bot_token(token)``."""
    with bot_token(token):
        return do()


class Change:
    """The room, locked, inside a transaction; ``commit`` moves the version on."""

    def __init__(
        self,
        room: Room,
        seats: list | None = None,
        *,
        guarded: bool = False,
        on_loop: bool = False,
    ):
        self.room = room
        #: Made without the room's lock, from the room this process kept
        #: (``games.services.resident``): the commit's swap decides whether it writes.
        self.guarded = guarded or on_loop
        #: Made on the event loop: ``commit`` leaves its statement for ``sent_on_loop``.
        self.on_loop = on_loop
        #: The room's seats as read with the lock (before this change touched any).
        self.seats = seats
        #: The room's seats, latest match and its rounds, once read for this change
        #: (``state.load``); the new state is built from them, as changed.
        self.loaded: Loaded | None = None
        #: The state this change commits (set by ``commit``).
        self.state: RoomState | None = None
        #: Writes that go with the room's compare-and-swap (``insert``, ``update``): on
        #: PostgreSQL the commit sends them and the swap as one statement.
        self.writes: list = []
        #: Whether the lobby lists the room as it was at the lock (listed and waiting).
        self.in_lobby = room.listed and room.status == Room.Status.WAITING
        #: A public table's status as it was at the lock: the lobby counts the people
        #: waiting and lists the tables in play, so a seat taken or given back while it
        #: waits, and its start and end, are the lobby's news (its draws are not).
        self.public_status = room.status if room.public else None

    def insert(self, obj) -> None:
        """INSERT ``obj`` with the commit's own statement (its key is not read back)."""
        self.writes.append(sql.insert_statement(obj))

    def update(self, obj, fields: list[str]) -> None:
        """UPDATE ``obj``'s ``fields`` with the commit's own statement."""
        self.writes.append(sql.update_statement(obj, fields))

    def commit(self, event: dict | None = None, *, keep: bool = False) -> RoomState:
        """Move the version on, plan the server's next move, and broadcast after the
        commit. Returns the new state. ``keep``: once committed, this process keeps the
        room as changed for its next draw (``games.services.resident``), before the
        broadcast goes out: the drawer's socket may answer it within a millisecond, and a
        draw that finds the room not kept yet takes the locked path.

        A change made ``on_loop`` is not written yet when this returns: its caller sends
        the statement (``sent_on_loop``)."""
        room = self.room
        before = room.version
        room.version, room.updated_at = before + 1, timezone.now()
        loaded = self.loaded if self.loaded is not None else load(room)
        self.state = state = room_state(room, loaded, event)
        due = schedule.next_due(state)
        room.due_at = datetime.fromtimestamp(due.at, UTC) if due else None
        fields = ["version", "status", "updated_at", "due_at", "unattended_since"]
        # Unlocked, the room's code too: a kept room is never mistaken for another room
        # that took its key (SQLite reuses keys once rows are deleted).
        where = {"version": before, **({"code": room.code} if self.guarded else {})}
        swap = sql.update_statement(room, fields, where=where)
        token = _token.get()
        if token is not None:  # a bot's frame: only while its token is the bot's
            swap = sql.while_token(swap, *token)
        self.swap, self.keep = swap, keep
        if not self.on_loop:
            self.written(sql.execute(swap, riders=self.writes, guarded=self.guarded))
        return state

    async def sent_on_loop(self) -> None:
        """Send a change made ``on_loop`` from the event loop (``sql.execute_on_loop``),
        then as ``commit`` goes on. Once sent, the rest runs whether or not the caller is
        cancelled meanwhile: a committed change is always kept and broadcast."""
        assert self.on_loop and self.state is not None, "commit() first"

        async def send() -> None:
            self.written(await sql.execute_on_loop(self.swap, self.writes))

        sent = asyncio.ensure_future(send())
        _sending.add(sent)
        sent.add_done_callback(_sending.discard)
        # Its refusal or failure, if the caller was cancelled meanwhile: nobody is left to
        # answer, and the sockets catch up from the database as after any lost change.
        sent.add_done_callback(lambda task: task.cancelled() or task.exception())
        await asyncio.shield(sent)

    def written(self, rows: int) -> None:
        """The commit's statement changed ``rows`` rooms: refused as stale unless one, else
        the news of the change once committed."""
        room, state, loaded = self.room, self.state, self.loaded
        assert state is not None
        if rows != 1:
            room.version = state["version"] - 1  # someone else changed the room first
            raise ActionError("stale_version", _("The table changed before this action."))
        if self.keep and loaded is not None:  # a draw's: it loaded the room
            self.after_commit(lambda: resident.keep(room, loaded))
        self.after_commit(lambda: publish.room_changed(room.pk, state))
        public = self.public_status is not None and (
            self.public_status == Room.Status.WAITING or room.status != self.public_status
        )
        if public or self.in_lobby or (room.listed and room.status == Room.Status.WAITING):
            # The lobby lists waiting rooms only: a playing room's changes are not its news.
            self.after_commit(publish.lobby_changed)

    def after_commit(self, do) -> None:
        """``do()`` once this change is committed: at once for a guarded change (its one
        statement was the whole transaction), else when the transaction commits."""
        publish.after_commit(do, committed=self.guarded)


#: The statements of changes made on the event loop, on their way (``sent_on_loop``).
_sending: set[asyncio.Future] = set()


async def all_sent() -> None:
    """Until every change made on this process's event loops and sent is written (or
    refused) and handed over: a change's caller cancelled meanwhile (the driver stopping,
    a socket gone) does not wait for it, so shutting down does (``driver.stop_all``)."""
    while _sending:
        await asyncio.gather(*list(_sending), return_exceptions=True)


@contextmanager
def changing(room_id: int, version: object = None):
    """A transaction holding the room's row lock, refusing a stale ``version`` (the
    server's own moves name the version they were planned against)."""
    version = _check_whole_number(version, "version")
    resident.forget(room_id)  # what this change writes is read back from the database
    with transaction.atomic():
        room, seats = sql.lock_room(room_id)  # with the spectator count, for the new state
        if room is None:
            raise ActionError("not_allowed", _("This room does not exist."))
        if version is not None and version != room.version:
            raise ActionError("stale_version", _("The table has moved on."))
        yield Change(room, seats)


def checked_ply(at: dict | None) -> dict | None:
    """``at``, the move a player's action names (``refusals.PLY_FIELDS``), refused as
    ``malformed`` unless each field it gives is a whole number; the services compare it
    with the room's move (``refusals.stale``) in their order of checks."""
    if at is not None:
        for field in PLY_FIELDS:
            if field in at:
                _check_whole_number(at[field], field)
    return at


def _check_whole_number(value: object, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError("malformed", _("%(name)s must be a whole number.") % {"name": name})
    return value
