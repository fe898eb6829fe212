"""Daphne as scripts/prod.sh runs it behind nginx (--proxy-headers), sent the headers
nginx sends: the socket's page is https when X-Forwarded-Proto says so (production
settings), and failed log-ins count the address in X-Forwarded-For."""

import asyncio
import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from websockets.asyncio.client import connect

from tests.support import needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]

PASSWORD = "a-long-password-1"


async def lobby_socket(port: int, origin: str) -> int | str:
    """The first message's type, or the close code of a refused socket."""
    async with connect(
        f"ws://127.0.0.1:{port}/ws/lobby/",
        origin=origin,
        additional_headers={"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https"},
        open_timeout=10,
    ) as ws:
        try:
            return json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]
        except Exception:
            return ws.close_code


def test_sockets_behind_nginx_take_the_scheme_from_its_header(servers, tmp_path):
    server = servers(
        "prod-like",
        env={"DEBUG": "0", "SECRET_KEY": "s" * 60, "STATIC_ROOT": str(tmp_path / "static")},
        args=["--proxy-headers"],
    )
    base = f"127.0.0.1:{server.port}"
    assert asyncio.run(lobby_socket(server.port, f"https://{base}")) == "lobby"
    assert asyncio.run(lobby_socket(server.port, f"http://{base}")) == 4403
    assert asyncio.run(lobby_socket(server.port, "https://evil.example")) == 4403


def log_in_behind_proxy(port: int, username: str, password: str, address: str) -> int:
    """Through the form, as a browser behind nginx at ``address``: the status code."""
    jar = http.cookiejar.CookieJar()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    opener.addheaders = [("X-Forwarded-For", address)]
    url = f"http://127.0.0.1:{port}/accounts/login/"
    page = opener.open(url, timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    try:
        return opener.open(urllib.request.Request(url, data=body), timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


def test_failed_log_ins_count_the_forwarded_address(servers, settings):
    # The server hashes as production does (the tests' fast hasher is not in its list).
    from django.conf import global_settings

    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    get_user_model().objects.create_user(username="ann", password=PASSWORD)
    server = servers("proxied", args=["--proxy-headers"])
    for _ in range(5):
        assert log_in_behind_proxy(server.port, "ann", "wrong", "203.0.113.5") in (200, 429)
    assert log_in_behind_proxy(server.port, "ann", PASSWORD, "203.0.113.5") == 429
    assert log_in_behind_proxy(server.port, "ann", PASSWORD, "198.51.100.7") == 302
