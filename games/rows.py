"""The few statements every draw runs, without the ORM's query compiler.

Compiling a SELECT of a whole model costs the ORM about 0.9 ms of CPU on the benchmark
machine, six times the cost of running it; a draw used to compile a dozen statements.
These are the same statements, written once: model
instances come back exactly as the ORM builds them (``Model.from_db``, with the fields'
and the backend's converters applied) and values go in as the fields prepare them
(``get_db_prep_save``), on PostgreSQL and SQLite alike. This module holds the reads and
the helpers; the writes (and the room lock) are in ``games.services.sql``, which only the
services import. Everything else stays on the ORM (docs/performance.md).
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models.expressions import Col
from django.db.models.sql import Query

from games.models import Match, Round, Seat


@cache
def columns(model, alias: str) -> str:
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


def build(model, values: list):
    for i, convs, col in _converters(model):
        value = values[i]
        for convert in convs:
            value = convert(value, col, connection)
        values[i] = value
    names = [f.attname for f in model._meta.concrete_fields]
    return model.from_db(connection.alias, names, values)


def seats(room_id: int) -> list[Seat]:
    sql = (
        f'SELECT {columns(Seat, "s")} FROM "{Seat._meta.db_table}" s '
        f'WHERE s."room_id" = %s ORDER BY s."index"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [room_id])
        return [build(Seat, list(row)) for row in cursor.fetchall()]


def latest_match(room_id: int) -> tuple[Match | None, list[Round]]:
    """The room's latest match and its rounds in order, in one query."""
    width = len(Round._meta.concrete_fields)
    match_table = Match._meta.db_table
    sql = (
        f"SELECT {columns(Round, 'd')}, {columns(Match, 'm')} "
        f'FROM "{Round._meta.db_table}" d JOIN "{match_table}" m ON m."id" = d."match_id" '
        f'WHERE m."id" = (SELECT "id" FROM "{match_table}" WHERE "room_id" = %s '
        f'ORDER BY "number" DESC LIMIT 1) ORDER BY d."number"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [room_id])
        rows = cursor.fetchall()
    if not rows:
        return None, []
    match = build(Match, list(rows[0][width:]))
    rounds = []
    for row in rows:
        rnd = build(Round, list(row[:width]))
        rnd.match = match
        rounds.append(rnd)
    return match, rounds


def model_field(model: str, name: str):
    from django.apps import apps

    return apps.get_model("games", model)._meta.get_field(name)


def table(name: str) -> str:
    from django.apps import apps

    return apps.get_model("games", name)._meta.db_table
