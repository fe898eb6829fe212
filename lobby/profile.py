"""A player's record turned into words and numbers in the reader's language: win rates
rounded to one decimal at most, places as ordinals with plural counts, results in words.
The figures come from ``games.selectors.player_stats``."""

from __future__ import annotations

from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext, gettext_lazy, ngettext

from figures.numbers import percent
from games.labels import VARIANT_NAMES

#: 1st to 8th: the places a table of up to eight seats can give.
ORDINALS = {
    1: gettext_lazy("1st"),
    2: gettext_lazy("2nd"),
    3: gettext_lazy("3rd"),
    4: gettext_lazy("4th"),
    5: gettext_lazy("5th"),
    6: gettext_lazy("6th"),
    7: gettext_lazy("7th"),
    8: gettext_lazy("8th"),
}
OUTCOMES = {
    "won": gettext_lazy("Won"),
    "lost": gettext_lazy("Lost"),
    "playing": gettext_lazy("In progress"),
    "unfinished": gettext_lazy("Unfinished"),
    "abandoned": gettext_lazy("Abandoned"),
    "left": gettext_lazy("You left (the computer played on)"),
    "shared": gettext_lazy("Played on one device"),
}


def last_played_text(moment, now=None) -> str:
    """When an unfinished match was last played, relative to now in the reader's
    language: "Unfinished, last played 3 hours ago" ("just now" within a minute)."""
    now = now or timezone.now()
    if (now - moment).total_seconds() < 60:
        return gettext("Unfinished, last played just now")
    return gettext("Unfinished, last played %(when)s ago") % {
        "when": timesince(moment, now, depth=1)
    }


def win_rate(rate: float | None) -> str:
    """A share as a percentage, rounded half up to one decimal at most: 2/3 is 66.7 %,
    1/2 is 50 %; a dash when no match has a result yet."""
    return percent(rate, trim=True)


def places_text(places: dict[int, int]) -> list[str]:
    """Each place and how often: "1st: 3 times", "2nd: 1 time"."""
    return [
        ngettext("%(place)s: %(n)s time", "%(place)s: %(n)s times", n)
        % {"place": ORDINALS.get(place, place), "n": n}
        for place, n in places.items()
    ]


def record(stats: dict) -> dict:
    """What the profile page shows: one entry per variant (in the site's order of
    variants) and the match list, with every label in words."""
    variants = []
    for key, name in VARIANT_NAMES.items():
        figures = stats["by_variant"].get(key)
        if figures is None:
            continue
        variants.append(
            {
                "key": key,
                "name": name,
                **figures,
                "win_rate_text": win_rate(figures["win_rate"]),
                "points": figures["scoring"] == "points",
                "places_text": places_text(figures["places"]),
            }
        )
    matches = [
        {
            **entry,
            "variant_name": VARIANT_NAMES.get(entry["variant"], entry["variant"]),
            "outcome_text": OUTCOMES[entry["outcome"]],
            "last_played_text": (
                last_played_text(entry["last_played"]) if "last_played" in entry else ""
            ),
        }
        for entry in stats["matches"]
    ]
    return {"variants": variants, "matches": matches}
