"""Daphne sweeps from its start: a process's sweep (``games.realtime.driver.start_sweeper``)
runs as soon as its event loop does, not from its first table socket.

The sweep is what drives a room none of whose sockets is open on any process: a room
whose players never connect (bots that never open their sockets) has its seats covered
after their grace and is played by the computer, a room left by a process that died
resumes, an abandoned room ends. Started only by a table socket, it never ran on a
process that had none since it started (a quiet site after a restart, a site serving
only bots' event streams), and such rooms waited for a socket to come. One process sweeps
at a time (a lease in the cache), so starting it everywhere costs a lease check per
process every ``SWEEP_SECONDS``.

The collector's thresholds are set there too (``config.collector``), for the same reason.

``install()`` wraps Daphne's ``Server.run`` (the command line's and ``runserver``'s), so
that the sweep starts only where Daphne really serves, never in a process that merely
imports the application (the tests' in-process sockets).
"""

from __future__ import annotations


def install() -> None:
    try:
        from daphne.server import Server
    except ImportError:  # not served by Daphne: the first table socket starts the sweep
        return
    if getattr(Server, "sweeps_from_the_start", False):
        return
    run = Server.run

    def run_sweeping(self):
        from twisted.internet import reactor

        from config import collector

        collector.install()

        # Called once the reactor runs, inside its asyncio event loop.
        reactor.callLater(0, _start_sweeper)
        return run(self)

    Server.run = run_sweeping
    Server.sweeps_from_the_start = True


def _start_sweeper() -> None:
    from games.realtime import driver

    driver.start_sweeper()
