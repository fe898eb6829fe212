"""Bot lookups (docs/bots.md): by token or name, an owner's bots, those online, a bot's
games and challenges."""

from __future__ import annotations

from django.utils import timezone

from games.models import Room


def bot_for_token(token: str | None):
    """The bot whose API token this is (None for a wrong, revoked or malformed one)."""
    from games.models import Bot
    from games.tokens import token_hash

    if not token:
        return None
    return Bot.objects.select_related("user").filter(token_hash=token_hash(token)).first()


def bot_named(name: object):
    from games.models import Bot

    if not isinstance(name, str) or not 0 < len(name) <= 150:
        return None
    return Bot.objects.select_related("user").filter(user__username__iexact=name).first()


def bots_of(owner_id: int) -> list:
    from games.models import Bot

    return list(Bot.objects.select_related("user").filter(owner_id=owner_id))


def _online():
    """The bots with a token whose event stream holds them now (``games.realtime.streams``)."""
    from games.models import Bot

    return Bot.objects.filter(online_until__gt=timezone.now()).exclude(token_hash="")


def online_bots(limit: int = 50) -> list:
    """Bots whose event stream is open now, by name: at most ``limit``, read through the
    index on ``online_until`` (the bots online only), however many bots there are."""
    return list(_online().select_related("user").order_by("user__username")[:limit])


def bot_online(bot_id: int) -> bool:
    return _online().filter(pk=bot_id).exists()


def bots_online(bot_ids) -> set[int]:
    """Those of ``bot_ids`` whose event stream is open now."""
    return set(_online().filter(pk__in=list(bot_ids)).values_list("pk", flat=True))


def bot_token_is(bot_id: int, token: str) -> bool:
    """Whether ``token`` (a token's hash) is still the bot's: a socket or stream that
    checked its token before joining the bot's token group checks again after."""
    from games.models import Bot

    return bool(token) and Bot.objects.filter(pk=bot_id, token_hash=token).exists()


def bot_games(bot_id: int) -> list[tuple[Room, int]]:
    """The rooms waiting or playing where the bot holds a seat (not one it left), with
    the seat."""
    from games.models import Seat

    seats = Seat.objects.select_related("room").filter(
        user_id=bot_id,
        left=False,
        room__status__in=[Room.Status.WAITING, Room.Status.PLAYING],
    )
    return [(s.room, s.index) for s in seats.order_by("room_id")]


def pending_challenges(bot_id: int) -> list:
    """The bot's challenges still waiting for an answer, in rooms still waiting."""
    from games.models import Challenge

    return list(
        Challenge.objects.select_related("room", "room__host").filter(
            bot_id=bot_id, status=Challenge.Status.PENDING, room__status=Room.Status.WAITING
        )
    )


def room_challenges(room_id: int) -> list:
    """A waiting room's challenges still pending, for its page."""
    from games.models import Challenge

    return list(
        Challenge.objects.select_related("bot__user").filter(
            room_id=room_id, status=Challenge.Status.PENDING
        )
    )
