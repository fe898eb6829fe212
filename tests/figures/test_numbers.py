"""The one percent formatter and its rounding: half up (never cut, never to the even
digit), then in the reader's language, the figure kept on one line."""

import pytest
from django.utils import translation

from figures.numbers import decimal, percent, percentage_points, rounded

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (7 / 9, "77.8"),  # cut, it would be 77.7
        (2 / 3, "66.7"),
        (0.0125, "1.3"),  # to the even digit, it would be 1.2
        (0.2505, "25.1"),  # 0.2505 * 100 is 25.049999... in floating point
        (0.9875, "98.8"),
        (1 / 200, "0.5"),
        (1.0, "100.0"),
        (0.0, "0.0"),
    ],
)
def test_percent_rounds_half_up_to_one_decimal(share, shown):
    with translation.override("en"):
        assert percent(share) == f"{shown}{NBSP}%"


@pytest.mark.parametrize(("language", "shown"), [("en", f"12.5{NBSP}%"), ("ja", "12.5%")])
def test_percent_writes_the_sign_the_readers_way_on_one_line(language, shown):
    with translation.override(language):
        assert percent(1 / 8) == shown
        assert " " not in percent(1 / 8)


def test_percent_can_drop_a_whole_numbers_decimals_and_shows_a_dash_for_none():
    with translation.override("en"):
        assert [percent(x, trim=True) for x in (1 / 2, 2 / 3, 1.0, 0.0)] == [
            f"50{NBSP}%",
            f"66.7{NBSP}%",
            f"100{NBSP}%",
            f"0{NBSP}%",
        ]
        assert percent(None) == "–"


def test_points_and_decimals_round_half_up_too():
    with translation.override("en"):
        assert percentage_points(0.0125) == "1.3"
        assert percentage_points(0.19735) == "19.7"
        assert decimal(7 / 3, 2) == "2.33"
        assert decimal(0.125, 2) == "0.13"
    assert str(rounded(2.675, 2)) == "2.68"  # round(2.675, 2) is 2.67
