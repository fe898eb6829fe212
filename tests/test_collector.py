"""A serving process's collector: the thresholds it is given, and its slow collections
logged once they take at least GC_LOG_MS (config/collector.py)."""

import gc
import logging

import pytest

from config import collector


@pytest.fixture
def collector_restored():
    thresholds, callbacks = gc.get_threshold(), list(gc.callbacks)
    yield
    gc.set_threshold(*thresholds)
    gc.callbacks[:] = callbacks


def test_the_thresholds_are_the_settings(settings, collector_restored):
    settings.GC_THRESHOLDS, settings.GC_LOG_MS = (50000, 20, 10), 0
    collector.install()
    assert gc.get_threshold() == (50000, 20, 10)
    assert collector._timed not in gc.callbacks  # nothing logged at 0


def test_a_collection_at_least_gc_log_ms_long_is_logged_once(settings, collector_restored, caplog):
    settings.GC_THRESHOLDS, settings.GC_LOG_MS = gc.get_threshold(), 0.000001
    collector.install()
    collector.install()  # installed twice: still one line a collection
    with caplog.at_level(logging.INFO, logger="config.collector"):
        gc.collect(1)
    lines = [r.getMessage() for r in caplog.records if r.name == "config.collector"]
    assert len(lines) == 1 and lines[0].startswith("collector: generation 1 took ")


def test_a_collection_shorter_than_gc_log_ms_is_not_logged(settings, collector_restored, caplog):
    settings.GC_THRESHOLDS, settings.GC_LOG_MS = gc.get_threshold(), 60_000
    collector.install()
    with caplog.at_level(logging.INFO, logger="config.collector"):
        gc.collect(1)
    assert [r for r in caplog.records if r.name == "config.collector"] == []
