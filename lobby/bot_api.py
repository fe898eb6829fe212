"""The bot API (docs/bots.md): JSON over HTTP, ``Authorization: Bearer <token>``.

No cookie is read for a bot, and the token is never taken from a URL. So every view
here, the catch-all for the rest of ``/api/bot/`` included, is exempt from the CSRF check
(a page cannot send the header, so it cannot ride on a token); none of them looks at the
session or ``request.user``, so a request with only a person's cookies is refused (401)
before anything is done. Every answer is JSON, whatever the path under ``/api/bot/`` and
the method; a refusal says why in ``message`` with a stable ``error`` code and changes
nothing:

- 400 ``malformed``: the body is not the JSON object documented (a field it does not
  take is named);
- 401 ``unauthorized``: no token, or a wrong or revoked one;
- 404 ``not_found``: no such challenge for this bot, no such bot, or no such endpoint;
- 409 (the service's code): the challenge was answered, the room started, the seat taken;
- 405 ``method_not_allowed``: the wrong method, with ``Allow``;
- 429 ``too_many``: a limit, with ``Retry-After``; also a second event stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools

import orjson
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games import selectors
from games.errors import ActionError
from games.realtime import streams
from games.realtime.broadcast import bot_group, token_group
from games.realtime.layers import forget_channel
from games.realtime.workers import in_worker
from games.services import bots
from games.tokens import bearer_token

#: Largest request body a bot sends (a challenge's few fields).
MAX_BODY = 2048
STATUS = {"malformed": 400, "not_found": 404, "too_many": 429}


def _refusal(status: int, error: str, message: str, **headers) -> JsonResponse:
    response = JsonResponse({"error": error, "message": message}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _unauthorized() -> JsonResponse:
    return _refusal(
        401,
        "unauthorized",
        _("This needs a bot's token: Authorization: Bearer <token>."),
        WWW_Authenticate='Bearer realm="bots"',
    )


def _refused(exc: ActionError) -> JsonResponse:
    headers = {}
    if isinstance(exc, bots.TooMany):
        headers["Retry_After"] = str(exc.retry_after)
    return _refusal(STATUS.get(exc.code, 409), exc.code, exc.message, **headers)


def only(method: str):
    """The view answers ``method`` only; any other is refused in JSON (405, ``Allow``)."""

    def refused():
        message = _("Use %(method)s here.") % {"method": method}
        return _refusal(405, "method_not_allowed", message, Allow=method)

    def decorate(view):
        if asyncio.iscoroutinefunction(view):

            @functools.wraps(view)
            async def checked(request, *args, **kwargs):
                if request.method != method:
                    return refused()
                return await view(request, *args, **kwargs)

        else:

            @functools.wraps(view)
            def checked(request, *args, **kwargs):
                if request.method != method:
                    return refused()
                return view(request, *args, **kwargs)

        return checked

    return decorate


def _bot(request):
    return selectors.bot_for_token(bearer_token(request.headers.get("Authorization")))


def _body(request) -> dict | None:
    """The request's JSON object (``{}`` for no body), or None when it is not one. Read
    no further than ``MAX_BODY`` (a larger body is refused here, in JSON, never by
    Django's own 400 page for a body past ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if length > MAX_BODY:
        return None
    raw = request.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        return None
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _unknown_fields(body: dict, takes: tuple[str, ...]) -> str:
    """The fields of ``body`` an endpoint does not take, quoted and in order ("" when
    none): a field the server would ignore is refused instead, as the table socket
    refuses one (docs/bots.md)."""
    return ", ".join(f'"{name}"' for name in sorted(set(body) - set(takes)))


def _socket_url(request, code: str) -> str:
    scheme = "wss" if request.is_secure() else "ws"
    return f"{scheme}://{request.get_host()}/ws/rooms/{code}/"


@csrf_exempt
@only("GET")
def account(request):
    """Who this token is: the bot's name and its owner's."""
    bot = _bot(request)
    if bot is None:
        return _unauthorized()
    return JsonResponse(
        {"id": bot.pk, "name": bot.name, "owner": bot.owner.get_username(), "bot": True}
    )


@csrf_exempt
@only("POST")
def answer(request, challenge_id: int, how: str):
    """Accept or decline one of the bot's challenges (no body, or an empty object)."""
    bot = _bot(request)
    if bot is None:
        return _unauthorized()
    body = _body(request)
    if body is None:
        return _refusal(400, "malformed", _("Send no body, or an empty JSON object."))
    if unknown := _unknown_fields(body, ()):
        return _refusal(
            400,
            "malformed",
            _("Unknown field %(fields)s: answering a challenge takes no field.")
            % {"fields": unknown},
        )
    try:
        if how == "accept":
            game = bots.accept(bot=bot, challenge_id=challenge_id)
            game = {**game, "socket": _socket_url(request, game["room"])}
            return JsonResponse({"ok": True, "game": game})
        bots.decline(bot=bot, challenge_id=challenge_id)
    except ActionError as exc:
        return _refused(exc)
    return JsonResponse({"ok": True})


@csrf_exempt
@only("POST")
def challenge_bot(request, name: str):
    """The bot opens a game against another online bot (``bots.open_bot_game``)."""
    bot = _bot(request)
    if bot is None:
        return _unauthorized()
    body = _body(request)
    if body is None or not isinstance(body.get("variant", "babanuki"), str):
        return _refusal(
            400, "malformed", _('Send a JSON object such as {"variant": "babanuki", "seats": 2}.')
        )
    if unknown := _unknown_fields(body, ("variant", "seats")):
        return _refusal(
            400,
            "malformed",
            _('Unknown field %(fields)s: a challenge takes only "variant" and "seats".')
            % {"fields": unknown},
        )
    try:
        made = bots.open_bot_game(
            bot=bot,
            opponent=name,
            variant=body.get("variant", "babanuki"),
            seats=body.get("seats"),
        )
    except ActionError as exc:
        return _refused(exc)
    return JsonResponse({"ok": True, "challenge": {"id": made.pk, "room": made.room.code}})


@csrf_exempt
@only("GET")
async def stream(request):
    """The bot's events, one JSON object a line (ndjson): first its games and pending
    challenges, then what happens, and an empty line every ``BOT_KEEPALIVE_SECONDS``.
    One stream per bot: a second is refused (429) while the first is open."""
    bot = await in_worker(_bot)(request)
    if bot is None:
        return _unauthorized()
    stream_id = await in_worker(streams.claim)(bot.pk, bot.token_hash)
    if stream_id is None:
        return _refusal(
            429,
            "too_many",
            _("This bot already has an event stream open: one at a time."),
            Retry_After=str(int(3 * settings.BOT_KEEPALIVE_SECONDS)),
        )
    response = StreamingHttpResponse(
        _lines(request, bot, stream_id), content_type="application/x-ndjson"
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on as it comes
    return response


def _first_lines(request, bot) -> list[dict]:
    """What the stream starts with: the bot's games, then its pending challenges."""
    events = [
        {"type": "gameStart", "game": bots.game_facts(room, seat)}
        for room, seat in selectors.bot_games(bot.pk)
    ]
    events += [
        {"type": "challenge", "challenge": bots.challenge_facts(c, c.room)}
        for c in selectors.pending_challenges(bot.pk)
    ]
    return events


def _line(request, event: dict) -> bytes:
    if event.get("type") in ("gameStart", "gameFinish"):
        game = event["game"]
        event = {**event, "game": {**game, "socket": _socket_url(request, game["room"])}}
    return orjson.dumps(event) + b"\n"


def _still_valid(bot_id: int, token_hash: str, stream_id: str) -> bool:
    """The stream goes on while its token is the bot's and the stream the bot's one."""
    return streams.refresh(bot_id, stream_id, token_hash)


async def _lines(request, bot, stream_id: str):
    layer = get_channel_layer()
    channel = await layer.new_channel()
    group, waiting = bot_group(bot.pk), None
    try:
        await layer.group_add(group, channel)
        # Its token revoked or replaced, the stream ends at once (broadcast.token_revoked);
        # checked again once listening, for a revoke whose message went out before.
        await layer.group_add(token_group(bot.pk), channel)
        if not await in_worker(selectors.bot_token_is)(bot.pk, bot.token_hash):
            return
        yield b"\n"  # the answer's headers go out at once, before any event
        for event in await in_worker(_first_lines)(request, bot):
            yield _line(request, event)
        loop = asyncio.get_running_loop()
        keepalive = settings.BOT_KEEPALIVE_SECONDS
        check_at = loop.time() + keepalive
        while True:
            if waiting is None:
                # One receive at a time, cancelled only at the end: cancelling it would
                # drop the channel on the publish/subscribe layer.
                waiting = asyncio.ensure_future(layer.receive(channel))
            await asyncio.wait({waiting}, timeout=max(0.0, check_at - loop.time()))
            if waiting.done():
                message, waiting = waiting.result(), None
                if message.get("type") == "bot.event":
                    yield _line(request, message["event"])
                elif message.get("type") == "bot.revoked" and message["token"] == bot.token_hash:
                    return
            if loop.time() >= check_at:  # however busy the stream, every keep-alive
                if not await in_worker(_still_valid)(bot.pk, bot.token_hash, stream_id):
                    return  # revoked, or its hold lapsed and another stream took the bot
                yield b"\n"
                check_at = loop.time() + keepalive
    finally:
        if waiting is not None:
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await waiting
        with contextlib.suppress(Exception):
            await layer.group_discard(group, channel)
            await layer.group_discard(token_group(bot.pk), channel)
        await forget_channel(layer, channel)
        with contextlib.suppress(Exception):  # the database is away: the hold lapses anyway
            await in_worker(streams.release)(bot.pk, stream_id)


@csrf_exempt
def not_found(request, *args, **kwargs) -> HttpResponse:
    """Any other path under ``/api/bot/``, whatever the method: a JSON 404 (exempt from
    the CSRF check, as it does nothing and reads no cookie)."""
    return _refusal(404, "not_found", _("The bot API has no such endpoint."))
