"""What an event may say: every field, and every value it may take.

Nothing here can hold an address, an identity, a room or a hand: fields are small closed
sets (or a bounded number), unknown fields are dropped, and any value outside its set
refuses the whole event.
"""

from __future__ import annotations

from games.engine import LEVELS, VARIANTS

MAX_BODY_BYTES = 2048

KINDS = (
    "game_started",
    "game_finished",
    "connection",  # a friends game's connection succeeded or failed
    "view_3d_failed",
    "render_speed",
)
MODES = ("computer", "same_device", "friends")
RESULTS = ("won", "lost", "placed", "abandoned")  # result class of a finished game
DURATIONS = ("<1m", "1-3m", "3-10m", "10-30m", ">30m")
DRAW_COUNTS = ("<20", "20-50", "50-100", ">100")
MEMORY = ("<2", "2-4", "4-8", ">8", "unknown")  # GB, as the browser reports it
CORES = ("1-2", "3-4", "5-8", ">8", "unknown")
BROWSERS = ("chrome", "firefox", "safari", "edge", "samsung", "other")
SYSTEMS = ("android", "ios", "windows", "macos", "linux", "chromeos", "other")
RENDER_SPEEDS = ("<30fps", "30-50fps", ">50fps")
MATCH_LENGTHS = ("1", "3", "5", "strikes", "single")

#: field -> the values it may take (a tuple), or (min, max) for a bounded whole number.
FIELDS: dict[str, tuple] = {
    "kind": KINDS,
    "variant": tuple(VARIANTS),
    "mode": MODES,
    "level": (*LEVELS, "none"),
    "seats": ("2", "3", "4", "5", "6", "7", "8"),
    "match_length": MATCH_LENGTHS,
    "jiji": ("yes", "no"),
    "phone": ("yes", "no"),
    "memory": MEMORY,
    "cores": CORES,
    "browser": BROWSERS,
    "os": SYSTEMS,
    "result": RESULTS,
    "duration": DURATIONS,
    "draws": DRAW_COUNTS,
    "connected": ("yes", "no"),
    "render_speed": RENDER_SPEEDS,
}
#: Bounded whole numbers.
NUMBERS: dict[str, tuple[int, int]] = {"reconnects": (0, 50)}
REQUIRED = ("kind", "variant", "mode", "phone", "browser", "os")


class EventRefused(ValueError):
    """The event breaks the schema; nothing is stored."""


def clean(payload: object) -> dict:
    """The event's allowed fields, checked; unknown fields dropped."""
    if not isinstance(payload, dict):
        raise EventRefused("an event is a JSON object")
    event: dict = {}
    for name, allowed in FIELDS.items():
        if name not in payload:
            continue
        value = payload[name]
        if not isinstance(value, str) or value not in allowed:
            raise EventRefused(f"{name} must be one of: {', '.join(allowed)}")
        event[name] = value
    for name, (low, high) in NUMBERS.items():
        if name not in payload:
            continue
        value = payload[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise EventRefused(f"{name} must be a whole number from {low} to {high}")
        event[name] = value
    missing = [name for name in REQUIRED if name not in event]
    if missing:
        raise EventRefused(f"missing: {', '.join(missing)}")
    return event
