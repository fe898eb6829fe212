"""Room codes and tokens as they arrive from outside (paths, query strings).

Anything that does not have the shape of a code or token we hand out is simply a wrong
one: it never reaches the database (PostgreSQL refuses strings with NUL) and never
reaches a comparison that could raise (``secrets.compare_digest`` on non-ASCII ``str``).
"""

import hashlib
import hmac
import re
import secrets

#: ``secrets.token_urlsafe`` output, at most as long as the column.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: ``models.new_code`` output (the socket route accepts 4 to 8 of these characters).
CODE_SHAPE = re.compile(r"[A-Z0-9]{4,8}")


def well_formed_token(value) -> bool:
    return isinstance(value, str) and TOKEN_SHAPE.fullmatch(value) is not None


def well_formed_code(value) -> bool:
    return isinstance(value, str) and CODE_SHAPE.fullmatch(value) is not None


def token_matches(given, expected) -> bool:
    """Constant-time equality of a token from outside with a room's token."""
    if not (well_formed_token(given) and well_formed_token(expected)):
        return False
    given_bytes, expected_bytes = given.encode("ascii"), expected.encode("ascii")
    return len(given_bytes) == len(expected_bytes) and hmac.compare_digest(
        given_bytes, expected_bytes
    )


#: A bot's API token (docs/bots.md): a prefix that says what it is, so a leaked one is
#: recognised on sight, then 256 random bits.
BOT_TOKEN_PREFIX = "omb_"
BOT_TOKEN_SHAPE = re.compile(r"omb_[A-Za-z0-9_-]{43}")


def new_bot_token() -> str:
    return BOT_TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is kept of a bot's token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def bearer_token(header) -> str | None:
    """The bot token an ``Authorization: Bearer <token>`` header carries (``str`` or the
    raw ``bytes``), or None when the header is not one of that shape."""
    if isinstance(header, bytes):
        try:
            header = header.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(header, str):
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or BOT_TOKEN_SHAPE.fullmatch(token) is None:
        return None
    return token
