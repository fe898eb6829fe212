"""Who is connected: players' sockets (``Presence``) and spectators' (``Watcher``), seats
going away and coming back, and the computer covering a seat left unattended.

Presence moves ``Room.version`` (the state stream shows who is away) but never a ply, so
a friend's Wi-Fi blip never makes anyone's click stale.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine.shapes import RoomState
from games.identity import Actor
from games.models import Presence, Room, Seat, Watcher
from games.services import publish, sql
from games.services.attendance import note_attendance
from games.services.change import changing
from games.state import load, room_state


def connect(*, room_id: int, actor: Actor, channel_name: str) -> RoomState | None:
    """A socket opened: record it as its seats' connection (handing covered seats back to
    their human) or as a spectator's. Returns the room's state.

    A spectator's socket takes no room lock and changes no version: it is a row of its
    own, and the count reaches the room coalesced (``publish.spectators_changed``)."""
    if not actor.seats_in(Seat.objects.filter(room_id=room_id)):
        return _watch(room_id, channel_name)
    with changing(room_id) as change:
        room = change.room
        mine = actor.seats_in(room.seats.all())
        now = timezone.now()
        back = []
        for seat in mine:
            Presence.objects.update_or_create(
                channel_name=channel_name, seat=seat, defaults={"last_seen": now}
            )
            if seat.covered or seat.away_since is not None:
                back.append(seat.index)
                seat.covered, seat.away_since = False, None
                seat.save(update_fields=["covered", "away_since"])
        if not mine:  # no longer seated since the look before the lock
            return _watch(room_id, channel_name)
        unattended = room.unattended_since
        note_attendance(room)
        if back or room.unattended_since != unattended:
            return change.commit({"kind": "seat_back", "seats": back})
        return room_state(room, load(room))


def _watch(room_id: int, channel_name: str) -> RoomState | None:
    Watcher.objects.update_or_create(
        channel_name=channel_name, defaults={"room_id": room_id, "last_seen": timezone.now()}
    )
    _spectators_changed(room_id)
    from games.selectors import snapshot

    return snapshot(room_id)


def heartbeat(*, channel_names: list[str], room_ids: list[int]) -> tuple[dict[int, int], set[str]]:
    """A process's sockets are still open: their connections (seats' and spectators')
    stay fresh. Returns the version of each of ``room_ids``, and the sockets among
    ``channel_names`` that had no connection row left to refresh: the sweep took them for
    a dead process's (this one missed its beats, say through a database failover), and
    ``connect`` records them again (``games.realtime.heartbeat``)."""
    versions, touched = sql.touch(channel_names, room_ids, timezone.now())
    return versions, set(channel_names) - touched


def disconnect(*, room_id: int, channel_name: str) -> None:
    """A socket closed: a seat with no other fresh connection is now away."""
    if Watcher.objects.filter(channel_name=channel_name).delete()[0]:
        _spectators_changed(room_id)
    if not Presence.objects.filter(channel_name=channel_name).exists():
        return
    with changing(room_id) as change:
        stale = Presence.objects.filter(channel_name=channel_name)
        seat_ids = list(stale.values_list("seat_id", flat=True))
        stale.delete()
        _went_away(change, seat_ids, timezone.now())


def sweep_stale_presences(*, room_id: int) -> bool:
    """Connections left by a process that died: drop them and mark their seats away.

    Away from now, not from their last heartbeat: a process that only missed its beats
    (a database failover) records its sockets again at its next beat (``heartbeat``),
    well within the seat's grace, so the computer never covers a player still there."""
    with changing(room_id) as change:
        stale = Presence.objects.filter(seat__room=change.room, last_seen__lt=_stale_before())
        seat_ids = list(stale.values_list("seat_id", flat=True))
        if not seat_ids:
            return False
        stale.delete()
        return _went_away(change, seat_ids, timezone.now())


def sweep_stale_watchers() -> list[int]:
    """Spectators' connections left by a process that died: drop them, and tell their
    rooms the new count. Returns those rooms."""
    stale = Watcher.objects.filter(last_seen__lt=_stale_before())
    with transaction.atomic():
        rooms = sorted(set(stale.values_list("room_id", flat=True)))
        stale.delete()
        for room_id in rooms:
            _spectators_changed(room_id)
    return rooms


def _went_away(change, seat_ids, since) -> bool:
    """Mark away the seats among ``seat_ids`` left with no fresh connection, note whether
    anyone is still at the room, and commit if either changed."""
    room = change.room
    fresh = _stale_before()
    away = []
    for seat in Seat.objects.filter(pk__in=seat_ids, room=room, away_since__isnull=True):
        if not seat.presences.filter(last_seen__gte=fresh).exists():
            seat.away_since = since
            seat.save(update_fields=["away_since"])
            away.append(seat.index)
    unattended = room.unattended_since
    note_attendance(room)
    if away or room.unattended_since != unattended:
        change.commit({"kind": "seat_away", "seats": away})
        return True
    return False


def cover_seat(*, room_id: int, seat_index: int, version: int) -> RoomState | None:
    """The computer starts playing a human seat whose connection stayed down too long.
    Returns the new state, or None when the seat is not (or no longer) due."""
    with changing(room_id, version) as change:
        seat = change.room.seats.get(index=seat_index)
        grace = timedelta(seconds=settings.SEAT_GRACE_SECONDS)
        if (
            seat.played_by_computer
            or seat.away_since is None
            or timezone.now() - seat.away_since < grace
            or change.room.status != Room.Status.PLAYING
        ):
            return None
        seat.covered = True
        seat.save(update_fields=["covered"])
        return change.commit({"kind": "seat_covered", "seat": seat_index})


def _stale_before():
    return timezone.now() - timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)


def _spectators_changed(room_id: int) -> None:
    publish.after_commit(lambda: publish.spectators_changed(room_id))
