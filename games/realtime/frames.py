"""The table socket's frame grammar, in one table (docs/protocol.md): each action a client
may send, the fields it takes, and what answers it; and the parser that checks a frame
against it. ``games.realtime.consumers`` reads a frame with ``parse_action`` and hands it to the
answer ``FRAMES`` names."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import orjson
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import services
from games.errors import ActionError
from games.identity import Actor

#: What answers a frame besides a service: the socket itself, from the state it keeps
#: (``ping``, ``sync``), or the room's group, checked against that state and never stored
#: (``point``, ``react``: ``games.realtime.together``).
SOCKET, TOGETHER = "socket", "together"

#: A service's call for a frame: (room id, actor, the frame's ply, the frame).
Call = Callable[[int, Actor, dict, dict], object]


@dataclass(frozen=True)
class Frame:
    #: The fields the action takes (besides "type" and an optional "ref"); the match,
    #: round and draw fields name the move it answers (its ply).
    fields: dict[str, type]
    #: SOCKET, TOGETHER, or the service call that answers it (in a worker thread).
    answer: str | Call
    #: Fields that may be left out.
    optional: frozenset[str] = frozenset()
    #: Fields that must be present but may be null (a point at no card).
    nullable: frozenset[str] = frozenset()
    #: A call tried first, on the event loop itself: whether it answered the frame (if
    #: not, ``answer`` does, in a worker thread).
    on_loop: Callable[[int, Actor, dict, dict], Awaitable[bool]] | None = None


PLY_DRAW: dict[str, type] = {"match": int, "round": int, "draw": int}
PLY_ROUND: dict[str, type] = {"match": int, "round": int}
PLY_MATCH: dict[str, type] = {"match": int}

FRAMES: dict[str, Frame] = {
    "draw": Frame(
        {**PLY_DRAW, "position": int},
        lambda room, actor, at, f: services.draw(
            room_id=room, actor=actor, at=at, position=f["position"]
        ),
        on_loop=lambda room, actor, at, f: services.draw_on_loop(
            room_id=room, actor=actor, at=at, position=f["position"]
        ),
    ),
    "next_round": Frame(
        PLY_ROUND, lambda room, actor, at, f: services.next_round(room_id=room, actor=actor, at=at)
    ),
    "rematch": Frame(
        PLY_MATCH, lambda room, actor, at, f: services.rematch(room_id=room, actor=actor, at=at)
    ),
    "leave": Frame(
        PLY_MATCH, lambda room, actor, at, f: services.leave_match(room_id=room, actor=actor, at=at)
    ),
    "resign": Frame(
        PLY_MATCH, lambda room, actor, at, f: services.resign(room_id=room, actor=actor, at=at)
    ),
    "start": Frame(
        {"fill": bool},
        lambda room, actor, at, f: services.start_match(
            room_id=room, actor=actor, fill_with_computers=bool(f.get("fill"))
        ),
        optional=frozenset({"fill"}),
    ),
    "speed": Frame(
        {"speed": str},
        lambda room, actor, at, f: services.set_computer_speed(
            room_id=room, actor=actor, speed=f["speed"]
        ),
    ),
    "sync": Frame({}, SOCKET),
    "ping": Frame({}, SOCKET),
    "point": Frame({**PLY_DRAW, "position": int}, TOGETHER, nullable=frozenset({"position"})),
    "react": Frame({"reaction": str}, TOGETHER),
}

#: Each action and the fields it takes.
ACTIONS: dict[str, dict[str, type]] = {kind: frame.fields for kind, frame in FRAMES.items()}

#: A frame larger than this is not even read for its "ref".
UNREAD_BYTES = 65536


def parse_action(text: str | None, data: bytes | None) -> dict:
    """The client's message as a checked dict, or ActionError saying what is wrong (with
    the message's ``ref`` when it had a valid one)."""
    if data is not None:
        raise ActionError("malformed", _("Send text frames holding JSON."))
    if text is None:
        raise ActionError("malformed", _("Empty message."))
    try:
        size = len(text.encode())
    except UnicodeEncodeError:  # a raw lone surrogate: not UTF-8 (Daphne never sends one)
        size = len(text.encode(errors="surrogatepass"))
    message, ref_only = _json_object(text) if size <= UNREAD_BYTES else (None, False)
    ref = message.get("ref") if message is not None else None
    ref = ref if isinstance(ref, str) and len(ref) <= 40 and _utf8(ref) else None
    try:
        if size > settings.WS_MAX_MESSAGE_BYTES:
            raise ActionError(
                "too_large",
                ngettext(
                    "Messages are at most %(bytes)s byte.",
                    "Messages are at most %(bytes)s bytes.",
                    settings.WS_MAX_MESSAGE_BYTES,
                )
                % {"bytes": settings.WS_MAX_MESSAGE_BYTES},
            )
        if ref_only:  # a lone surrogate: no action holds one, and it cannot be echoed
            raise ActionError("malformed", _("The message is not valid JSON."))
        if message is None:
            raise ActionError("malformed", _("The message must be a JSON object."))
        _check_shape(message)
    except ActionError as exc:
        exc.ref = ref
        raise
    return message


def _json_object(text: str) -> tuple[dict | None, bool]:
    """The JSON object ``text`` holds (or None), and whether it was read only for its
    ``ref``: orjson refused it, a lone surrogate (raw, or as an escape) among its text."""
    surrogates = not _utf8(text)
    if not surrogates:
        try:
            message = orjson.loads(text)
            return (message if isinstance(message, dict) else None), False
        except orjson.JSONDecodeError:  # also past 1,024 levels of nesting
            if "\\u" not in text:
                return None, False
    # orjson refuses lone surrogates, raw or as escapes (JSON allows "\\ud800"): Python's
    # parser reads them, for the "ref" (the message itself is refused as not JSON).
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None, surrogates
    return (message if isinstance(message, dict) else None), True


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _check_shape(message: dict) -> None:
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ActionError("malformed", _('The message needs a "type".'))
    if kind not in ACTIONS:
        raise ActionError("unknown_action", _("Unknown action %(type)r.") % {"type": kind[:40]})
    ref = message.get("ref")
    if ref is not None and not (isinstance(ref, str) and len(ref) <= 40):
        raise ActionError("malformed", _('"ref" must be a string of at most 40 characters.'))
    frame = FRAMES[kind]
    fields = frame.fields
    extra = set(message) - set(fields) - {"type", "ref"}
    if extra:
        raise ActionError(
            "malformed",
            ngettext("Unexpected field: %(fields)s.", "Unexpected fields: %(fields)s.", len(extra))
            % {"fields": ", ".join(sorted(extra))[:80]},
        )
    for name, expected in fields.items():
        value = message.get(name)
        if value is None:
            if name in frame.optional or (name in frame.nullable and name in message):
                continue
            raise ActionError(
                "malformed", _('"%(type)s" needs "%(field)s".') % {"type": kind, "field": name}
            )
        if type(value) is not expected:  # bool is not an int here
            if expected is bool:
                text = _('"%(field)s" must be true or false.')
            else:
                text = _('"%(field)s" must be a whole number.')
            raise ActionError("malformed", text % {"field": name})


def ply(action: dict) -> dict:
    """The fields of ``action`` naming the move it answers."""
    return {name: action[name] for name in ("match", "round", "draw") if name in action}
