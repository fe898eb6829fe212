"""Daphne stops gracefully: told to stop (SIGTERM or SIGINT), it stops taking connections,
tells every socket to reconnect at once, lets the work under way finish, and exits within
a bounded time.

Stock Daphne, told to stop, cancels every application at once and drops its sockets
without a close frame (the client sees 1006 and waits out its back-off), and it can hang
for ever: a worker thread still inside a service, handing a broadcast to an event loop
that had stopped, waited on that loop, and the interpreter's exit waited on the thread.

What happens instead, in this order (``install()`` wraps Daphne's own shutdown step,
``Server.kill_all_applications``, which the reactor waits on before it stops):

1. The listening ports close, so a new connection is refused here at once and nginx
   passes it to another process (``scripts/prod.sh``: a rolling restart loses no request).
2. Every open socket is closed with ``RESTARTING`` (4012, "the server is restarting:
   reconnect now"), which pages answer by reconnecting at once, without back-off
   (``docs/protocol.md``). A socket that opens during the drain is closed the same way.
3. Up to ``SHUTDOWN_SECONDS``, the applications under way finish: the sockets' disconnect
   handlers (presence, the seat's grace), page requests, the broadcasts they send.
4. Daphne's own step cancels whatever is left, and the reactor stops. From then on a
   broadcast from a worker thread is dropped (``games.realtime.broadcast``) instead of
   waiting on the stopped loop.
5. Should the process still be alive ``EXIT_SECONDS`` after the signal (a thread stuck
   where nothing can reach it), it exits anyway, with a warning in the log.

Tested by ``tests/system/test_shutdown.py`` with real Daphne processes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

log = logging.getLogger(__name__)

#: The close code that says "the server is restarting: reconnect now". WebSocket's own
#: 1012 (Service Restart) cannot be sent: autobahn allows only 1000 and 3000-4999.
RESTARTING = 4012
#: How often the drain looks at its sockets and applications.
_TICK = 0.05


def install() -> None:
    try:
        from daphne.server import Server
    except ImportError:  # not served by Daphne: nothing to drain
        return
    if getattr(Server, "drains", False):
        return
    listen_success = Server.listen_success
    kill_all_applications = Server.kill_all_applications

    def remembering_listen_success(self, port):
        self.__dict__.setdefault("ports", []).append(port)
        return listen_success(self, port)

    def draining_kill_all_applications(self):
        from twisted.internet import defer

        _exit_later()
        drained = defer.Deferred.fromFuture(asyncio.ensure_future(drain(self)))
        drained.addErrback(lambda failure: log.warning("drain failed: %s", failure.value))
        drained.addBoth(lambda _: kill_all_applications(self))
        return drained

    Server.listen_success = remembering_listen_success
    Server.kill_all_applications = draining_kill_all_applications
    Server.drains = True


async def drain(server) -> None:
    from django.conf import settings

    started = asyncio.get_running_loop().time()
    for port in server.__dict__.get("ports", []):
        port.stopListening()
    closed = 0
    deadline = started + settings.SHUTDOWN_SECONDS
    while True:
        closed += _close_sockets(server)
        busy = _applications_under_way(server)
        if not busy or asyncio.get_running_loop().time() >= deadline:
            break
        await asyncio.sleep(_TICK)
    took = asyncio.get_running_loop().time() - started
    log.info(
        "stopping: %d sockets told to reconnect; %d applications left after %.1f s",
        closed,
        busy,
        took,
    )


def _close_sockets(server) -> int:
    from daphne.ws_protocol import WebSocketProtocol

    closed = 0
    for protocol in list(server.connections):
        if isinstance(protocol, WebSocketProtocol) and protocol.state == protocol.STATE_OPEN:
            protocol.sendClose(code=RESTARTING, reason="server restarting")
            closed += 1
    return closed


def _applications_under_way(server) -> int:
    return sum(
        1
        for details in list(server.connections.values())
        if (instance := details.get("application_instance")) is not None and not instance.done()
    )


def _exit_later() -> None:
    """The last resort of step 5: a daemon timer, so that it never holds the exit up."""
    from django.conf import settings

    def exit_now():
        log.warning(
            "still running %s s after being told to stop: exiting now", settings.EXIT_SECONDS
        )
        logging.shutdown()
        os._exit(1)

    timer = threading.Timer(settings.EXIT_SECONDS, exit_now)
    timer.daemon = True
    timer.start()
