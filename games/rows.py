"""The few statements every draw and every socket heartbeat runs, without the ORM's
query compiler.

Compiling a SELECT of a whole model costs the ORM about 0.9 ms of CPU on the benchmark
machine, six times the cost of running it; a draw used to compile a dozen statements and
every socket's heartbeat three. These are the same statements, written once: model
instances come back exactly as the ORM builds them (``Model.from_db``, with the fields'
and the backend's converters applied) and values go in as the fields prepare them
(``get_db_prep_save``), on PostgreSQL and SQLite alike. Only ``games.services`` writes
through them; everything else stays on the ORM (docs/performance.md).
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache

from django.conf import settings
from django.db import connection
from django.db.models.expressions import Col
from django.db.models.sql import Query
from django.utils import timezone

from games.models import Match, Room, Round, Seat


@cache
def _columns(model, alias: str) -> str:
    return ", ".join(f'{alias}."{f.column}"' for f in model._meta.concrete_fields)


def _converters(model) -> list[tuple[int, list, Col]]:
    # Converters depend on the connection's backend; one backend per process.
    key = (model, connection.vendor)
    found = _CONVERTERS.get(key)
    if found is None:
        compiler = connection.ops.compiler("SQLCompiler")(Query(model), connection, "default")
        table = model._meta.db_table
        cols = [Col(table, f) for f in model._meta.concrete_fields]
        found = [(i, convs, col) for i, (convs, col) in compiler.get_converters(cols).items()]
        _CONVERTERS[key] = found
    return found


_CONVERTERS: dict = {}


def _build(model, values: list):
    for i, convs, col in _converters(model):
        value = values[i]
        for convert in convs:
            value = convert(value, col, connection)
        values[i] = value
    names = [f.attname for f in model._meta.concrete_fields]
    return model.from_db(connection.alias, names, values)


def lock_room(room_id: int) -> Room | None:
    """The room, its row locked for this transaction (where the database can), with the
    number of spectators' live sockets as ``spectators_now``."""
    lock = " FOR UPDATE OF r" if connection.features.has_select_for_update_of else ""
    if not lock and connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    sql = (
        f"SELECT {_columns(Room, 'r')}, "
        f'(SELECT COUNT(*) FROM "{_table("Watcher")}" w '
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
    room = _build(Room, list(row[:-1]))
    room.spectators_now = row[-1]
    return room


def seats(room_id: int) -> list[Seat]:
    sql = (
        f'SELECT {_columns(Seat, "s")} FROM "{Seat._meta.db_table}" s '
        f'WHERE s."room_id" = %s ORDER BY s."index"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [room_id])
        return [_build(Seat, list(row)) for row in cursor.fetchall()]


def latest_match(room_id: int) -> tuple[Match | None, list[Round]]:
    """The room's latest match and its rounds in order, in one query."""
    width = len(Round._meta.concrete_fields)
    match_table = Match._meta.db_table
    sql = (
        f"SELECT {_columns(Round, 'd')}, {_columns(Match, 'm')} "
        f'FROM "{Round._meta.db_table}" d JOIN "{match_table}" m ON m."id" = d."match_id" '
        f'WHERE m."id" = (SELECT "id" FROM "{match_table}" WHERE "room_id" = %s '
        f'ORDER BY "number" DESC LIMIT 1) ORDER BY d."number"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [room_id])
        rows = cursor.fetchall()
    if not rows:
        return None, []
    match = _build(Match, list(rows[0][width:]))
    rounds = []
    for row in rows:
        rnd = _build(Round, list(row[:width]))
        rnd.match = match
        rounds.append(rnd)
    return match, rounds


# -- writes (for games.services only) ----------------------------------------------------


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


def touch(channel_name: str, now) -> None:
    """A socket's heartbeat: its presence (a seat's) or its watcher row is fresh."""
    when = model_field("Presence", "last_seen").get_db_prep_save(now, connection)
    with connection.cursor() as cursor:
        for name in ("Presence", "Watcher"):
            cursor.execute(
                f'UPDATE "{_table(name)}" SET "last_seen" = %s WHERE "channel_name" = %s',
                [when, channel_name],
            )


def room_version(room_id: int) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT "version" FROM "{Room._meta.db_table}" WHERE "id" = %s', [room_id])
        row = cursor.fetchone()
    return row[0] if row else None


def model_field(model: str, name: str):
    from django.apps import apps

    return apps.get_model("games", model)._meta.get_field(name)


def _table(name: str) -> str:
    from django.apps import apps

    return apps.get_model("games", name)._meta.db_table
