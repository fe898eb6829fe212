"""Players' names at a table: one written form per name, so that no name can pass for
another's.

A name is NFKC-normalised (full-width Latin becomes ASCII; Japanese and Chinese stay as
typed), its spaces trimmed and runs of spaces made one, and it is refused when it holds a
character that shows nothing or steers the text: control characters, format characters
(Unicode category Cf: zero-width spaces and joiners, the soft hyphen, bidirectional marks
and overrides) and the other default-ignorable code points (variation selectors, the
Hangul fillers). Two names are the same name when their ``name_key`` (the normalised name,
casefolded) is.

The price: the zero-width non-joiner and joiner are format characters too, so a Persian
name written with one, or an emoji joined from several, is refused (the message says
why); letters with combining marks (category Mn, e.g. Hindi or Thai) are kept. Letters
of different scripts that look alike (Latin "A", Cyrillic "А") are not caught here.
"""

from __future__ import annotations

import unicodedata

#: The longest name a player may give themselves at a table.
NAME_MAX = 30

#: Default-ignorable code points outside categories Cc and Cf (Unicode's
#: DerivedCoreProperties): they render as nothing, so "Ann" followed by one looks like "Ann".
_IGNORABLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
#: Categories refused: control, format, surrogate, private use, unassigned.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


class NameRefused(ValueError):
    """Why a name cannot be used: ``code`` is ``invisible``, ``required`` or ``too_long``."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing or steers the text around it."""
    point = ord(char)
    return unicodedata.category(char) in _REFUSED_CATEGORIES or any(
        low <= point <= high for low, high in _IGNORABLE
    )


def normalise(value: str) -> str:
    """The name as it will be shown, or ``NameRefused``."""
    name = unicodedata.normalize("NFKC", value)
    if any(invisible(c) for c in name):
        raise NameRefused("invisible")
    name = " ".join(name.split())
    if not name:
        raise NameRefused("required")
    if len(name) > NAME_MAX:
        raise NameRefused("too_long")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: the same key is the same name (NFKC, casefolded,
    spaces made one, and anything invisible dropped, for names stored before these
    rules)."""
    name = unicodedata.normalize("NFKC", name)
    name = unicodedata.normalize("NFKC", name.casefold())
    return " ".join("".join(c for c in name if not invisible(c)).split())
