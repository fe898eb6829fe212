"""The browser checks' combinations of locale, size and colour scheme (tests/matrix.py):
by default each value of every dimension once a run, paired by the run's seed; pairwise
(TEST_MATRIX=pairs) covers every pair of values of any two dimensions; TEST_MATRIX=full is
the product."""

import itertools
import random

from tests import matrix

LOCALES, SIZES, SCHEMES = list(matrix.LOCALES), list(matrix.SIZES), list(matrix.SCHEMES)


def covered(rows, dimensions):
    for (i, a), (j, b) in itertools.combinations(enumerate(dimensions), 2):
        for pair in itertools.product(a, b):
            assert any((row[i], row[j]) == pair for row in rows), (pair, rows)


def test_each_value_runs_once_a_run_in_as_many_rows_as_the_largest_dimension():
    for dimensions in ([LOCALES, SIZES], [LOCALES, SIZES, SCHEMES], [SIZES], [SIZES, SCHEMES]):
        rows = matrix.each_value_once(dimensions, random.Random(7))
        assert len(rows) == max(len(values) for values in dimensions)
        for i, values in enumerate(dimensions):
            assert {row[i] for row in rows} == set(values)
            counts = [sum(row[i] == value for row in rows) for value in values]
            assert max(counts) - min(counts) <= 1  # the smaller ones as evenly as they go


def test_a_locale_more_is_one_run_more(monkeypatch):
    monkeypatch.setattr(matrix, "MODE", "each")
    assert len(matrix.combinations("locale", "size")) == len(LOCALES)
    seven = {**matrix.DIMENSIONS, "locale": [*LOCALES, "fr-FR"]}
    monkeypatch.setattr(matrix, "DIMENSIONS", seven)
    assert len(matrix.combinations("locale", "size")) == len(LOCALES) + 1


def test_the_seed_and_the_check_choose_the_pairs_and_a_seed_gives_them_again(monkeypatch):
    monkeypatch.setattr(matrix, "MODE", "each")

    def rows(seed, check):
        monkeypatch.setattr(matrix, "SEED", seed)
        return matrix.combinations("locale", "size", check=check)

    assert rows(1, "a") == rows(1, "a")
    assert len({tuple(rows(seed, "a")) for seed in range(20)}) > 1
    assert len({tuple(rows(1, check)) for check in "abcdefghij"}) > 1


def test_pairs_meet_every_pair_of_values_in_fewer_rows_than_the_product(monkeypatch):
    monkeypatch.setattr(matrix, "MODE", "pairs")
    rows = matrix.combinations("locale", "size", "scheme")
    covered(rows, [LOCALES, SIZES, SCHEMES])
    assert len(rows) == len(LOCALES) * len(SIZES) < len(LOCALES) * len(SIZES) * len(SCHEMES)
    assert matrix.combinations("locale", "size") == list(itertools.product(LOCALES, SIZES))


def test_the_full_matrix_is_every_combination(monkeypatch):
    monkeypatch.setattr(matrix, "MODE", "full")
    rows = matrix.combinations("locale", "size", "scheme")
    assert rows == list(itertools.product(LOCALES, SIZES, SCHEMES))
