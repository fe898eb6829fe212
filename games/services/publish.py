"""What the services tell the sockets, after a commit (never before).

The services change rooms; the real-time side (``games.realtime.broadcast``) sends the
news to the sockets and event streams. So that the services never import the real-time
side (import-linter keeps it so), they hand their news to a sender registered at
startup (``games.apps.GamesConfig.ready`` registers ``games.realtime.broadcast``): every
broadcast a change makes goes through ``Change.commit`` and ``Change.after_commit``, or,
for news outside a room's change (a revoked token, a bot's challenge withdrawn), through
``after_commit`` here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from django.db import transaction

from games.engine.shapes import RoomState

log = logging.getLogger(__name__)


class Sender(Protocol):
    """What the services need of the real-time side (``games.realtime.broadcast``)."""

    def room_changed(self, room_id: int, state: RoomState) -> None: ...

    def lobby_changed(self) -> None: ...

    def bot_event(self, bot_id: int, event: dict) -> None: ...

    def token_revoked(self, bot_id: int, token_hash: str) -> None: ...

    def spectators_changed(self, room_id: int) -> None: ...


#: The registered sender; None where nothing listens (the news is dropped).
_sender: Any = None


def register(sender: Sender | None) -> None:
    """``sender`` sends the services' news from now on (at startup)."""
    global _sender
    _sender = sender


def after_commit(send: Callable[[], None], *, committed: bool = False) -> None:
    """Call ``send`` once the current transaction commits (at once when the change is
    ``committed`` already: one guarded statement, outside any transaction). A send that
    fails is logged and changes nothing else: the change is committed, and the action
    that made it must not answer as if it were not (sockets catch up at their next
    heartbeat)."""
    if not committed:
        transaction.on_commit(send, robust=True)
        return
    try:
        send()
    except Exception:
        log.exception("could not hand over a broadcast")


# Each looks the sender's function up when called, so a test that replaces one of
# ``games.realtime.broadcast``'s functions replaces it here too.


def room_changed(room_id: int, state: RoomState) -> None:
    if _sender is not None:
        _sender.room_changed(room_id, state)


def lobby_changed() -> None:
    if _sender is not None:
        _sender.lobby_changed()


def bot_event(bot_id: int, event: dict) -> None:
    if _sender is not None:
        _sender.bot_event(bot_id, event)


def token_revoked(bot_id: int, token_hash: str) -> None:
    if _sender is not None:
        _sender.token_revoked(bot_id, token_hash)


def spectators_changed(room_id: int) -> None:
    if _sender is not None:
        _sender.spectators_changed(room_id)
