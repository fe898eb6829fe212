"""The locales, sizes and colour schemes the browser checks vary by, and the one place that
chooses which combinations of them run.

A check that varies by two or more of them runs in combinations chosen so that every pair
of values of any two of its dimensions meets at least once (a pairwise covering array),
so every value runs at least once per run; the full product of the dimensions is one
command away: ``make test-matrix`` (``TEST_MATRIX=full``). With two dimensions, every pair
meeting is the full product; it is with three (a page tour by locale, size and scheme)
that pairwise runs fewer: 3 x 2 x 2 = 12 tours fall to 6, and with six locales 24 to 12.

Adding a locale is one line in LOCALES (its expected words, where a test checks them, stay
in that test)."""

import itertools
import os

import pytest

#: Each locale the browser checks run in, and the ``lang`` its pages carry.
LOCALES = {
    "en-US": "en",
    "ja-JP": "ja",
    "zh-CN": "zh-hans",
    "zh-TW": "zh-hant",
    "de-DE": "de",
    "ko-KR": "ko",
}

#: A laptop and a phone.
SIZES = {
    "laptop": {"width": 1366, "height": 768},
    "phone": {"width": 360, "height": 740},
}

SCHEMES = ("light", "dark")

DIMENSIONS = {"locale": list(LOCALES), "size": list(SIZES), "scheme": list(SCHEMES)}

#: ``TEST_MATRIX=full``: every combination (``make test-matrix``), instead of pairwise.
FULL = os.environ.get("TEST_MATRIX", "") == "full"


def pairwise(*dimensions: list) -> list[tuple]:
    """Rows of the product of ``dimensions`` such that every pair of values of any two
    dimensions appears in some row. Greedy, in a fixed order (the same rows every run and
    on every test worker, which pytest-xdist requires): each step takes the first row of
    the product that covers the most pairs not yet covered."""
    product = list(itertools.product(*dimensions))
    if len(dimensions) < 3:
        return product

    def pairs(row):
        return {(i, row[i], j, row[j]) for i, j in itertools.combinations(range(len(row)), 2)}

    wanted = set().union(*(pairs(row) for row in product))
    rows = []
    while wanted:
        best = max(product, key=lambda row: len(pairs(row) & wanted))
        rows.append(best)
        wanted -= pairs(best)
    return rows


def combinations(*names: str) -> list[tuple]:
    """The rows of the named dimensions ("locale", "size", "scheme") this run checks:
    pairwise, or every one under TEST_MATRIX=full."""
    dimensions = [DIMENSIONS[name] for name in names]
    if FULL:
        return list(itertools.product(*dimensions))
    return pairwise(*dimensions)


def parametrize(*names: str):
    """``pytest.mark.parametrize`` over the named dimensions' rows for this run, with ids
    such as ``ja-JP-phone-dark``."""
    rows = combinations(*names)
    if len(names) == 1:
        return pytest.mark.parametrize(names[0], [row[0] for row in rows])
    return pytest.mark.parametrize(",".join(names), rows, ids=["-".join(row) for row in rows])
