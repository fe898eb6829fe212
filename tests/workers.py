"""Parallel test workers (pytest-xdist, ``make test`` runs ``-n``): what each worker keeps
to itself so that workers never see each other's state.

- **Database**: pytest-django gives each worker a test database of its own
  (``test_<name>_gw0``, ...); servers started by tests use it (``tests.support``).
- **Redis database**: worker N uses REDIS_URL's database number plus N, for the cache
  (rate-limit counts, the sweep's lease: the autouse ``cache.clear()`` empties only this
  worker's database) and the core channel layer.
- **Channel-layer prefix**: Redis publish/subscribe channels are shared by every database
  of a server, so group names (``room.{id}``: each worker's ids start at 1) would reach
  other workers' sockets; each worker's layer, and its servers' (``tests.live_settings``),
  name their channels under a prefix of their own.
- **Ports**: each worker picks free ports from a slice of the range of its own, so two
  workers never start servers on the same port.

Without xdist (``python -m pytest``, the serial run) nothing changes.
"""

import os
from urllib.parse import urlsplit, urlunsplit

#: "gw0", "gw1", ... under pytest-xdist; "" in a serial run. Servers started by a worker
#: inherit it (their environment is the worker's).
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
INDEX = int(WORKER[2:]) if WORKER.startswith("gw") else 0
COUNT = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))

#: Redis has 16 databases (0-15) unless configured otherwise.
REDIS_DATABASES = 16

#: Ports for servers a test starts: below the range the kernel hands out to outgoing
#: connections (32768 and up), so that no client socket takes one first.
PORTS = range(20000, 32000)


def redis_url(url: str, index: int = INDEX) -> str:
    """``url`` with its database number moved up by the worker's index."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + index
    if database >= REDIS_DATABASES:
        raise RuntimeError(
            f"test worker {index} would use Redis database {database} (REDIS_URL's {base} "
            f"plus its index): start from a lower database or run fewer workers (-n)"
        )
    return urlunsplit(parts._replace(path=f"/{database}"))


def channel_prefix() -> str:
    """The channel layer's prefix for this worker (channels_redis's default is "asgi").
    TEST_CHANNEL_PREFIX replaces "asgi", for two test runs at once on one Redis (each
    also with REDIS_URL on databases of its own)."""
    base = os.environ.get("TEST_CHANNEL_PREFIX") or "asgi"
    return f"{base}-{WORKER}" if WORKER else base


def port_range() -> range:
    """The slice of ``PORTS`` this worker takes its free ports from."""
    span = len(PORTS) // COUNT
    first = PORTS.start + INDEX * span
    return range(first, first + span)


def use_prefix(channel_layers: dict) -> dict:
    """``CHANNEL_LAYERS`` with the worker's prefix on a Redis layer."""
    layers = {alias: {**layer} for alias, layer in channel_layers.items()}
    for layer in layers.values():
        if layer["BACKEND"].startswith("channels_redis."):
            layer["CONFIG"] = {**layer.get("CONFIG", {}), "prefix": channel_prefix()}
    return layers


def keep_to_this_worker(settings) -> None:
    """Point the test process's Redis use (and its servers', through the environment) at
    this worker's database and prefix; called once, before any test touches Redis."""
    if not WORKER:
        # A serial run: its servers take the prefix (tests.live_settings), so must it.
        settings.CHANNEL_LAYERS = use_prefix(settings.CHANNEL_LAYERS)
        return
    url = os.environ.get("REDIS_URL")
    if url:
        url = redis_url(url)
        os.environ["REDIS_URL"] = url  # for the servers and the modules that read it
        settings.REDIS_URL = url
        settings.CACHES = {
            alias: {**cache, "LOCATION": url} if "redis" in cache["BACKEND"] else cache
            for alias, cache in settings.CACHES.items()
        }
        settings.CHANNEL_LAYERS = {
            alias: {**layer, "CONFIG": {**layer["CONFIG"], "hosts": [url]}}
            if layer["BACKEND"].startswith("channels_redis.")
            else layer
            for alias, layer in settings.CHANNEL_LAYERS.items()
        }
    settings.CHANNEL_LAYERS = use_prefix(settings.CHANNEL_LAYERS)
    # As override_settings does: the cache handler forgets the CACHES it read (and closes
    # what it may have opened), the channel layers theirs.
    from django.test.signals import setting_changed

    for name in ("CACHES", "CHANNEL_LAYERS"):
        setting_changed.send(
            sender=type(settings), setting=name, value=getattr(settings, name), enter=True
        )
