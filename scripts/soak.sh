#!/usr/bin/env bash
# make soak: start the production mode (scripts/prod.sh), run the soak test against it
# (python -m tools.soak: bots playing, spectators coming and going, /healthz every second,
# lobby sockets and one flooding client, for 10 minutes by default), stop it again.
#
# It runs an instance of its own (its own directory, ports, database and Redis database),
# so it neither needs nor disturbs a running `make prod` or `make bench-load`. Extra
# arguments go to tools.soak (`--help` lists them), for example `scripts/soak.sh --minutes 2`.
# The exit status is the soak's: non-zero when a figure grew with time or the flood
# slowed the players.
set -euo pipefail
cd "$(dirname "$0")/.."

export PROD_DIR=${SOAK_PROD_DIR:-var/soak}
export HTTPS_PORT=${SOAK_HTTPS_PORT:-8643}
export HTTP_PORT=${SOAK_HTTP_PORT:-8280}
export DAPHNE_FIRST_PORT=${SOAK_DAPHNE_PORT:-8301}
export LISTEN_ADDRESS=127.0.0.1
export SITE_HOST=127.0.0.1  # the flooding client only ever targets 127.0.0.1
export DATABASE_URL=${SOAK_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/oldmaid_soak}
export REDIS_URL=${SOAK_REDIS_URL:-redis://127.0.0.1:6379/6}

# SOAK_WRITE= : print only
exec bash scripts/against_prod.sh soak "${SOAK_WRITE-docs/performance.md}" "$@"
