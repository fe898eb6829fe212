"""Read-only questions about rooms (the services are the only writers), one module per
what they serve: the table socket's reads (``sockets``), the sweep's queries (``sweep``),
the lobby's list (``lobby``), rooms for the pages (``rooms``), the profile's statistics
(``stats``) and bot lookups (``bots``). Callers use ``from games import selectors`` and
``selectors.name``, as before the split."""

from __future__ import annotations

from games.selectors.bots import (
    bot_for_token,
    bot_games,
    bot_named,
    bot_online,
    bot_token_is,
    bots_of,
    bots_online,
    online_bots,
    pending_challenges,
    room_challenges,
)
from games.selectors.lobby import lobby, lobby_rooms, play_now_lines, public_tables
from games.selectors.rooms import (
    may_view,
    room_by_code,
    room_invited_by,
    rooms_of,
    round_by_replay_id,
)
from games.selectors.sockets import Access, snapshot, socket_access
from games.selectors.stats import match_summaries, player_stats
from games.selectors.sweep import rooms_due, rooms_with_stale_connections

__all__ = [
    "Access",
    "bot_for_token",
    "bot_games",
    "bot_named",
    "bot_online",
    "bot_token_is",
    "bots_of",
    "bots_online",
    "lobby",
    "lobby_rooms",
    "match_summaries",
    "may_view",
    "online_bots",
    "pending_challenges",
    "play_now_lines",
    "player_stats",
    "public_tables",
    "room_by_code",
    "room_challenges",
    "room_invited_by",
    "rooms_due",
    "rooms_of",
    "rooms_with_stale_connections",
    "round_by_replay_id",
    "snapshot",
    "socket_access",
]
