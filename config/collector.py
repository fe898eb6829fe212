"""The cyclic garbage collector in a serving process, where its pauses stop the event loop
and every table with it.

``install()`` runs once Daphne serves (``config.daphne_startup``), never in a process that
merely imports the application (the tests'): it sets the collector's thresholds
(``GC_THRESHOLDS``, docs/performance.md measures them) and, with ``GC_LOG_MS`` above 0,
logs every collection that took at least that long, so that an operator can tell a
stutter of the tables from the collector's.
"""

from __future__ import annotations

import gc
import logging
import time

from django.conf import settings

log = logging.getLogger(__name__)

_started: float | None = None


def install() -> None:
    gc.set_threshold(*settings.GC_THRESHOLDS)
    if settings.GC_LOG_MS > 0 and _timed not in gc.callbacks:
        gc.callbacks.append(_timed)


def _timed(phase: str, info: dict) -> None:
    global _started
    if phase == "start":
        _started = time.perf_counter()
        return
    if _started is None:
        return
    took = (time.perf_counter() - _started) * 1000
    _started = None
    if took >= settings.GC_LOG_MS:
        log.info(
            "collector: generation %s took %.0f ms (%s collected)",
            info["generation"],
            took,
            info["collected"],
        )
