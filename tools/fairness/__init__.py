"""The fairness research (development only, never installed with the site): how often
each seat loses, by game, table size and deal, and the search for the fairest deals.

``python -m tools.fairness`` (``cli``) runs it; ``make fairness`` re-measures everything
into games/fairness_data.json, the figures the fairness page reads, and docs/fairness.md.

- ``simulator``: one deal, played through the site's engine or the fast path;
- ``fastsim``: the vectorised fast path (numpy, the ``research`` extra);
- ``search``: every deal the rules allow and the parity family outside them;
- ``report``: docs/fairness.md's tables from the data file.
"""
