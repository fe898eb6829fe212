"""The statements a change writes with, without the ORM's query compiler (the reads they
share live in ``games.rows``). Only the services import this module: an import-linter
contract in ``pyproject.toml`` keeps it so."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Room
from games.rows import build, columns, model_field, table


def lock_room(room_id: int) -> Room | None:
    """The room, its row locked for this transaction (where the database can), with the
    number of spectators' live sockets as ``spectators_now``."""
    lock = " FOR UPDATE OF r" if connection.features.has_select_for_update_of else ""
    if not lock and connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    sql = (
        f"SELECT {columns(Room, 'r')}, "
        f'(SELECT COUNT(*) FROM "{table("Watcher")}" w '
        f'WHERE w."room_id" = r."id" AND w."last_seen" >= %s) '
        f'FROM "{Room._meta.db_table}" r WHERE r."id" = %s{lock}'
    )
    fresh = timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
    fresh = model_field("Watcher", "last_seen").get_db_prep_save(fresh, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [fresh, room_id])
        row = cursor.fetchone()
    if row is None:
        return None
    room = build(Room, list(row[:-1]))
    room.spectators_now = row[-1]
    return room


def insert(obj) -> None:
    """INSERT ``obj`` (a new model instance) and set its primary key."""
    model = type(obj)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ({marks})'
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += ' RETURNING "id"'
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        obj.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    obj._state.adding = False
    obj._state.db = connection.alias


def update(obj, names: list[str], *, where: dict | None = None) -> int:
    """UPDATE the fields ``names`` of ``obj``'s row (and only if the row also matches
    ``where``, column name to value); the number of rows changed."""
    model = type(obj)
    fields = [model._meta.get_field(name) for name in names]
    values = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
    assignments = ", ".join(f'"{f.column}" = %s' for f in fields)
    conditions = "".join(f' AND "{column}" = %s' for column in where or {})
    sql = f'UPDATE "{model._meta.db_table}" SET {assignments} WHERE "id" = %s{conditions}'
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, obj.pk, *(where or {}).values()])
        return cursor.rowcount


def touch(channel_names: list[str], room_ids: list[int], now) -> dict[int, int]:
    """A process's heartbeat: the presence (a seat's) or watcher row of every socket in
    ``channel_names`` is fresh; returns the version of each room in ``room_ids``.

    PostgreSQL: one statement, whatever the number of sockets. SQLite: three per batch of
    sockets (its limit on a statement's parameters), which development never reaches.
    """
    when = model_field("Presence", "last_seen").get_db_prep_save(now, connection)
    presence, watcher, room = table("Presence"), table("Watcher"), table("Room")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f'WITH p AS (UPDATE "{presence}" SET "last_seen" = %s '
                f'WHERE "channel_name" = ANY(%s)), w AS (UPDATE "{watcher}" '
                f'SET "last_seen" = %s WHERE "channel_name" = ANY(%s)) '
                f'SELECT "id", "version" FROM "{room}" WHERE "id" = ANY(%s)',
                [when, channel_names, when, channel_names, room_ids],
            )
            return dict(cursor.fetchall())
        versions = {}
        for batch in _batches(channel_names):
            for name in (presence, watcher):
                names = _marks(batch)
                cursor.execute(
                    f'UPDATE "{name}" SET "last_seen" = %s WHERE "channel_name" IN ({names})',
                    [when, *batch],
                )
        for batch in _batches(room_ids):
            cursor.execute(
                f'SELECT "id", "version" FROM "{room}" WHERE "id" IN ({_marks(batch)})', batch
            )
            versions.update(cursor.fetchall())
        return versions


def _batches(items: list, size: int = 500):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _marks(items: list) -> str:
    return ", ".join(["%s"] * len(items))
