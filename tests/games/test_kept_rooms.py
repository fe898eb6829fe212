"""A draw after a draw starts from the room the process kept (games.services.resident):
one statement, no lock and no read; and whatever the kept room cannot answer for is
answered from the database as before."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.errors import ActionError
from games.models import Draw, Room, Round
from games.realtime import broadcast
from games.services import resident, sql
from tests.rooms import draw_ply, two_seat_room

pytestmark = pytest.mark.django_db(transaction=True)


def _statements(context) -> list[str]:
    return [q["sql"] for q in context.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]


def test_a_draw_after_a_draw_is_one_statement_without_the_lock(monkeypatch):
    room, actor = two_seat_room()
    services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))  # keeps it
    room.refresh_from_db()
    services.computer_turn(room_id=room.pk, version=room.version)
    before = Draw.objects.filter(round__match__room=room).count()
    at, version = draw_ply(room.pk), selectors.snapshot(room.pk)["version"]

    sent = []
    own = sql._own_connection_count
    monkeypatch.setattr(sql, "_own_connection_count", lambda *a: sent.append(a[0]) or own(*a))

    with CaptureQueriesContext(connection) as context:
        services.draw(room_id=room.pk, actor=actor, position=0, at=at)

    statements = _statements(context)
    assert not any("FOR UPDATE" in s or s.startswith("SELECT") for s in statements), statements
    if connection.vendor == "postgresql":
        # Nothing through Django's connection: one statement on the thread's own.
        assert statements == [] and len(sent) == 1 and sent[0].startswith("WITH s AS (UPDATE")
    assert Draw.objects.filter(round__match__room=room).count() == before + 1
    state = selectors.snapshot(room.pk)
    assert state["round"]["state"]["draws"] == at["draw"] + 1
    assert state["version"] == version + 1


@pytest.mark.parametrize("path", ["locked", "kept"])
def test_a_draw_keeps_the_room_before_its_broadcast_goes(monkeypatch, path):
    """The drawer's socket may answer the broadcast within a millisecond: a draw that found
    the room not kept yet would take the locked path (and the next after it, and so on)."""
    room, actor = two_seat_room()
    if path == "kept":
        services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))
        room.refresh_from_db()
        services.computer_turn(room_id=room.pk, version=room.version)
    else:
        resident.forget_all()
    seen = []

    def handed_over(room_id, state):
        kept = resident._kept.get(room_id)
        seen.append((state["version"], kept.room.version if kept else None))

    monkeypatch.setattr(broadcast, "room_changed", handed_over)
    services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))
    ((version, kept_version),) = seen
    assert kept_version == version


def test_a_room_changed_by_another_process_is_read_again_and_nothing_kept_is_written():
    room, actor = two_seat_room()
    services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))
    room.refresh_from_db()
    # Another process's change: the room's version moves on without this process.
    Room.objects.filter(pk=room.pk).update(version=room.version + 1)
    rounds = list(Round.objects.filter(match__room=room).values_list("state", flat=True))

    with CaptureQueriesContext(connection) as context:
        state = services.computer_turn(room_id=room.pk, version=room.version + 1)

    # The kept room (one version behind) was not used: the locked path read the room.
    assert any("FOR UPDATE" in s or s.startswith("SELECT") for s in _statements(context))
    assert state["version"] == room.version + 2
    assert state["round"]["state"]["draws"] == rounds[-1]["draws"] + 1
    assert Draw.objects.filter(round__match__room=room).count() == rounds[-1]["draws"] + 1


def test_a_stale_draw_from_a_kept_room_is_refused_as_before():
    room, actor = two_seat_room()
    at = draw_ply(room.pk)
    services.draw(room_id=room.pk, actor=actor, position=0, at=at)
    room.refresh_from_db()
    services.computer_turn(room_id=room.pk, version=room.version)
    before = Draw.objects.filter(round__match__room=room).count()

    with pytest.raises(ActionError) as refused:
        services.draw(room_id=room.pk, actor=actor, position=0, at=at)  # the old move

    assert refused.value.code == "stale_version"
    assert Draw.objects.filter(round__match__room=room).count() == before


def test_the_guarded_swap_writes_its_riders_only_when_it_changes_the_row():
    room, actor = two_seat_room()
    rnd = Round.objects.filter(match__room=room).latest("number")
    saved = rnd.state
    rnd.state = {**saved, "marker": True}
    rider = sql.update_statement(rnd, ["state"])
    room.refresh_from_db()

    missed = sql.update_statement(room, ["version"], where={"version": room.version + 5})
    assert sql.execute(missed, riders=[rider], guarded=True) == 0
    assert "marker" not in Round.objects.get(pk=rnd.pk).state

    room.version += 1
    swap = sql.update_statement(room, ["version"], where={"version": room.version - 1})
    assert sql.execute(swap, riders=[rider], guarded=True) == 1
    assert Round.objects.get(pk=rnd.pk).state["marker"] is True


def test_a_process_keeps_at_most_its_bound_of_rooms(monkeypatch):
    monkeypatch.setattr(resident, "KEPT_ROOMS", 2)
    for room_id in (1, 2, 3):
        resident.keep(type("R", (), {"pk": room_id})(), ([], None, []))
    assert list(resident._kept) == [2, 3]


def test_a_kept_draw_survives_its_connection_being_cut(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the own connection is PostgreSQL's (SQLite writes through Django's)")
    room, actor = two_seat_room()
    services.draw(room_id=room.pk, actor=actor, position=0, at=draw_ply(room.pk))
    room.refresh_from_db()
    services.computer_turn(room_id=room.pk, version=room.version)  # on the own connection
    own = sql._own.connection
    # The server ends the connection (a restart, a proxy's idle cut) while the thread keeps it.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [own.info.backend_pid])
    at = draw_ply(room.pk)

    services.draw(room_id=room.pk, actor=actor, position=0, at=at)

    assert own.closed and sql._own.connection is not own
    assert selectors.snapshot(room.pk)["round"]["state"]["draws"] == at["draw"] + 1
