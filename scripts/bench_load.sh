#!/usr/bin/env bash
# make bench-load: start the production mode (scripts/prod.sh) with the echo baseline
# mounted, run the load benchmark against it (python -m tools.bench_load), stop it again.
#
# It runs an instance of its own (its own directory, ports, database and Redis database),
# so it neither needs nor disturbs a running `make prod`. Extra arguments go to
# tools.bench_load (`--help` lists them), for example `scripts/bench_load.sh --rooms 50 --paced-seconds 20`.
set -euo pipefail
cd "$(dirname "$0")/.."

export PROD_DIR=${BENCH_PROD_DIR:-var/bench}
export HTTPS_PORT=${BENCH_HTTPS_PORT:-8543}
export HTTP_PORT=${BENCH_HTTP_PORT:-8180}
export DAPHNE_FIRST_PORT=${BENCH_DAPHNE_PORT:-8201}
export LISTEN_ADDRESS=127.0.0.1
export DATABASE_URL=${BENCH_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/oldmaid_bench}
export REDIS_URL=${BENCH_REDIS_URL:-redis://127.0.0.1:6379/5}
export BENCH_ECHO=1  # mounts /ws/echo/<room>/ (tools/echo.py) in this instance only

# BENCH_WRITE= : print only. BENCH_PEER=<folder>: the ratios to a peer run of the same hour
# there, each of tools/peer_bgio/run.sh's configurations (or one ../shared/peer-bgio run).
# SPLIT_ROOMS=1: every room's seats split over the Daphne processes (scripts/against_prod.sh).
exec bash scripts/against_prod.sh bench_load "${BENCH_WRITE-docs/performance.md}" \
  ${BENCH_PEER:+--peer "$BENCH_PEER"} "$@"
