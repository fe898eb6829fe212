"""`make run` leaves nothing untracked in the checkout: SQLite's database and the files it
keeps beside it while the site runs (write-ahead log, shared memory) are ignored."""

import subprocess

import pytest

from tests.support import ROOT


@pytest.mark.parametrize(
    "name", ["db.sqlite3", "db.sqlite3-shm", "db.sqlite3-wal", "db.sqlite3-journal"]
)
def test_sqlites_files_beside_the_database_are_ignored_by_git(name):
    found = subprocess.run(
        ["git", "check-ignore", "--no-index", name], cwd=ROOT, capture_output=True, text=True
    )
    assert found.stdout.strip() == name, f"{name} would show as untracked"
