"""games.realtime.windows when Redis is gone: the limit holds, counted in this process, with a
warning (no traceback) for each call that could not reach Redis."""

import logging

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings

from games.realtime import windows

#: A Redis nobody listens at (port 1), answering at once.
GONE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 1},
    }
}


def test_without_redis_the_limit_is_counted_in_this_process(caplog):
    windows._recent.clear()
    with override_settings(CACHES=GONE), caplog.at_level(logging.WARNING, "games.realtime.windows"):
        assert isinstance(caches["default"], RedisCache)
        answers = [windows.allowed("test:gone", 2, 60) for _ in range(3)]
    assert answers == [True, True, False]
    assert [r.levelname for r in caplog.records] == ["WARNING"] * 3
    assert all(r.exc_info is None and "unavailable" in r.getMessage() for r in caplog.records)
    windows._recent.clear()
