"""Development only: benchmarks, the load generator and its echo table, test helpers.

A production install never imports this package (pyproject's package list leaves it
out): `make bench` runs `python -m tools.bench_engine`, `make bench-load` runs
`python -m tools.bench_load`, and config/asgi.py mounts `tools.echo` only when
`BENCH_ECHO=1`.
"""
