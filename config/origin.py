"""Sockets only from the site's own pages: the WebSocket Origin check.

A browser sends any page's cookies with a WebSocket it opens, so a socket from another
site's page would act as the signed-in player (cross-site WebSocket hijacking). Channels'
``AllowedHostsOriginValidator`` only compares the Origin's host name with
``ALLOWED_HOSTS`` and ignores scheme and port (``http://127.0.0.1:9999`` passes). Here
the Origin must equal the origin of the page the socket was opened from,
``{http|https}://{Host header}``, or be listed in ``CSRF_TRUSTED_ORIGINS``.

The page's scheme is ``https`` when the socket is ``wss``. Behind nginx, Daphne hears
plain ``ws`` (and, even with ``--proxy-headers``, leaves ``scheme`` out of a WebSocket's
scope), so, exactly as Django does for a page, ``SECURE_PROXY_SSL_HEADER`` (set when
``DEBUG`` is off; nginx sends ``X-Forwarded-Proto``) decides: nothing else trusts it.

A refused socket is accepted and closed at once with code 4403, so the page can tell a
refusal from a network failure and stop retrying.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

REFUSED = 4403
DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_parts(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin, with the default port filled in."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def _header(scope, name: bytes) -> str | None:
    values = [v for k, v in scope.get("headers", ()) if k.lower() == name]
    if len(values) != 1:  # absent, or repeated: nothing to compare with
        return None
    try:
        return values[0].decode("ascii")
    except UnicodeDecodeError:
        return None


def _secure(scope) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    name, secure_value = proxy
    name = name.removeprefix("HTTP_").replace("_", "-").lower().encode("ascii")
    value = _header(scope, name)
    return value is not None and value.split(",", 1)[0].strip() == secure_value


def page_origin(scope) -> tuple[str, str, int] | None:
    """The origin of the page this socket belongs to, if its Host is one we serve."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return _origin_parts(f"{'https' if _secure(scope) else 'http'}://{host}")


def _trusted(origin: tuple[str, str, int]) -> bool:
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        if "://*." in entry:  # Django's form for every subdomain of a domain
            scheme, _, pattern = entry.partition("://")
            parts = _origin_parts(f"{scheme}://{pattern.removeprefix('*')}")
            if (
                parts
                and parts[0] == origin[0]
                and parts[2] == origin[2]
                and is_same_domain(origin[1], "." + parts[1].lstrip("."))
            ):
                return True
        elif _origin_parts(entry) == origin:
            return True
    return False


def origin_allowed(scope) -> bool:
    origin = _header(scope, b"origin")
    parts = _origin_parts(origin) if origin else None
    if parts is None:  # missing, "null", or not an origin at all
        return False
    return parts == page_origin(scope) or _trusted(parts)


class SameOriginMiddleware:
    """ASGI middleware for the ``websocket`` scope: refuse sockets from other origins."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or origin_allowed(scope):
            return await self.app(scope, receive, send)
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": REFUSED})
