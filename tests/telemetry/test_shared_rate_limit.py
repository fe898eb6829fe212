"""The telemetry rate limit is one limit across processes: counted in the shared cache
under a key no process invents alone."""

import importlib
import os
import subprocess
import sys

import pytest

from telemetry import ratelimit


def test_the_count_key_is_the_same_in_a_fresh_process_module(settings):
    before = ratelimit.count_key("198.51.100.7")
    fresh = importlib.reload(ratelimit)  # what a newly started process would hold
    assert fresh.count_key("198.51.100.7") == before
    assert str(os.getpid()) not in before
    assert "198.51.100.7" not in before


def test_different_addresses_are_counted_apart():
    assert ratelimit.count_key("198.51.100.7") != ratelimit.count_key("198.51.100.8")


def test_the_limit_holds_at_its_boundary_across_reloads(settings):
    settings.TELEMETRY_EVENTS_PER_MINUTE = 4
    answers = []
    for _ in range(3):
        answers.append(ratelimit.allow("203.0.113.9"))
    importlib.reload(ratelimit)  # a second process goes on counting the same client
    answers.append(ratelimit.allow("203.0.113.9"))  # the last allowed
    answers.append(ratelimit.allow("203.0.113.9"))  # the first refused
    assert answers == [True, True, True, True, False]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_two_processes_share_one_count_through_redis(settings):
    settings.TELEMETRY_EVENTS_PER_MINUTE = 3
    script = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); from django.conf import settings;"
        "settings.TELEMETRY_EVENTS_PER_MINUTE = 3;"
        "from telemetry import ratelimit; print(ratelimit.allow('192.0.2.55'))"
    )
    assert ratelimit.allow("192.0.2.55") and ratelimit.allow("192.0.2.55")
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert other.stdout.strip() == "True"  # the last allowed, counted in another process
    assert ratelimit.allow("192.0.2.55") is False  # the first refused, back here
