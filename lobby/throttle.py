"""Throttling repeated failed log-ins, with Django's cache (Redis in production).

Failures are counted per username and per client address for a window; past the limit
further attempts are refused without checking the password until the window ends.
"""

from django.conf import settings
from django.core.cache import cache


def _keys(username: str, address: str) -> list[str]:
    keys = [f"login-fail:user:{username.strip().lower()[:150]}"]
    if address:
        keys.append(f"login-fail:addr:{address}")
    return keys


def is_locked(username: str, address: str) -> bool:
    limit = settings.LOGIN_FAILURE_LIMIT
    return any((cache.get(k) or 0) >= limit for k in _keys(username, address))


def record_failure(username: str, address: str) -> None:
    for key in _keys(username, address):
        cache.add(key, 0, settings.LOGIN_FAILURE_WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, settings.LOGIN_FAILURE_WINDOW_SECONDS)


def clear(username: str) -> None:
    cache.delete(_keys(username, "")[0])
