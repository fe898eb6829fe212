"""`scripts/prod.sh` run as an operator would, on ports and a PROD_DIR of its own and the
test database: the ``prod`` fixture (registered in conftest.py) and ways to talk to it."""

import getpass
import os
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT, database_url_for_tests, free_ports

can_have_nginx = pytest.mark.skipif(
    not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx") or os.geteuid() == 0),
    reason="needs nginx, or root to install it (CI runs as root)",
)

SCRIPT = str(ROOT / "scripts" / "prod.sh")
UNVERIFIED = ssl._create_unverified_context()  # the self-signed certificate of the run


def fetch(url: str, data: bytes | None = None, headers=None) -> tuple[int, dict, bytes]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(
        NoRedirect, urllib.request.HTTPSHandler(context=UNVERIFIED)
    )
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=60) as response:
            return response.status, _headers(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, _headers(error.headers), error.read()


def _headers(message) -> dict:
    """The response's headers; every Set-Cookie kept, one per line."""
    headers = dict(message)
    if "Set-Cookie" in headers:
        headers["Set-Cookie"] = "\n".join(message.get_all("Set-Cookie"))
    return headers


@dataclass
class Site:
    dir: Path
    https: int
    http: int
    first_port: int
    env: dict

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def script(self, command: str, *args: str, timeout: float = 120, env=None):
        return subprocess.run(
            ["bash", SCRIPT, command, *args],
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def pid(self, slot: int) -> int:
        """The Daphne process of a slot (1, 2, ...), as the supervisor records it."""
        return int((self.dir / "run" / f"daphne-{slot}.pid").read_text())

    # The old fixture's tuple: (dir, https, http, script).
    def __iter__(self):
        yield self.dir
        yield self.https
        yield self.http
        yield lambda command, timeout: self.script(command, timeout=timeout)


@pytest.fixture
def prod(request, tmp_path):
    """The production server, two Daphne processes, started (`start`) and stopped at the
    end; a ``prod_env`` marker adds variables (``@pytest.mark.prod_env(NAME="value")``), or
    takes one away (``NAME=None``: ``REDIS_URL=None`` has the site run its own Redis)."""
    https, http, first, _second, redis = free_ports(5)
    marker = request.node.get_closest_marker("prod_env")
    site = Site(
        tmp_path / "prod",
        https,
        http,
        first,
        {
            **os.environ,
            "PROD_DIR": str(tmp_path / "prod"),
            "HTTPS_PORT": str(https),
            "HTTP_PORT": str(http),
            "LISTEN_ADDRESS": "127.0.0.1",
            "DAPHNE_FIRST_PORT": str(first),  # and first + 1
            "WEB_PROCESSES": "2",
            "DATABASE_URL": database_url_for_tests(),
            # Root's nginx workers drop to www-data by default, which cannot enter
            # pytest's private tmp_path; run them as ourselves.
            "NGINX_USER": getpass.getuser(),
            # And the Daphne processes: root's drop to the user oldmaid by default, from a
            # copy of the code and a venv of their own, which a PROD_DIR of each test would
            # install anew each time (test_prod_lifecycle.py tests the drop itself).
            "DAPHNE_USER": getpass.getuser(),
            # Where the site's own Redis listens, when it runs one (no REDIS_URL given).
            "REDIS_PORT": str(redis),
            **(marker.kwargs if marker else {}),
        },
    )
    site.env = {name: value for name, value in site.env.items() if value is not None}
    # Long enough for apt-get to install nginx on a fresh CI machine.
    started = site.script("start", timeout=300)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield site
    finally:
        stopped = site.script("stop", timeout=60)
        assert stopped.returncode == 0, stopped.stderr
