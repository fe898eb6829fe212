"""The browser checks' combinations of locale, size and colour scheme (tests/matrix.py):
pairwise covers every pair of values of any two dimensions, so every value, with fewer
rows than the product once there are three dimensions; TEST_MATRIX=full is the product."""

import itertools

from tests import matrix


def covered(rows, dimensions):
    for (i, a), (j, b) in itertools.combinations(enumerate(dimensions), 2):
        for pair in itertools.product(a, b):
            assert any((row[i], row[j]) == pair for row in rows), (pair, rows)


def test_every_pair_of_values_meets_in_fewer_rows_than_the_product():
    locales, sizes, schemes = list(matrix.LOCALES), list(matrix.SIZES), list(matrix.SCHEMES)
    rows = matrix.pairwise(locales, sizes, schemes)
    covered(rows, [locales, sizes, schemes])
    assert len(rows) == len(locales) * len(sizes) < len(locales) * len(sizes) * len(schemes)
    six = [f"l{n}" for n in range(6)]  # three more locales to come
    rows = matrix.pairwise(six, sizes, schemes)
    covered(rows, [six, sizes, schemes])
    assert len(rows) == 12


def test_two_dimensions_are_their_product():
    rows = matrix.pairwise(list(matrix.LOCALES), list(matrix.SIZES))
    assert rows == list(itertools.product(matrix.LOCALES, matrix.SIZES))


def test_the_full_matrix_is_every_combination(monkeypatch):
    monkeypatch.setattr(matrix, "FULL", True)
    rows = matrix.combinations("locale", "size", "scheme")
    assert rows == list(itertools.product(matrix.LOCALES, matrix.SIZES, matrix.SCHEMES))
