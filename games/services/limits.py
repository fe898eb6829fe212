"""How many rooms one person may open: ``ROOM_CREATION_PER_HOUR`` (counted in the shared
cache, Redis in production, under the person's account or guest id, so the count is one
across processes) and ``ROOMS_OPEN_AT_ONCE`` rooms they host that are waiting or playing
with someone at them (a room nobody is connected to costs nothing but its rows, and a
page left for another game stops counting the moment its socket closes). Guests are
counted by their address too (``ROOM_CREATION_PER_ADDRESS_PER_HOUR``, all guests of one
address together): a new guest id is only a cleared cookie away."""

from __future__ import annotations

from contextlib import contextmanager, suppress

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import ActionError
from games.identity import Actor
from games.models import Room

#: The hourly count's window: it starts at the first room of the hour.
HOUR = 3600


def count_one(key: str, seconds: float) -> int:
    """One more under ``key`` in the shared cache (the same count in every process),
    which keeps for ``seconds`` from the first; the count now."""
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, seconds)
        return 1


def creation_key(actor: Actor) -> str:
    """The cache key counting ``actor``'s new rooms: the same in every process."""
    if actor.user_id is not None:
        return f"room-creation:user:{actor.user_id}"
    return f"room-creation:guest:{actor.guest}"


def address_key(address: str) -> str:
    """The cache key counting the new rooms of every guest at ``address``."""
    return f"room-creation:address:{address}"


@contextmanager
def room_creation(actor: Actor, address: str | None = None):
    """Around opening a room for ``actor`` (a guest: from ``address``): refused
    (``too_many_rooms``) past any limit; a room that then fails to open is not counted."""
    keys = [creation_key(actor)]
    count = count_one(keys[0], HOUR)
    try:
        if actor.user_id is None and address:
            keys.append(address_key(address))
            if count_one(keys[1], HOUR) > settings.ROOM_CREATION_PER_ADDRESS_PER_HOUR:
                raise ActionError(
                    "too_many_rooms",
                    _(
                        "Many games have been started from your network in the last hour. "
                        "Log in to start another, or try again later."
                    ),
                )
        limit = settings.ROOM_CREATION_PER_HOUR
        if count > limit:
            raise ActionError(
                "too_many_rooms",
                ngettext(
                    "You have started %(n)s game in the last hour, the most there can be. "
                    "Play on in one of your games, or try again later.",
                    "You have started %(n)s games in the last hour, the most there can be. "
                    "Play on in one of your games, or try again later.",
                    limit,
                )
                % {"n": limit},
            )
        most = settings.ROOMS_OPEN_AT_ONCE
        if open_rooms(actor) >= most:
            raise ActionError(
                "too_many_rooms",
                ngettext(
                    "You already have %(n)s game open. Close it before starting another.",
                    "You already have %(n)s games open. Close one of them before starting another.",
                    most,
                )
                % {"n": most},
            )
        yield
    except BaseException:
        for key in keys:
            _uncount(key)
        raise


def open_rooms(actor: Actor) -> int:
    """Rooms ``actor`` hosts that are waiting or playing with someone connected."""
    if actor.user_id is not None:
        hosted = Room.objects.filter(host_id=actor.user_id)
    else:
        hosted = Room.objects.filter(host_guest=actor.guest)
    return hosted.filter(
        status__in=[Room.Status.WAITING, Room.Status.PLAYING], unattended_since__isnull=True
    ).count()


def _uncount(key: str) -> None:
    with suppress(ValueError):  # the window ended meanwhile
        cache.decr(key)
