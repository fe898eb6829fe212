"""Pushing a room's new state to its sockets, after the commit (never before)."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.outages import OUTAGES

log = logging.getLogger(__name__)


def _group_send(group: str, message: dict) -> None:
    """Best effort: with Redis down the change is still committed, and sockets catch up
    from a snapshot (on reconnect, after an error, or at their next heartbeat)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except OUTAGES as exc:
        log.warning("could not send to %s: channel layer unavailable (%s)", group, exc)


def group_name(room_id: int) -> str:
    return f"room.{room_id}"


def room_changed(room_id: int, state: dict) -> None:
    """Send the full state to the room's group; each socket redacts it for itself.

    Channels delivery is best effort: a lost message costs a client nothing more than a
    resync, since every action carries a version and every connect gets a snapshot.
    """
    _group_send(group_name(room_id), {"type": "room.changed", "state": state})


LOBBY_GROUP = "lobby"


def lobby_changed() -> None:
    """Send the listed rooms waiting for players to every lobby socket."""
    from games.selectors import lobby_rooms

    if get_channel_layer() is None:
        return
    _group_send(LOBBY_GROUP, {"type": "lobby.changed", "rooms": lobby_rooms()})


def spectators_changed(room_id: int, count: int) -> None:
    """How many are watching: not part of the versioned state, so sent on its own."""
    _group_send(group_name(room_id), {"type": "room.spectators", "count": count})
