"""Pushing a room's new state to its sockets, after the commit (never before).

The services hand their news over through ``games.services.publish``, which calls this
module (registered at startup, ``games.apps``): the services never import it."""

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.engine.shapes import RoomState
from games.realtime.outages import OUTAGES
from games.realtime.workers import in_worker

log = logging.getLogger(__name__)

#: The event loop the latest broadcast was handed to, and that broadcast's task.
_last: tuple[asyncio.AbstractEventLoop | None, asyncio.Task | None] = (None, None)


def _group_send(group: str, message: dict) -> None:
    """Best effort: with Redis down the change is still committed, and sockets catch up
    from a snapshot (on reconnect, after an error, or at their next heartbeat).

    From a worker thread of the server's event loop (a service called from a socket or
    the driver) the send is handed to that loop and the thread goes on at once, instead
    of waiting for Redis; the loop sends broadcasts one after another, in the order they
    were handed over, so a room's states never overtake each other.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    if _on_event_loop():  # a draw made there (``services.draw_on_loop``)
        _hand_over(layer, group, message)
        return
    loop = _server_loop()
    if loop is not None:
        if loop.is_running() and not loop.is_closed():
            loop.call_soon_threadsafe(_hand_over, layer, group, message)
        else:
            # The server is stopping (config/daphne_shutdown.py): waiting on its loop
            # would wait for ever, and hold the process's exit up with it.
            log.info("dropped a broadcast to %s: the server is stopping", group)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except OUTAGES as exc:
        _unavailable(group, exc)


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose worker thread this is (asgiref records it), running or not."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop


def _hand_over(layer, group: str, message: dict) -> None:
    in_order(group, lambda: layer.group_send(group, message))


def in_order(name: str, send: Callable[[], Awaitable]) -> asyncio.Task:
    """From the event loop's thread: ``send()`` (a channel layer's send to ``name``) once
    every send handed over before it is done. Whether it was sent is the task's result.

    The sends reach Redis one after another; Redis hands a subscriber the messages in
    the order it took them, and a socket reads its messages in order. So a message sent
    here reaches a socket after every broadcast of this process handed over before it
    (``games.realtime.consumers`` catches up on that: ``check``).
    """
    global _last
    loop = asyncio.get_running_loop()
    before = _last[1] if _last[0] is loop else None
    task = loop.create_task(_send_after(before, name, send))
    _last = (loop, task)
    return task


async def _send_after(before: asyncio.Task | None, name: str, send) -> bool:
    if before is not None and not before.done():
        await asyncio.wait([before])
    try:
        # Bounded: a Redis that hangs (rather than refusing) would hold every later
        # broadcast of the process behind this one.
        await asyncio.wait_for(send(), settings.BROADCAST_TIMEOUT_SECONDS)
        return True
    except TimeoutError:
        _unavailable(name, f"no answer within {settings.BROADCAST_TIMEOUT_SECONDS} s")
    except OUTAGES as exc:
        _unavailable(name, exc)
    except Exception:
        log.exception("could not send to %s", name)
    return False


def check(layer, channel_name: str) -> asyncio.Task:
    """Send the socket ``channel_name`` a ``room.checked`` message behind this process's
    broadcasts (``in_order``): when it arrives, every change this process made before now
    has reached the socket, or never will. Whether it was sent is the task's result."""
    return in_order(channel_name, lambda: layer.send(channel_name, {"type": "room.checked"}))


def _unavailable(group: str, exc: object) -> None:
    log.warning("could not send to %s: channel layer unavailable (%s)", group, exc)


def group_name(room_id: int) -> str:
    return f"room.{room_id}"


def room_changed(room_id: int, state: RoomState) -> None:
    """Send the full state to the room's group; each socket redacts it for itself.

    Channels delivery is best effort: a lost message costs a client nothing more than a
    resync, since every action carries a version and every connect gets a snapshot.
    """
    _group_send(group_name(room_id), {"type": "room.changed", "state": state})


LOBBY_GROUP = "lobby"


def bot_group(bot_id: int) -> str:
    """The group a bot's event stream listens on (docs/bots.md)."""
    return f"bot.{bot_id}"


def bot_event(bot_id: int, event: dict) -> None:
    """One line of a bot's event stream (``challenge``, ``gameStart``, ...), to whichever
    process holds the stream; a bot with no stream open hears of it when it opens one
    (the stream starts with the bot's games and pending challenges)."""
    _group_send(bot_group(bot_id), {"type": "bot.event", "event": event})


def token_group(bot_id: int) -> str:
    """The group every socket and event stream opened with a bot's token listens on, to
    close as soon as that token is revoked or replaced (``token_revoked``)."""
    return f"bot-token.{bot_id}"


def token_revoked(bot_id: int, token_hash: str) -> None:
    """After the commit that revoked or replaced the bot's token ``token_hash``: every
    socket and stream opened with that token closes, in whichever process it is
    (``config.bot_sockets``, ``lobby.bot_api.stream``); those opened with a newer token
    stay open."""
    _group_send(token_group(bot_id), {"type": "bot.revoked", "token": token_hash})


def lobby_changed() -> None:
    """Send what the lobby shows live (``selectors.lobby``) to every lobby socket."""
    from games.selectors import lobby

    if get_channel_layer() is None:
        return
    _group_send(LOBBY_GROUP, {"type": "lobby.changed", **lobby()})


#: Rooms whose spectator count is about to be sent by this process (``spectators_changed``),
#: and the task that sends it.
_counting: dict[int, asyncio.Task] = {}


def spectators_changed(room_id: int) -> None:
    """How many are watching: not part of the versioned state, so sent on its own.

    Coalesced per room: the first change in a quiet room sends the count
    ``SPECTATOR_COUNT_SECONDS`` later, counted then, and the changes that come meanwhile
    ride along with it. Sent at every arrival, a crowd of N spectators cost N counts and
    N sends to every socket in the room: O(N²) frames.
    """
    loop = _server_loop() or _running_loop()
    if loop is None:  # no server here (a command, a test calling services directly)
        _send_count(room_id)
        return
    if loop.is_running() and not loop.is_closed():  # else the server is stopping
        loop.call_soon_threadsafe(_count_soon, room_id)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _count_soon(room_id: int) -> None:
    loop = asyncio.get_running_loop()
    pending = _counting.get(room_id)
    if pending is not None and not pending.done() and pending.get_loop() is loop:
        return
    _counting[room_id] = loop.create_task(_count_later(room_id))


async def _count_later(room_id: int) -> None:
    from games.state import spectator_count

    await asyncio.sleep(settings.SPECTATOR_COUNT_SECONDS)
    _counting.pop(room_id, None)  # a change from now on sends again
    try:
        count = await in_worker(spectator_count)(room_id)
    except Exception:  # the database is away: the next change or snapshot tells
        log.warning("room %s: could not count its spectators", room_id)
        return
    layer, group = get_channel_layer(), group_name(room_id)
    await _send_after(None, group, lambda: layer.group_send(group, _count_message(count)))


def _send_count(room_id: int) -> None:
    from games.state import spectator_count

    _group_send(group_name(room_id), _count_message(spectator_count(room_id)))


def _count_message(count: int) -> dict:
    return {"type": "room.spectators", "count": count}
