"""Log-ins: a guest's games kept at every log-in (sign-up included), and for failed
log-ins (django-axes, configured in settings) whose address counts and the page a
locked-out log-in gets, on the site's form and the admin's alike."""

import math

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.shortcuts import render

from games import services
from games.identity import GUEST_KEY


@receiver(user_logged_in, dispatch_uid="lobby.logins.keep_guest_games")
def keep_guest_games(sender, request, user, **kwargs):
    """Whoever logs in, on any form, keeps the games they played as a guest in this
    browser: the seats become the account's (``services.claim_guest_games``)."""
    session = getattr(request, "session", None) if request is not None else None
    guest = session.pop(GUEST_KEY, "") if session is not None else ""
    if guest:
        services.claim_guest_games(guest=guest, user_id=user.pk)


def client_address(request) -> str | None:
    """The client's address as the server saw it. Behind nginx, Daphne's
    ``--proxy-headers`` has already put the client's address here (nginx replaces
    ``X-Forwarded-For``); anywhere else a forwarding header is the client's own word."""
    return request.META.get("REMOTE_ADDR") or None


def locked_out(request, original_response=None, credentials=None):
    """Our own page, in the reader's language, with the wait (never a bare 403)."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    response = render(
        request,
        "registration/locked_out.html",
        {"minutes": max(1, math.ceil(seconds / 60)), "again": request.get_full_path()},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response
