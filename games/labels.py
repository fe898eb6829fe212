"""Names the site shows for the engine's words, in the reader's language."""

from django.utils.translation import gettext_lazy as _

VARIANT_NAMES = {
    "babanuki": _("Babanuki"),
    "jijinuki": _("Jiji-nuki"),
    "old_maid": _("Old Maid"),
    "schwarzer_peter": _("Schwarzer Peter"),
}

LEVEL_NAMES = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}

MODE_NAMES = {
    "computer": _("Versus the computer"),
    "same_device": _("Everyone on this device"),
    "friends": _("With friends"),
}
