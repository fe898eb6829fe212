"""The statements a change writes with, without the ORM's query compiler (the reads they
share live in ``games.rows``). Only the services import this module: an import-linter
contract in ``pyproject.toml`` keeps it so."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Sequence
from datetime import timedelta

import psycopg
from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    OperationalError,
    connection,
    connections,
    transaction,
)
from django.utils import timezone

from games.models import Bot, Room, Seat
from games.rows import build, columns, model_field, table


def lock_room(room_id: int) -> tuple[Room | None, list[Seat]]:
    """The room, its row locked for this transaction (where the database can), with the
    number of spectators' live sockets as ``spectators_now``, and its seats as they were
    at the lock: one statement."""
    lock = " FOR UPDATE OF r" if connection.features.has_select_for_update_of else ""
    if not lock and connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    sql = (
        f"SELECT {columns(Room, 'r')}, "
        f'(SELECT COUNT(*) FROM "{table("Watcher")}" w '
        f'WHERE w."room_id" = r."id" AND w."last_seen" >= %s), {columns(Seat, "s")} '
        f'FROM "{Room._meta.db_table}" r LEFT JOIN "{Seat._meta.db_table}" s '
        f'ON s."room_id" = r."id" WHERE r."id" = %s ORDER BY s."index"{lock}'
    )
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    fresh = model_field("Watcher", "last_seen").get_db_prep_save(fresh, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [fresh, room_id])
        rows = cursor.fetchall()
    if not rows:
        return None, []
    width = len(Room._meta.concrete_fields)
    room = build(Room, list(rows[0][:width]))
    room.spectators_now = rows[0][width]
    seats = [build(Seat, list(row[width + 1 :])) for row in rows if row[width + 1] is not None]
    return room, seats


Statement = tuple[str, list]


def insert_statement(obj) -> Statement:
    """The INSERT of ``obj`` (a new model instance), without reading its key back."""
    model = type(obj)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    db = connections[DEFAULT_DB_ALIAS]  # the thread's connection, looked up once
    values = [f.get_db_prep_save(f.pre_save(obj, True), db) for f in fields]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ({marks})', values


def insert(obj) -> None:
    """INSERT ``obj`` (a new model instance) and set its primary key."""
    sql, values = insert_statement(obj)
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += ' RETURNING "id"'
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        obj.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    obj._state.adding = False
    obj._state.db = connection.alias


def update_statement(obj, names: list[str], *, where: dict | None = None) -> Statement:
    """The UPDATE of the fields ``names`` of ``obj``'s row (and only if the row also
    matches ``where``, column name to value)."""
    model = type(obj)
    fields = [model._meta.get_field(name) for name in names]
    db = connections[DEFAULT_DB_ALIAS]  # the thread's connection, looked up once
    values = [f.get_db_prep_save(getattr(obj, f.attname), db) for f in fields]
    assignments = ", ".join(f'"{f.column}" = %s' for f in fields)
    conditions = "".join(f' AND "{column}" = %s' for column in where or {})
    sql = f'UPDATE "{model._meta.db_table}" SET {assignments} WHERE "id" = %s{conditions}'
    return sql, [*values, obj.pk, *(where or {}).values()]


def while_token(statement: Statement, bot_id: int, token: str) -> Statement:
    """``statement`` (an UPDATE) changing nothing unless ``token`` (a token's hash) is
    still the bot's. On PostgreSQL the bot's row is share-locked until the transaction
    ends: a revoke, which locks the row to write it, waits for this change to commit, and
    a change that comes while a revoke is being written waits for it and then finds the
    token gone. SQLite writes one transaction at a time."""
    lock = " FOR SHARE" if connection.features.has_select_for_update else ""
    sql, params = statement
    sql += (
        f' AND EXISTS (SELECT 1 FROM "{Bot._meta.db_table}" WHERE "{Bot._meta.pk.column}" = %s'
        f' AND "{Bot._meta.get_field("token_hash").column}" = %s{lock})'
    )
    return sql, [*params, bot_id, token]


def update(obj, names: list[str], *, where: dict | None = None) -> int:
    """UPDATE the fields ``names`` of ``obj``'s row (and only if the row also matches
    ``where``); the number of rows changed."""
    return execute(update_statement(obj, names, where=where))


def execute(
    statement: Statement, *, riders: Sequence[Statement] = (), guarded: bool = False
) -> int:
    """Run ``statement`` and the ``riders`` (writes returning nothing) with it; the number
    of rows ``statement`` changed. On PostgreSQL the riders travel in the same statement,
    as data-modifying WITH clauses: one round trip for all of a change's writes.

    ``guarded``: the riders apply only if ``statement`` (an UPDATE) changed a row, for a
    change made without the room's lock (``games.services.resident``): the room's
    compare-and-swap decides, in the same statement, whether anything is written."""
    if guarded:
        return _execute_guarded(statement, riders)
    sql, params = statement
    with connection.cursor() as cursor:
        if riders and connection.vendor == "postgresql":
            clauses = ", ".join(f"w{i} AS ({rider})" for i, (rider, _) in enumerate(riders))
            sql = f"WITH {clauses} {sql}"
            params = [*(value for _, values in riders for value in values), *params]
        else:
            for rider in riders:
                cursor.execute(*rider)
        cursor.execute(sql, params)
        return cursor.rowcount


def _execute_guarded(statement: Statement, riders: Sequence[Statement]) -> int:
    sql, params = statement
    if connection.vendor != "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
            if cursor.rowcount != 1:
                return cursor.rowcount
            for rider in riders:
                cursor.execute(*rider)
            return 1
    return _own_connection_count(*_guarded(statement, riders))


def _guarded(statement: Statement, riders: Sequence[Statement]) -> Statement:
    """PostgreSQL's one statement for a guarded change: the swap, and the riders as
    data-modifying WITH clauses that apply only if the swap changed a row."""
    sql, params = statement
    clauses = [f"s AS ({sql} RETURNING 1)"]
    values = list(params)
    for i, (rider_sql, rider_values) in enumerate(riders):
        clauses.append(f"w{i} AS ({_only_if_swapped(rider_sql)})")
        values += rider_values
    return f"WITH {', '.join(clauses)} SELECT COUNT(*) FROM s", values


# -- the guarded statement's own connection (PostgreSQL) -------------------------------------
#
# Django hands a worker thread a connection from the pool for each call, checked with a
# round trip as it leaves the pool, and takes it back after: two round trips and the
# pool's bookkeeping for a one-statement draw. The guarded statement runs instead on a
# connection the worker thread keeps (autocommit, prepared statements, Django's
# adapters), opened on first use. A guarded statement may be sent again: if the first
# try committed before its connection failed, the room's version moved on and the second
# try writes nothing (and the draw goes to the locked path, which answers it).

_own = threading.local()
_opened: weakref.WeakSet = weakref.WeakSet()
_opened_lock = threading.Lock()


def _own_connection_count(sql: str, values: list) -> int:
    for attempt in (1, 2):
        own = getattr(_own, "connection", None)
        if own is None or own.closed or own.info.dbname != _database_name():
            own = _own.connection = _connect()
        try:
            return own.execute(sql, values).fetchone()[0]
        except psycopg.OperationalError as exc:
            own.close()  # a restarted server, a dropped socket: once more, on a new one
            if attempt == 2:
                raise OperationalError(str(exc)) from exc
        except psycopg.Error as exc:
            raise DatabaseError(str(exc)) from exc
    raise AssertionError("unreachable")


def _database_name() -> str:
    """The database the site's connections go to (a test run switches it)."""
    return settings.DATABASES[DEFAULT_DB_ALIAS]["NAME"]


def _connect():
    try:
        return _opened_now(psycopg.Connection.connect(**_own_params()))
    except psycopg.Error as exc:  # the database is away: as Django's own connection says
        raise OperationalError(str(exc)) from exc


def _own_params() -> dict:
    """Django's parameters for a connection (its adapters, prepared statements), for one
    of our own in autocommit."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return {**params, "autocommit": True}


def _opened_now(own):
    with _opened_lock:
        _opened.add(own)
    return own


def close_own_connections() -> None:
    """Close every worker thread's and event loop's own connection (before dropping a
    test database)."""
    with _opened_lock:
        opened = list(_opened)
    for own in opened:
        # An event loop's connection is closed from whatever thread this is, its loop
        # perhaps gone: libpq's own close, which needs no loop.
        if isinstance(own, psycopg.AsyncConnection):
            own.pgconn.finish()
        else:
            own.close()


# -- the event loop's own connections (PostgreSQL) --------------------------------------------
#
# A draw from a room the process kept (``games.services.play.draw_on_loop``) sends its
# guarded statement from the event loop itself: a worker thread would cost the hop there
# and back (a thread woken, the interpreter's lock handed over twice, the answer handed
# back to the loop), about twice the statement's own CPU. The loop keeps a few
# connections of its own (``DB_LOOP_CONNECTIONS``, opened on first use); the draws of
# other rooms go on while PostgreSQL answers one.


def on_loop() -> bool:
    """Whether guarded statements can be sent from the event loop (PostgreSQL)."""
    return connection.vendor == "postgresql"


async def execute_on_loop(statement: Statement, riders: Sequence[Statement]) -> int:
    """``execute(statement, riders=riders, guarded=True)`` from the event loop, on one of
    the loop's own connections: the number of rows the swap changed. Sent again once on a
    new connection if the first one failed, as on a worker thread's own connection."""
    sql, values = _guarded(statement, riders)
    loop = asyncio.get_running_loop()
    own = _loop_connections.get(loop)
    if own is None:
        own = _loop_connections[loop] = _LoopConnections()
    for attempt in (1, 2):
        try:
            return await own.count(sql, values)
        except psycopg.OperationalError as exc:
            if attempt == 2:
                raise OperationalError(str(exc)) from exc
        except psycopg.Error as exc:
            raise DatabaseError(str(exc)) from exc
    raise AssertionError("unreachable")


class _LoopConnections:
    """One event loop's own connections: at most ``DB_LOOP_CONNECTIONS`` statements at a
    time, each on a connection nobody else is using."""

    def __init__(self):
        self.slots = asyncio.Semaphore(settings.DB_LOOP_CONNECTIONS)
        self.idle: list[psycopg.AsyncConnection] = []

    async def count(self, sql: str, values: list) -> int:
        async with self.slots:
            own = self.idle.pop() if self.idle else None
            if own is None or own.closed or own.info.dbname != _database_name():
                if own is not None:
                    await own.close()
                own = await _connect_on_loop()
            try:
                cursor = await own.execute(sql, values)
                row = await cursor.fetchone()
            except psycopg.Error:
                if own.closed or own.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    await own.close()
                else:  # refused by the database (a constraint, say): the connection is sound
                    self.idle.append(own)
                raise
            except BaseException:  # cancelled mid-statement: what it left is unknown
                await asyncio.shield(own.close())
                raise
            self.idle.append(own)
            assert row is not None  # COUNT(*) answers one row
            return row[0]


_loop_connections: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopConnections] = (
    weakref.WeakKeyDictionary()
)


async def _connect_on_loop() -> psycopg.AsyncConnection:
    try:
        return _opened_now(await psycopg.AsyncConnection.connect(**_own_params()))
    except psycopg.Error as exc:  # the database is away: as Django's own connection says
        raise OperationalError(str(exc)) from exc


_SWAPPED = "EXISTS (SELECT 1 FROM s)"


def _only_if_swapped(rider: str) -> str:
    """An ``insert_statement`` or ``update_statement`` that writes only if the guarded
    swap (the WITH clause ``s``) changed its row."""
    if rider.startswith("INSERT"):
        head, marks = rider.split(" VALUES (", 1)
        return f"{head} SELECT {marks[:-1]} WHERE {_SWAPPED}"
    return f"{rider} AND {_SWAPPED}"


def touch(channel_names: list[str], room_ids: list[int], now) -> tuple[dict[int, int], set[str]]:
    """A process's heartbeat: the presence (a seat's) or watcher row of every socket in
    ``channel_names`` is fresh. Returns the version of each room in ``room_ids``, and the
    sockets that had a row to refresh (the others' rows were swept away: they heal).

    PostgreSQL: one statement, whatever the number of sockets. SQLite: a few per batch of
    sockets (its limit on a statement's parameters), which development never reaches.
    """
    when = model_field("Presence", "last_seen").get_db_prep_save(now, connection)
    presence, watcher, room = table("Presence"), table("Watcher"), table("Room")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f'WITH p AS (UPDATE "{presence}" SET "last_seen" = %s '
                f'WHERE "channel_name" = ANY(%s) RETURNING "channel_name"), '
                f'w AS (UPDATE "{watcher}" SET "last_seen" = %s '
                f'WHERE "channel_name" = ANY(%s) RETURNING "channel_name") '
                f'SELECT "id", "version", NULL FROM "{room}" WHERE "id" = ANY(%s) '
                'UNION ALL SELECT NULL, NULL, "channel_name" FROM p '
                'UNION ALL SELECT NULL, NULL, "channel_name" FROM w',
                [when, channel_names, when, channel_names, room_ids],
            )
            versions, touched = {}, set()
            for room_id, version, channel_name in cursor.fetchall():
                if channel_name is None:
                    versions[room_id] = version
                else:
                    touched.add(channel_name)
            return versions, touched
        versions, touched = {}, set()
        for batch in _batches(channel_names):
            for name in (presence, watcher):
                names = _marks(batch)
                cursor.execute(
                    f'UPDATE "{name}" SET "last_seen" = %s WHERE "channel_name" IN ({names})',
                    [when, *batch],
                )
                cursor.execute(
                    f'SELECT "channel_name" FROM "{name}" WHERE "channel_name" IN ({names})', batch
                )
                touched.update(row[0] for row in cursor.fetchall())
        for batch in _batches(room_ids):
            cursor.execute(
                f'SELECT "id", "version" FROM "{room}" WHERE "id" IN ({_marks(batch)})', batch
            )
            versions.update(cursor.fetchall())
        return versions, touched


def _batches(items: list, size: int = 500):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _marks(items: list) -> str:
    return ", ".join(["%s"] * len(items))
