"""Who a request or socket is: a signed-in user, or a guest browser (a random id kept in
the session, so a guest keeps their seats while the browser session lasts)."""

import secrets
from dataclasses import dataclass

from games.engine.seats import hosts, plays

GUEST_KEY = "guest_id"


@dataclass(frozen=True)
class Actor:
    """Who is acting: a signed-in user or a guest browser."""

    user_id: int | None = None
    guest: str = ""

    def plays(self, seat, *, including_left: bool = False) -> bool:
        """Whether this actor plays ``seat`` (a ``Seat`` row): holds it and has not left
        the match, or, ``including_left``, holds it at all (``games.engine.seats.plays``)."""
        return plays(self, seat.user_id, seat.guest, seat.left, including_left=including_left)

    def seats_in(self, seats, *, including_left: bool = False) -> list:
        """The seats among ``seats`` (``Seat`` rows) this actor plays (``plays``)."""
        return [s for s in seats if self.plays(s, including_left=including_left)]

    def seats_query(self, *, including_left: bool = False, through: str = ""):
        """``plays`` as a query: a ``Q`` for the ``Seat`` rows this actor plays (through
        ``through``, such as ``"seats__"`` from ``Room``), or None for nobody's actor."""
        from django.db.models import Q

        held = []
        if self.user_id is not None:
            held.append(Q(**{f"{through}user_id": self.user_id}))
        if self.guest:
            held.append(Q(**{f"{through}guest": self.guest}))
        if not held:
            return None
        query = held[0] if len(held) == 1 else held[0] | held[1]
        return query if including_left else query & Q(**{f"{through}left": False})

    def owns(self, room) -> bool:
        """Whether this actor is ``room``'s host (``games.engine.seats.hosts``)."""
        return hosts(self, room.host_id, room.host_guest)


def guest_id(request) -> str:
    """The request's guest id, created on first use (which stores a session)."""
    value = request.session.get(GUEST_KEY)
    if not value:
        value = secrets.token_hex(16)
        request.session[GUEST_KEY] = value
    return value


def actor_from_request(request) -> Actor:
    """Who is acting: a guest id is created for a visitor who has none, so only a request
    that does something (opening a room, sitting down) should ask."""
    if request.user.is_authenticated:
        return Actor(user_id=request.user.pk)
    return Actor(guest=guest_id(request))


def viewer_from_request(request) -> Actor:
    """Who is looking: like ``actor_from_request``, but a visitor without a guest id stays
    without one (``Actor()``, nobody's seat), so viewing a page stores no session."""
    if request.user.is_authenticated:
        return Actor(user_id=request.user.pk)
    return Actor(guest=request.session.get(GUEST_KEY, ""))


def actor_from_scope(scope) -> Actor:
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Actor(user_id=user.pk)
    session = scope.get("session")
    guest = session.get(GUEST_KEY, "") if session is not None else ""
    return Actor(guest=guest)


def language_from_scope(scope) -> str:
    """A socket's language, as LocaleMiddleware would pick it: the language cookie, then
    the browser's Accept-Language, then the default."""
    from django.conf import settings
    from django.utils import translation
    from django.utils.translation.trans_real import parse_accept_lang_header

    candidates = [scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")]
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        if not code:
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
