"""Which bots have their event stream open: one stream per bot, held in the bot's row
(``Bot.stream``, ``Bot.online_until``: ``games.services.bots``), so the same in every
process, with or without Redis.

A stream claims its bot when it opens and holds it a little longer with every keep-alive
line; a process that dies without closing its streams leaves holds that lapse after three
keep-alives, so the bot is offline again (and may open a new stream) within seconds.
While a hold lasts the bot is online: listing the bots online reads the indexed
``online_until`` (``selectors.online_bots``), whatever the number of bots.
"""

from __future__ import annotations

from django.conf import settings

from games import selectors
from games.services import bots


def _ttl() -> float:
    return max(2.0, 3 * settings.BOT_KEEPALIVE_SECONDS)


def claim(bot_id: int, token: str | None = None) -> str | None:
    """This stream's hold on ``bot_id`` (opened with the token whose hash is ``token``,
    when given: only while it is still the bot's): its id, or None while another stream
    holds the bot."""
    return bots.claim_stream(bot_id, _ttl(), token)


def refresh(bot_id: int, stream: str, token: str | None = None) -> bool:
    """Keep ``stream`` the bot's; False when it is not (any more), or the bot's token is
    not ``token`` any more."""
    return bots.keep_stream(bot_id, stream, _ttl(), token)


def release(bot_id: int, stream: str) -> None:
    bots.release_stream(bot_id, stream)


def online(bot_ids) -> set[int]:
    """Those of ``bot_ids`` whose stream is open."""
    return selectors.bots_online(bot_ids)
