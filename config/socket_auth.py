"""Who a browser's socket belongs to: Channels' ``AuthMiddlewareStack``, except that a
session signed in under a key of ``SECRET_KEY_FALLBACKS`` is still signed in, as it is
for Django's own pages.

Channels checks the session's auth hash against ``SECRET_KEY`` alone and, on a mismatch,
flushes the session: while a new secret key took over (``scripts/prod.sh rotate-key``),
every signed-in player's table socket deleted their session, signing them out of the whole
site, and a private room's socket was refused (4403) again at each reconnect. Here a hash
made with a fallback key is accepted, and nothing about the session is changed (a socket
cannot hand the browser a new cookie; the next page request re-signs it, as Django does).
"""

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.utils.crypto import constant_time_compare


@database_sync_to_async
def get_user(scope):
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
        load_backend,
    )
    from django.contrib.auth.models import AnonymousUser

    session = scope["session"]
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return AnonymousUser()
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    user = load_backend(backend_path).get_user(user_id)
    if user is None:
        return AnonymousUser()
    if hasattr(user, "get_session_auth_hash"):
        given = session.get(HASH_SESSION_KEY) or ""
        hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
        if not given or not any(constant_time_compare(given, h) for h in hashes):
            return AnonymousUser()  # a changed password, or a retired key
    return user


class FallbackAwareAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await get_user(scope)


def AuthMiddlewareStack(inner):  # noqa: N802 - named as Channels' own
    return CookieMiddleware(SessionMiddleware(FallbackAwareAuthMiddleware(inner)))
