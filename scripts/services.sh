#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on 127.0.0.1, installing them from Debian
# packages and starting them when they are missing, and that nginx, logrotate and
# systemd-analyze are installed (the production tests use them). Used by .ci/run; safe to
# run twice.
#
#   scripts/services.sh                     CI's: both, the tools, and a cluster it starts
#                                           lets postgres in over TCP with the password
#                                           'postgres' (CI's DATABASE_URL)
#   scripts/services.sh --prod postgres|redis...   scripts/prod.sh's: only those, and
#                                           PostgreSQL's superuser keeps no password (the
#                                           site has a role of its own; docs/operations.md)
set -euo pipefail

prod="" wanted=(postgres redis)
if [ "${1:-}" = --prod ]; then
  prod=1
  wanted=("${@:2}")
fi
wants() { [[ " ${wanted[*]} " == *" $1 "* ]]; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq "$@" >/dev/null
}

postgres_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }

wait_for() {  # wait_for NAME CHECK
  for _ in $(seq 1 60); do "$2" && return 0; sleep 0.5; done
  echo "services: $1 did not come up on 127.0.0.1" >&2
  return 1
}

if wants postgres && ! postgres_up; then
  command -v pg_ctlcluster >/dev/null || apt_install postgresql postgresql-client
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_for PostgreSQL postgres_up
  # A fresh Debian cluster wants a password over TCP: for CI, give the postgres role the
  # one CI's DATABASE_URL uses (a machine with trust auth ignores it). Never for prod.sh:
  # a well-known superuser password lets every local process into every database.
  [ -n "$prod" ] ||
    as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" || true
fi

if wants redis && ! redis_up; then
  command -v redis-server >/dev/null || apt_install redis-server
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for Redis redis_up
fi
if [ -n "$prod" ]; then
  echo "services: ${wanted[*]} up on 127.0.0.1"
  exit 0
fi
# The production tests run nginx in front of Daphne, and put the files `prod.sh config`
# prints through the tools that read them (logrotate, systemd-analyze).
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/sbin/logrotate ] || missing+=(logrotate)
command -v systemd-analyze >/dev/null || missing+=(systemd)
[ ${#missing[@]} = 0 ] || apt_install "${missing[@]}"
echo "services: PostgreSQL and Redis are up on 127.0.0.1; nginx, logrotate and systemd-analyze are installed"
