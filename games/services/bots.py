"""Bots: accounts someone wrote a player for, their tokens, and the challenges that seat
them at a table (docs/bots.md).

A bot is a user of its own with no usable password (``Bot``), so everything a person's
seat has (its name at the table, its results, its record) a bot's seat has too; its seat
is marked ``bot``. A challenge asks a bot to take one empty seat of a waiting friends
room; accepting it seats the bot as ``join_room`` seats a person. What a bot's event
stream says (``challenge``, ``challengeCanceled``, ``gameStart``, ``gameFinish``) is sent
to its group after the change commits (``games.services.publish.bot_event``).
"""

from __future__ import annotations

import math
import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import selectors
from games.engine import get_variant
from games.errors import ActionError
from games.identity import Actor
from games.models import Bot, Challenge, Room
from games.names import name_key
from games.services import publish
from games.services.bot_news import game_facts
from games.services.change import changing
from games.services.limits import count_one
from games.services.rooms import create_room, start_match
from games.tokens import new_bot_token, token_hash


class TooMany(ActionError):
    """A limit was reached: try again in ``retry_after`` seconds (HTTP 429)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__("too_many", message)
        self.retry_after = retry_after


# -- accounts and tokens ------------------------------------------------------------------


def create_bot(*, owner_id: int, name: str, description: str = "") -> tuple[Bot, str]:
    """A new bot account owned by ``owner_id``, and its token (shown once: only its hash
    is kept). ``name`` is checked by the form (``lobby.forms.BotForm``); here again that no
    account has it, whatever its case."""
    User = get_user_model()
    if Bot.objects.filter(owner_id=owner_id).count() >= settings.BOTS_PER_OWNER:
        raise ActionError(
            "not_allowed",
            ngettext(
                "You already have %(n)s bot, the most one person may have.",
                "You already have %(n)s bots, the most one person may have.",
                settings.BOTS_PER_OWNER,
            )
            % {"n": settings.BOTS_PER_OWNER},
        )
    if User.objects.filter(username__iexact=name).exists():
        raise ActionError("name_taken", _("That name is taken; choose another."))
    token = new_bot_token()
    try:
        with transaction.atomic():
            user = User(username=name)
            user.set_unusable_password()  # no form can sign it in
            user.save()
            bot = Bot.objects.create(
                user=user, owner_id=owner_id, description=description, token_hash=token_hash(token)
            )
    except IntegrityError as exc:  # the same name, taken at the same moment
        raise ActionError("name_taken", _("That name is taken; choose another.")) from exc
    return bot, token


def _owned(owner_id: int, bot_id: object) -> Bot:
    bot = Bot.objects.filter(owner_id=owner_id, pk=bot_id).select_related("user").first()
    if bot is None:
        raise ActionError("not_allowed", _("You have no such bot."))
    return bot


def new_token(*, owner_id: int, bot_id: object) -> tuple[Bot, str]:
    """A new token for the owner's bot: the old one stops working at once
    (``_replace_token``)."""
    bot = _owned(owner_id, bot_id)
    token = new_bot_token()
    _replace_token(bot, token_hash(token))
    return bot, token


def revoke_token(*, owner_id: int, bot_id: object) -> Bot:
    """The owner's bot has no token from now on (``_replace_token``)."""
    bot = _owned(owner_id, bot_id)
    _replace_token(bot, "")
    return bot


def play_public(*, owner_id: int, bot_id: object, on: bool) -> Bot:
    """The owner lets their bot take empty seats at public tables (Play now) while it is
    online, before the computer does, or stops it (``public_tables``)."""
    bot = _owned(owner_id, bot_id)
    bot.plays_public = on
    bot.save(update_fields=["plays_public"])
    return bot


def _replace_token(bot: Bot, new_hash: str) -> None:
    """The bot's token is ``new_hash`` from now on, and the one it replaces stops working
    at once: once committed, every socket and event stream opened with it, in every
    process, is told to close (``publish.token_revoked``); a frame of such a socket
    still on its way commits nothing (``change.with_token`` checks the token in the
    frame's own statement, and the row lock taken here waits for one being written).
    The bot is offline at once (its stream's claim goes with the token), so a stream
    opened with the new token is not refused as a second one."""
    with transaction.atomic():
        old = (
            Bot.objects.select_for_update()
            .filter(pk=bot.pk)
            .values_list("token_hash", flat=True)
            .first()
        )
        Bot.objects.filter(pk=bot.pk).update(token_hash=new_hash, stream="", online_until=None)
        if old:
            publish.after_commit(lambda: publish.token_revoked(bot.pk, old))


# -- event streams ------------------------------------------------------------------------
#
# One stream per bot, held in the bot's row (``stream``, ``online_until``), so the same in
# every process and without Redis: ``games.realtime.streams`` says when to call these.


def claim_stream(bot_id: int, seconds: float, token: str | None = None) -> str | None:
    """A new stream's hold on ``bot_id`` for ``seconds`` (while its token is ``token``,
    when given): its id, or None while another stream holds the bot. One statement, so
    two streams opening at once in two processes never both hold it."""
    stream = secrets.token_hex(8)
    now = timezone.now()
    free = Q(online_until__isnull=True) | Q(online_until__lte=now)
    held = Bot.objects.filter(free, pk=bot_id)
    if token is not None:
        held = held.filter(token_hash=token).exclude(token_hash="")
    changed = held.update(stream=stream, online_until=now + timedelta(seconds=seconds))
    return stream if changed else None


def keep_stream(bot_id: int, stream: str, seconds: float, token: str | None = None) -> bool:
    """``stream`` holds the bot ``seconds`` more: False when it does not hold it any more
    (its hold lapsed and another stream took the bot, or the token is not ``token``)."""
    held = Bot.objects.filter(pk=bot_id, stream=stream)
    if token is not None:
        held = held.filter(token_hash=token)
    return held.update(online_until=timezone.now() + timedelta(seconds=seconds)) == 1


def release_stream(bot_id: int, stream: str) -> None:
    """``stream`` ended: the bot is offline, unless another stream holds it by now."""
    Bot.objects.filter(pk=bot_id, stream=stream).update(stream="", online_until=None)


# -- limits -------------------------------------------------------------------------------


def _count(key: str, limit: int, window: int, message: str) -> None:
    """One more in ``key``'s fixed window of ``window`` seconds (counted in the shared
    cache, so the same in every process): refused with ``TooMany`` past ``limit``."""
    now = time.time()
    start = now - now % window
    if count_one(f"{key}:{int(start)}", window + 5) > limit:
        raise TooMany(message, max(1, math.ceil(start + window - now)))


def _count_challenge(who: str) -> None:
    per_minute, per_day = settings.BOT_CHALLENGES_PER_MINUTE, settings.BOT_CHALLENGES_PER_DAY
    _count(
        f"bot-challenges:minute:{who}",
        per_minute,
        60,
        ngettext(
            "At most %(n)s challenge a minute: wait a moment.",
            "At most %(n)s challenges a minute: wait a moment.",
            per_minute,
        )
        % {"n": per_minute},
    )
    _count(
        f"bot-challenges:day:{who}",
        per_day,
        86400,
        ngettext(
            "At most %(n)s challenge a day: try again tomorrow.",
            "At most %(n)s challenges a day: try again tomorrow.",
            per_day,
        )
        % {"n": per_day},
    )


# -- challenges ---------------------------------------------------------------------------


def challenge(
    *,
    room_id: int,
    actor: Actor,
    bot_name: str,
    seat: int | None = None,
    start_when_answered: bool = False,
) -> Challenge:
    """The host of a waiting friends room asks an online bot to take an empty seat (the
    given one, else the first that is empty and not already asked for). With
    ``start_when_answered`` the match starts by itself once no such challenge of the room
    waits for an answer."""
    if actor.user_id is None and not actor.guest:
        raise ActionError("not_host", _("Only the host may invite a bot."))
    bot = selectors.bot_named(bot_name)
    if bot is None:
        raise ActionError("not_allowed", _("There is no bot called %(name)s.") % {"name": bot_name})
    if not selectors.bot_online(bot.pk):
        raise ActionError(
            "not_allowed",
            _("%(name)s is not online: a bot can be invited only while it is connected.")
            % {"name": bot.name},
        )
    with changing(room_id) as change:
        room = change.room
        if not actor.owns(room):
            raise ActionError("not_host", _("Only the host may invite a bot."))
        if room.mode != Room.Mode.FRIENDS:
            raise ActionError("not_allowed", _("Only friends rooms take new players."))
        if room.status != Room.Status.WAITING:
            raise ActionError("already_started", _("This match has already started."))
        seats = change.seats
        if any(s.user_id == bot.pk for s in seats):
            raise ActionError(
                "not_allowed", _("%(name)s already has a seat here.") % {"name": bot.name}
            )
        pending = list(room.challenges.filter(status=Challenge.Status.PENDING))
        if any(c.bot_id == bot.pk for c in pending):
            raise ActionError(
                "not_allowed", _("%(name)s is already invited here.") % {"name": bot.name}
            )
        asked = {c.seat for c in pending}
        free = [s.index for s in seats if s.is_empty and s.index not in asked]
        if seat is None:
            seat = free[0] if free else None
        if seat not in free:
            raise ActionError("room_full", _("There is no empty seat to invite a bot to."))
        if any(name_key(s.name) == name_key(bot.name) for s in seats if not s.is_empty):
            raise ActionError(
                "name_taken",
                _("Someone at this table is already called %(name)s.") % {"name": bot.name},
            )
        _count_challenge(f"user:{actor.user_id}" if actor.user_id else f"guest:{actor.guest}")
        made = Challenge.objects.create(
            room=room,
            seat=seat,
            bot=bot,
            by_id=actor.user_id,
            start_when_answered=start_when_answered,
        )
        event = {"type": "challenge", "challenge": challenge_facts(made, room)}
        change.after_commit(lambda: publish.bot_event(bot.pk, event))
    return made


def challenge_facts(made: Challenge, room: Room) -> dict:
    """What a bot is told of a challenge (docs/bots.md, ``challenge``)."""
    host = room.host.get_username() if room.host_id else ""
    return {
        "id": made.pk,
        "room": room.code,
        "seat": made.seat,
        "variant": room.variant,
        "seats": room.seat_count,
        "rules": room.rules,
        "options": room.options,
        "by": host,
    }


def _pending(bot: Bot, challenge_id: object) -> Challenge:
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise ActionError("not_found", _("There is no such challenge."))
    found = Challenge.objects.filter(pk=challenge_id, bot=bot).first()
    if found is None:
        raise ActionError("not_found", _("There is no such challenge."))
    if found.status != Challenge.Status.PENDING:
        raise ActionError("not_allowed", _("This challenge was already answered or withdrawn."))
    return found


def accept(*, bot: Bot, challenge_id: object) -> dict:
    """The bot takes the challenge's seat: refused (and the challenge withdrawn) when the
    room has started or the seat was taken meanwhile. Returns the game's facts; the bot's
    stream hears ``gameStart`` once."""
    found = _pending(bot, challenge_id)
    refused = None
    with changing(found.room_id) as change:
        room = change.room
        found.refresh_from_db()
        if found.status != Challenge.Status.PENDING:
            raise ActionError("not_allowed", _("This challenge was already answered or withdrawn."))
        seat = next(s for s in change.seats if s.index == found.seat)
        if room.status != Room.Status.WAITING:
            refused = ActionError("already_started", _("This match has already started."))
        elif not seat.is_empty:
            refused = ActionError("room_full", _("That seat has been taken meanwhile."))
        found.answered_at = timezone.now()
        if refused is not None:
            found.status = Challenge.Status.CANCELED
            found.save(update_fields=["status", "answered_at"])
        else:
            found.status = Challenge.Status.ACCEPTED
            found.save(update_fields=["status", "answered_at"])
            seat.user_id, seat.guest, seat.name, seat.bot = bot.pk, "", bot.name, True
            seat.save()
            change.commit({"kind": "seat_taken", "seat": seat.index})
    if refused is not None:
        raise refused
    facts = game_facts(room, found.seat)
    # Committed: the bot hears of its seat once, as a match that starts now (its room
    # waited only for this answer) or as a seat in a room still waiting.
    if not _start_when_answered(found, room):
        publish.bot_event(bot.pk, {"type": "gameStart", "game": facts})
    return facts


def _start_when_answered(found: Challenge, room: Room) -> bool:
    """A room opened to play bots at once (its challenges made ``start_when_answered``:
    a game between bots, or the new-game form's bots) starts by itself once none of them
    waits for an answer; the built-in computer takes every seat still empty. Whether it
    started now."""
    if not found.start_when_answered:
        return False
    if Challenge.objects.filter(room_id=room.pk, status=Challenge.Status.PENDING).exists():
        return False
    host = Actor(user_id=room.host_id) if room.host_id else Actor(guest=room.host_guest)
    try:
        start_match(room_id=room.pk, actor=host, fill_with_computers=True)
    except ActionError:  # started meanwhile (another answer, the host)
        return False
    return True


def decline(*, bot: Bot, challenge_id: object) -> None:
    found = _pending(bot, challenge_id)
    updated = Challenge.objects.filter(pk=found.pk, status=Challenge.Status.PENDING).update(
        status=Challenge.Status.DECLINED, answered_at=timezone.now()
    )
    if not updated:
        raise ActionError("not_allowed", _("This challenge was already answered or withdrawn."))
    _start_when_answered(found, found.room)


# -- games between bots -------------------------------------------------------------------


def open_bot_game(*, bot: Bot, opponent: str, variant: object, seats: object = None) -> Challenge:
    """A bot opens a friends room against another online bot: it takes seat 0, the other
    is challenged for seat 1, any further seats go to the built-in computer, and the
    match starts by itself once the challenge is accepted. At most ``BOT_GAMES_PER_DAY``
    a day for a bot."""
    if selectors.bot_named(opponent) is None:
        raise ActionError("not_found", _("There is no bot called %(name)s.") % {"name": opponent})
    if opponent.casefold() == bot.name.casefold():
        raise ActionError("not_allowed", _("A bot cannot challenge itself."))
    try:
        game = get_variant(variant)
        seats = game.min_players if seats is None else seats
        game.check_players(seats)
        assert isinstance(seats, int)  # check_players refused anything else
    except (KeyError, TypeError, ValueError) as exc:  # no such game, or no such table
        raise ActionError("malformed", str(exc.args[0] if exc.args else exc)) from exc
    actor = Actor(user_id=bot.pk)
    with transaction.atomic():
        room = create_room(
            actor=actor,
            name=bot.name,
            variant=game.key,
            seat_count=seats,
            # Room.Mode is a str enum; untyped without django-stubs (a tuple to mypy).
            mode=Room.Mode.FRIENDS,  # type: ignore[arg-type]
            bot=True,
        )
        made = challenge(
            room_id=room.pk, actor=actor, bot_name=opponent, seat=1, start_when_answered=True
        )
        # Counted once the game could open (a refused one is not): past the limit, the
        # room and its challenge are rolled back with the refusal.
        per_day = settings.BOT_GAMES_PER_DAY
        _count(
            f"bot-games:day:{bot.pk}",
            per_day,
            86400,
            ngettext(
                "At most %(n)s game against bots a day: try again tomorrow.",
                "At most %(n)s games against bots a day: try again tomorrow.",
                per_day,
            )
            % {"n": per_day},
        )
        return made
