#!/usr/bin/env bash
# Runs a development tool against an instance of the production mode of its own, started
# here and stopped again however the tool ends: `scripts/against_prod.sh TOOL WRITE [ARGS]`
# runs `python -m tools.TOOL --url ... --stack ... [--write WRITE] ARGS`. The caller exports
# the instance's PROD_DIR, ports, DATABASE_URL and REDIS_URL (scripts/bench_load.sh,
# scripts/soak.sh); WRITE empty prints the figures without writing them.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$1 write=$2
shift 2

trap 'bash scripts/prod.sh stop' EXIT
bash scripts/prod.sh start
# The same settings as the servers (secret key, database, Redis), for signing in the bots
# and counting rows.
# shellcheck disable=SC1091
. "$PROD_DIR/env"
processes=$(($(wc -w <"$PROD_DIR/run/children") - 1))  # the Daphne processes and nginx
urls=(--url "$(cat "$PROD_DIR/url")")
stack="scripts/prod.sh, nginx with TLS in front of $processes Daphne processes"
if [ -n "${SPLIT_ROOMS:-}" ]; then
  # Past nginx (which keeps a room on one process): each seat of a room on the next
  # Daphne process, as after a restart or a changed upstream list.
  urls=()
  for port in $(seq "$DAPHNE_FIRST_PORT" $((DAPHNE_FIRST_PORT + processes - 1))); do
    urls+=(--url "http://127.0.0.1:$port")
  done
  stack="scripts/prod.sh, every room's seats split over $processes Daphne processes (nginx bypassed)"
fi
.venv/bin/python -m "tools.$tool" "${urls[@]}" --stack "$stack" ${write:+--write "$write"} "$@"
