"""Who a request or socket is: a signed-in user, or a guest browser (a random id kept in
the session, so a guest keeps their seats while the browser session lasts)."""

import secrets

from games.services import Actor

GUEST_KEY = "guest_id"


def guest_id(request) -> str:
    """The request's guest id, created on first use."""
    value = request.session.get(GUEST_KEY)
    if not value:
        value = secrets.token_hex(16)
        request.session[GUEST_KEY] = value
    return value


def actor_from_request(request) -> Actor:
    if request.user.is_authenticated:
        return Actor(user_id=request.user.pk)
    return Actor(guest=guest_id(request))


def actor_from_scope(scope) -> Actor:
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Actor(user_id=user.pk)
    session = scope.get("session")
    guest = session.get(GUEST_KEY, "") if session is not None else ""
    return Actor(guest=guest)
