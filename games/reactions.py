"""Reactions at the table: the closed set a player may send (no free text: children play
here), each with the symbol and the translated words the page shows. Computer faces
(``games.engine.tells``) are two of them. Checked and rate limited by ``games.consumers``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.tells import CALM, WORRIED

#: Each reaction's key, symbol and words, in the order the page's menu offers them.
REACTIONS = {
    "smile": ("🙂", _("Smiles")),
    "laugh": ("😄", _("Laughs")),
    "surprised": ("😮", _("Surprised")),
    "sad": ("😢", _("Sad")),
    WORRIED: ("😟", _("Looks worried")),
    CALM: ("😐", _("Looks calm")),
    "good_luck": ("🍀", _("Good luck")),
    "well_played": ("👏", _("Well played")),
    "oh_no": ("😱", _("Oh no!")),
    "your_turn": ("👉", _("Your turn")),
    "thanks": ("🙏", _("Thanks")),
}


def for_page() -> dict[str, dict[str, str]]:
    """The reactions as the table page reads them (in the active language)."""
    return {key: {"symbol": symbol, "text": str(text)} for key, (symbol, text) in REACTIONS.items()}
