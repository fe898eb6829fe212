"""The locales, sizes and colour schemes the browser checks vary by, and the one place that
chooses which combinations of them run.

A check that varies by locale, size or scheme runs **every value of each of its
dimensions at least once a run**, not every pair: with six locales and two sizes, six runs
of the check, each locale meeting one size. Which locale meets which size changes from run
to run, by a seed the run prints at its top (``TEST_MATRIX_SEED``; by default taken from
the commit checked out, so a CI failure is reproduced from its commit alone) and by the
check itself (two checks of one run pair their values differently). Two more modes:

- ``TEST_MATRIX=pairs``: every pair of values of any two dimensions meets (a pairwise
  covering array; with two dimensions that is their product);
- ``TEST_MATRIX=full``: the full product (``make test-matrix``, before resolving a change
  to templates, CSS or the table's scripts).

Adding a locale is one line in LOCALES (its expected words, where a test checks them, stay
in that test), and one more run of each check that varies by locale."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
from pathlib import Path

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

#: "each" (the default), "pairs" or "full" (``TEST_MATRIX``).
MODES = ("each", "pairs", "full")
MODE = os.environ.get("TEST_MATRIX") or "each"
if MODE not in MODES:
    raise ValueError(f"TEST_MATRIX={MODE!r}: one of {', '.join(MODES)}")


def _commit_seed() -> int:
    """The checked-out commit as a number (0 outside a git checkout)."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return 0
    return int(found[:8], 16) if found else 0


#: Which values meet in this run (``TEST_MATRIX_SEED``, else the commit's): the same on
#: every test worker, which pytest-xdist requires.
SEED = int(os.environ.get("TEST_MATRIX_SEED") or _commit_seed())


def each_value_once(dimensions: list[list], rng: random.Random) -> list[tuple]:
    """As many rows as the largest dimension has values, each value of every dimension in
    at least one row (the smaller dimensions' values as evenly as they go), paired as
    ``rng`` shuffles them."""
    count = max(len(values) for values in dimensions)
    columns = []
    for values in dimensions:
        column = [values[i % len(values)] for i in range(count)]
        rng.shuffle(column)
        columns.append(column)
    return list(zip(*columns, strict=True))


def pairwise(*dimensions: list) -> list[tuple]:
    """Rows of the product of ``dimensions`` such that every pair of values of any two
    dimensions appears in some row. Greedy, in a fixed order (the same rows every run and
    on every test worker): each step takes the first row of the product that covers the
    most pairs not yet covered."""
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


def combinations(*names: str, check: str = "") -> list[tuple]:
    """The rows of the named dimensions ("locale", "size", "scheme") this run checks, for
    the check named ``check``: each value once (paired by the run's seed and the check),
    pairwise, or the full product, by ``TEST_MATRIX``."""
    dimensions = [DIMENSIONS[name] for name in names]
    if MODE == "full":
        return list(itertools.product(*dimensions))
    if MODE == "pairs":
        return pairwise(*dimensions)
    return each_value_once(dimensions, random.Random(f"{SEED}:{check}:{','.join(names)}"))


def described() -> str:
    """What this run's browser checks vary by, for the run's first lines."""
    if MODE == "each":
        return f"each value once a run, TEST_MATRIX_SEED={SEED} reproduces its pairs"
    return f"TEST_MATRIX={MODE}"


def parametrize(*names: str):
    """``pytest.mark.parametrize`` over the named dimensions' rows for this run and this
    test, with ids such as ``ja-JP-phone-dark``."""

    def decorate(test):
        rows = combinations(*names, check=f"{test.__module__}.{test.__qualname__}")
        if len(names) == 1:
            mark = pytest.mark.parametrize(names[0], [row[0] for row in rows])
        else:
            ids = ["-".join(row) for row in rows]
            mark = pytest.mark.parametrize(",".join(names), rows, ids=ids)
        return mark(test)

    return decorate
