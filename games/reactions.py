"""Reactions at the table: the closed set a player may send (no free text: children play
here), each with the symbol and the translated words the page shows. Computer faces
(``games.engine.tells``) are two of them. Checked and rate limited by
``games.realtime.consumers``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.tells import CALM, WORRIED

#: Each reaction's key, whether it is a face (the page draws it: static/js/reactions.js,
#: no emoji font needed) and its words, in the order the page's menu offers them.
REACTIONS = {
    "smile": (True, _("Smiles")),
    "laugh": (True, _("Laughs")),
    "surprised": (True, _("Surprised")),
    "sad": (True, _("Sad")),
    WORRIED: (True, _("Looks worried")),
    CALM: (True, _("Looks calm")),
    "good_luck": (False, _("Good luck")),
    "well_played": (False, _("Well played")),
    "oh_no": (False, _("Oh no!")),
    "your_turn": (False, _("Your turn")),
    "thanks": (False, _("Thanks")),
}


def for_page() -> dict[str, dict]:
    """The reactions as the table page reads them (in the active language)."""
    return {key: {"face": face, "text": str(text)} for key, (face, text) in REACTIONS.items()}
