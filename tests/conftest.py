import collections
import os
from pathlib import Path

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"

# Real server processes (fixture "servers") for system and browser tests.
pytest_plugins = ["tests.support"]


def pytest_configure(config):
    # What `make test-fast` leaves out (-m "not browser and not system"): the hook
    # pytest_collection_modifyitems below marks them, so that no test has to remember to.
    config.addinivalue_line("markers", "browser: drives Chromium (tests/browser/conftest.py)")
    config.addinivalue_line(
        "markers", "system: starts real server processes (tests/system, fixture servers)"
    )
    from django.conf import settings

    from tests import workers

    # Under pytest-xdist: this worker's own Redis database and channel prefix.
    workers.keep_to_this_worker(settings)
    if REQUIRE_SERVICES:
        missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
        if missing:
            pytest.exit(
                f"REQUIRE_SERVICES=1 but {' and '.join(missing)} not set: "
                "CI must run against PostgreSQL and Redis (see .ci/run)",
                returncode=2,
            )


def pytest_report_header(config):
    from tests import matrix

    return f"browser checks by locale, size and scheme: {matrix.described()}"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "chromium" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
        if "servers" in item.fixturenames or "tests/system/" in item.nodeid:
            item.add_marker(pytest.mark.system)
    # The long kinds first (several server processes; many seconds of CPU; a browser), the
    # quick ones last: pytest-xdist's workers then share out the quick tests at the end
    # instead of one worker finishing a minute-long test alone. The same order on every
    # worker.
    kinds = ("system", "slow", "browser")
    items.sort(
        key=lambda item: next((i for i, k in enumerate(kinds) if k in item.keywords), len(kinds))
    )


#: The tests' own seconds (setup, call and teardown) by kind, summed over the workers.
_seconds_by_kind: collections.Counter = collections.Counter()
KINDS = ("system", "browser")


def pytest_runtest_logreport(report):
    kind = next((k for k in KINDS if k in report.keywords), "other")
    _seconds_by_kind[kind] += report.duration


def pytest_terminal_summary(terminalreporter):
    """Where the run's time went: worker-seconds by kind of test (docs/performance.md)."""
    if not _seconds_by_kind:
        return
    parts = [f"{kind} {_seconds_by_kind[kind]:.0f}" for kind in (*KINDS, "other")]
    total = sum(_seconds_by_kind.values())
    terminalreporter.write_line(f"worker-seconds by kind: {', '.join(parts)}; {total:.0f} in all")


def pytest_unconfigure(config):
    # Django deletes a SQLite test database's file, but not the write-ahead log beside it
    # (config/settings.py: WAL) that connections of worker threads may have kept.
    from django.conf import settings

    if not settings.configured:
        return
    database = settings.DATABASES["default"]
    name = database.get("TEST", {}).get("NAME")
    if database["ENGINE"] == "django.db.backends.sqlite3" and name:
        for suffix in ("-wal", "-shm"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # PBKDF2 is slow on purpose; tests only need hashing to work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def site_language():
    """Every test starts in the site's default language: a test (or the code it drives in
    this thread) that activates another and never deactivates it must not change what the
    next test on this worker reads."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_cache():
    # The cache holds rate-limit counts; in CI it is Redis and outlives a run. Each test
    # worker has a Redis database of its own (tests/workers.py): this empties only its own.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def no_kept_rooms():
    # The rooms a process keeps between draws (games.services.resident) belong to the
    # database of the test that drew in them.
    # Nor may a worker thread's own connection for them (games.services.sql) outlive the
    # test: it would keep the test database from being dropped.
    from games.services import resident, sql

    resident.forget_all()
    yield
    resident.forget_all()
    sql.close_own_connections()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    # Each async test runs in its own event loop, but a channel layer keeps asyncio locks
    # bound to the loop it first ran in (channels_redis): give every test a new layer.
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session", autouse=True)
def no_connections_left_behind(django_db_setup, django_db_blocker):
    """Before the test database is dropped, end the connections other threads still hold
    (worker threads of database_sync_to_async keep theirs until they exit), so that the
    drop succeeds instead of warning that the database is in use."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def no_query_on_the_event_loop(caplog):
    """A query made on a server's event loop (Django refuses it there) fails the test,
    even where the code that met it logged it and went on (a draw on the loop falls back
    to a worker thread, a broadcast that could not be handed over is logged): the loop's
    path must never reach the database but through its own statement."""
    yield
    from django.core.exceptions import SynchronousOnlyOperation

    met = [
        record.getMessage()
        for record in caplog.get_records("call")
        if record.exc_info and isinstance(record.exc_info[1], SynchronousOnlyOperation)
    ]
    assert not met, f"a query on the event loop, logged as: {met}"
