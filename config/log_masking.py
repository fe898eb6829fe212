"""Secrets that travel in a URL kept out of the logs: every handler of the site's LOGGING
(config/settings.py) runs ``MaskSecrets`` before it writes a record.

A path or query string can open something to whoever reads it: ``/join/<token>/`` takes
a seat, ``/replay/<id>/`` shows a round of a room that may be unlisted (the id is the
only key to it), and ``t=<token>`` (a room page's or a table socket's query) shows the
table. Django names the path in its warnings (``Forbidden (CSRF cookie not set.):
/join/<token>/``, ``Not Found: /replay/<id>/``, this site's outage warning) and
``runserver`` names path and query in each line; the record's message and arguments are
rewritten, so every handler and formatter sees only ``/join/-/``, ``/replay/-/``, ``t=-``.
"""

import logging
import re

#: (pattern, replacement): what a URL may carry that opens something.
_SECRETS = (
    (re.compile(r"/join/[^/\s?#'\"]+"), "/join/-"),
    (re.compile(r"/replay/[^/\s?#'\"]+"), "/replay/-"),
    (re.compile(r"([?&;]t=)[^&;\s#'\"]*"), r"\1-"),
)


def mask(text: str) -> str:
    """``text`` with every secret of a URL replaced by ``-``."""
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class MaskSecrets(logging.Filter):
    """Rewrites a record's message (its arguments merged in) and its traceback text with
    the secrets masked; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit: the handler reports it as it would
            return True
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        if record.stack_info:
            record.stack_info = mask(record.stack_info)
        return True
