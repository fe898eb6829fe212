#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on 127.0.0.1, installing them from Debian
# packages and starting them when they are missing, and that nginx, logrotate and
# systemd-analyze are installed (the production tests use them). Used by .ci/run; safe to
# run twice.
set -euo pipefail

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

if ! postgres_up; then
  command -v pg_ctlcluster >/dev/null || apt_install postgresql postgresql-client
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_for PostgreSQL postgres_up
  # A fresh Debian cluster wants a password over TCP: give the postgres role the one our
  # DATABASE_URL uses (a machine with trust auth ignores it).
  as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" || true
fi

if ! redis_up; then
  command -v redis-server >/dev/null || apt_install redis-server
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for Redis redis_up
fi
# The production tests run nginx in front of Daphne, and put the files `prod.sh config`
# prints through the tools that read them (logrotate, systemd-analyze).
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/sbin/logrotate ] || missing+=(logrotate)
command -v systemd-analyze >/dev/null || missing+=(systemd)
[ ${#missing[@]} = 0 ] || apt_install "${missing[@]}"
echo "services: PostgreSQL and Redis are up on 127.0.0.1; nginx, logrotate and systemd-analyze are installed"
