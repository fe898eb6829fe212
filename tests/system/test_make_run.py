"""`make run` (README, first lines) serves the site where it is told: `PORT` and `HOST` on
make's command line, 127.0.0.1:8000 otherwise, whatever PORT or HOST the environment
has. Runs the real command on a SQLite file of its own, as a developer would."""

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

from tests.support import ROOT, free_port


def test_make_run_serves_the_site_on_the_port_and_host_given(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
        "DEBUG": "1",
        "PORT": "1",  # the environment's own PORT and HOST move nothing
        "HOST": "192.0.2.1",
    }
    # -o: the install stays as it is (this test never installs packages).
    command = ["make", "-s", "-o", ".venv/.installed-run", "run", f"PORT={port}", "HOST=127.0.0.1"]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # the runserver and its reloader stop with the group
    )
    try:
        deadline, answer = time.monotonic() + 120, None
        while answer is None:
            assert server.poll() is None, server.stdout.read().decode()
            assert time.monotonic() < deadline, "make run never answered on its port"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=5) as got:
                    answer = got.status, got.read().decode()
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        assert answer[0] == 200 and "<html" in answer[1]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(30)
        server.stdout.close()


def test_make_run_listens_on_127_0_0_1_8000_unless_told():
    env = {**os.environ, "PORT": "1", "HOST": "192.0.2.1"}
    planned = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed-run", "run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "manage.py runserver 127.0.0.1:8000" in planned
