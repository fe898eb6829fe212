"""Sockets open only from the site's own pages: scheme, host and port of the Origin must
be the page's (config/origin.py), through the whole ASGI application."""

import json

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "127.0.0.1:8000"


async def opens(origin: str | None, *, host: str = HOST, scheme=None, extra=()) -> bool:
    """True when the lobby socket opens and sends its list; False when it is refused
    (accepted, then closed with 4403)."""
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))

    async def app(scope, receive, send):
        if scheme:
            scope = {**scope, "scheme": scheme}
        return await application(scope, receive, send)

    socket = WebsocketCommunicator(app, "/ws/lobby/", headers=headers)
    connected, _ = await socket.connect(timeout=30)
    assert connected  # a refusal is a close code the page can read, not a failed handshake
    message = await socket.receive_output(timeout=5)
    if message["type"] == "websocket.close":
        assert message["code"] == 4403
        return False
    assert json.loads(message["text"])["type"] == "lobby"
    await socket.disconnect()
    return True


async def test_the_pages_own_origin_is_accepted():
    assert await opens(f"http://{HOST}")
    assert await opens("http://localhost", host="localhost")
    assert await opens("http://[::1]:8000", host="[::1]:8000")


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",  # another port
        "http://127.0.0.1",  # no port is port 80
        "https://127.0.0.1:8000",  # another scheme
        "http://evil.example:8000",  # another host
        "http://localhost:8000",  # another name for the same machine is another site
        "null",  # sandboxed frames and file: pages
        "http://127.0.0.1:8000/path",  # not an origin
        "http://127.0.0.1:notaport",
        "",
    ],
)
async def test_other_origins_are_refused(origin):
    assert not await opens(origin)


async def test_a_missing_origin_is_refused():
    assert not await opens(None)


async def test_a_host_we_do_not_serve_is_refused_even_when_origin_matches():
    # DNS rebinding: evil.example pointed at this server names itself in both headers.
    assert not await opens("http://evil.example:8000", host="evil.example:8000")


async def test_secure_sockets_need_an_https_origin():
    assert await opens(f"https://{HOST}", scheme="wss")
    assert not await opens(f"http://{HOST}", scheme="wss")
    assert await opens("https://127.0.0.1", host="127.0.0.1:443", scheme="wss")


async def test_behind_the_proxy_its_scheme_header_decides(settings):
    proto = (b"x-forwarded-proto", b"https")
    # Development trusts no header: a forged one changes nothing.
    assert not await opens("https://127.0.0.1:8443", host="127.0.0.1:8443", extra=[proto])
    # Production (DEBUG off) trusts nginx's header, as Django does for pages.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await opens("https://127.0.0.1:8443", host="127.0.0.1:8443", extra=[proto])
    assert not await opens("http://127.0.0.1:8443", host="127.0.0.1:8443", extra=[proto])
    assert await opens("http://127.0.0.1:8080", host="127.0.0.1:8080")


async def test_csrf_trusted_origins_are_accepted(settings):
    assert not await opens("https://play.example")
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example", "https://*.games.example"]
    assert await opens("https://play.example")
    assert await opens("https://table.games.example")
    assert not await opens("http://play.example")
    assert not await opens("https://play.example:8443")
    assert not await opens("https://gamesXexample")
