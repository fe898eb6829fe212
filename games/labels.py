"""Names the site shows for the engine's words, in the reader's language."""

from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

VARIANT_NAMES = {
    "babanuki": _("Babanuki"),
    "jijinuki": _("Jiji-nuki"),
    "old_maid": _("Old Maid"),
    "schwarzer_peter": _("Schwarzer Peter"),
}

LEVEL_NAMES = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}

#: How fast a room's computer seats draw (``games.schedule.COMPUTER_SPEEDS``).
SPEED_NAMES = {
    "slow": pgettext_lazy("computer speed", "Slow"),
    "normal": pgettext_lazy("computer speed", "Normal"),
    "fast": pgettext_lazy("computer speed", "Fast"),
}

MODE_NAMES = {
    "computer": _("Versus the computer"),
    "same_device": _("Everyone on this device"),
    "friends": _("With friends"),
}

#: The house rules a room may play (RULES.md section 7, ``games.engine.options``), as the
#: lobby's list and the invitation name them, in this order.
HOUSE_RULE_WORDS = {
    "same_colour_pairs": _("same-colour pairs"),
    "reverse": _("reverse"),
    "balanced_deal": _("balanced deal"),
}


def house_rule_words(options: dict, *, deal: bool = True) -> list[str]:
    """The words for the house rules a room's ``options`` switch on; ``deal=False`` leaves
    the balanced deal out (a page that says the deal in a line of its own)."""
    return [
        str(word)
        for key, word in HOUSE_RULE_WORDS.items()
        if options.get(key) is True and (deal or key != "balanced_deal")
    ]


#: One first name per seat (index = seat), so that computer seats at one table never
#: share a name. Each language has its own list of everyday names.
COMPUTER_NAMES = (
    pgettext_lazy("a computer player's name", "Ada"),
    pgettext_lazy("a computer player's name", "Bruno"),
    pgettext_lazy("a computer player's name", "Clara"),
    pgettext_lazy("a computer player's name", "Diego"),
    pgettext_lazy("a computer player's name", "Elsa"),
    pgettext_lazy("a computer player's name", "Felix"),
    pgettext_lazy("a computer player's name", "Greta"),
    pgettext_lazy("a computer player's name", "Hugo"),
)

#: The level as it reads inside a computer player's name ("Ada (computer, easy)").
COMPUTER_LEVEL_WORDS = {
    "easy": pgettext_lazy("a computer level, inside a computer player's name", "easy"),
    "medium": pgettext_lazy("a computer level, inside a computer player's name", "medium"),
    "hard": pgettext_lazy("a computer level, inside a computer player's name", "hard"),
}


def computer_first_name(seat: int) -> str:
    """A computer seat's own short name ("Clara"), as the table shows it everywhere; the
    level goes on a second line where there is room (static/js/words.js)."""
    return str(COMPUTER_NAMES[seat % len(COMPUTER_NAMES)])


#: One letter per seat colour, on the seat's chip (the table's letters too,
#: templates/lobby/_table_labels.html), so that colour is never alone.
SEAT_LETTERS = pgettext_lazy(
    "one letter per seat colour: Red, Green, Yellow, Blue, Purple, Orange, Teal, Pink; "
    "all different",
    "R|G|Y|B|P|O|T|K",
)


def seat_letter(seat: int) -> str:
    """The letter on a seat's colour chip ("R", 赤, 红)."""
    letters = str(SEAT_LETTERS).split("|")
    return letters[seat % len(letters)]


def computer_what(level: str) -> str:
    """What a computer seat is, the second line under its short name ("computer · easy"),
    as the table's scripts say it (static/js/words.js seatWhat)."""
    return gettext("computer · {level}").format(level=COMPUTER_LEVEL_WORDS.get(level, level))


def bot_what() -> str:
    """What a bot account's seat is, the second line under its name ("bot"), as the
    table's scripts say it (static/js/words.js seatWhat)."""
    return pgettext("the second line under a bot player's name", "bot")


def computer_name(seat: int, level: str) -> str:
    """A computer seat's name in the reader's language: a first name of its own, and
    words that say it is the computer and at which level (never a symbol alone)."""
    # The same sentence names computer seats in the table's scripts
    # (templates/lobby/_seat_labels.html).
    return gettext("{name} (computer, {level})").format(
        name=COMPUTER_NAMES[seat % len(COMPUTER_NAMES)],
        level=COMPUTER_LEVEL_WORDS.get(level, level),
    )
