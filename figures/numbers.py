"""Numbers as the pages write them: rounded half up, then in the reader's language.

Django's ``number_format`` cuts extra decimals off instead of rounding them (77.77 with one
decimal is 77.7), so every figure is rounded here first: 7/9 is 77.8 %, not 77.7 %.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

NO_FIGURE = "–"


def _exact(value: float | Decimal) -> Decimal:
    """A float at its shortest decimal form (``repr``): 0.2505 is exactly 0.2505."""
    return value if isinstance(value, Decimal) else Decimal(repr(value))


def rounded(value: float | Decimal, places: int) -> Decimal:
    """``value`` rounded half up to ``places`` decimals: 0.125 to two is 0.13."""
    return _exact(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def decimal(value: float | Decimal, places: int) -> str:
    """``value`` rounded half up to ``places`` decimals, written the reader's way."""
    return number_format(rounded(value, places), places)


def _hundredfold(share: float | Decimal, places: int) -> Decimal:
    """``share`` times 100, exactly (0.2505 is 25.05), then rounded half up (25.1)."""
    return rounded(_exact(share).scaleb(2), places)


def percentage_points(difference: float | Decimal, places: int = 1) -> str:
    """A difference of two shares in percentage points, rounded half up, written the
    reader's way: 0.0125 is "1.3"."""
    return number_format(_hundredfold(difference, places), places)


def percent(share: float | Decimal | None, *, places: int = 1, trim: bool = False) -> str:
    """A share (0 to 1) as a percentage rounded half up to ``places`` decimals, written
    the reader's way ("77.8 %" in English, "77.8%" in Japanese and Chinese), a dash when
    there is none. ``trim`` drops the decimals of a whole number ("50 %", not "50.0 %").

    The sign's place comes from the catalogue; its space never breaks the figure across
    two lines."""
    if share is None:
        return NO_FIGURE
    value = _hundredfold(share, places)
    if trim and value == value.to_integral_value():
        places = 0
    text = _("%(percent)s %%") % {"percent": number_format(value, places)}
    return text.replace(" ", "\u00a0")
