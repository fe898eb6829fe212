#!/usr/bin/env bash
# Serve the site for real on this machine: nginx terminates TLS, serves the collected
# static files and balances HTTP and WebSockets over several Daphne processes, which share
# PostgreSQL and the Redis channel layer. docs/operations.md describes every variable.
#
#   scripts/prod.sh [run]   foreground, logs to the terminal; Ctrl-C stops everything
#   scripts/prod.sh start   background, logs in $PROD_DIR/log; returns once /healthz answers
#   scripts/prod.sh stop    stop a server started by either
#   scripts/prod.sh status  each process and /healthz; exit 0 healthy, 1 unhealthy, 3 stopped
#   scripts/prod.sh config [nginx|daphne]  print nginx.conf (as `start` writes it) or the
#                           Daphne command lines, and start nothing
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"

PROD_DIR=$(mkdir -p "${PROD_DIR:-var/prod}" && cd "${PROD_DIR:-var/prod}" && pwd)
RUN="$PROD_DIR/run"
LOG="$PROD_DIR/log"

SITE_HOST=${SITE_HOST:-127.0.0.1}
LISTEN_ADDRESS=${LISTEN_ADDRESS:-0.0.0.0}
HTTPS_PORT=${HTTPS_PORT:-8443}
HTTP_PORT=${HTTP_PORT:-8080}
WEB_PROCESSES=${WEB_PROCESSES:-$(nproc)}
DAPHNE_FIRST_PORT=${DAPHNE_FIRST_PORT:-8101}
export DATABASE_URL=${DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/oldmaid}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/1}
# A pool of open database connections per process (docs/performance.md, "Load").
export DB_POOL=${DB_POOL:-1}
LOCAL_HOSTS="127.0.0.1,localhost,[::1]"
[ "$SITE_HOST" = 127.0.0.1 ] || LOCAL_HOSTS="$SITE_HOST,$LOCAL_HOSTS"
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-$LOCAL_HOSTS}
export DJANGO_SETTINGS_MODULE=config.settings DEBUG=0
export STATIC_ROOT="$PROD_DIR/static"
export SECRET_KEY_FILE="$PROD_DIR/secret_key"

say() { echo "prod: $*" >&2; }
die() { say "$*"; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  say "installing $* from Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq "$@" >/dev/null
}

if [ "$HTTPS_PORT" = 443 ]; then URL="https://$SITE_HOST"; else URL="https://$SITE_HOST:$HTTPS_PORT"; fi
# /healthz through nginx, from this machine (Host names the site, so ALLOWED_HOSTS passes).
probe() {
  local address=$LISTEN_ADDRESS
  [ "$address" = 0.0.0.0 ] && address=127.0.0.1
  "$PY" - "https://$address:$HTTPS_PORT/healthz" "$SITE_HOST:$HTTPS_PORT" <<'EOF'
import ssl, sys, urllib.error, urllib.request
request = urllib.request.Request(sys.argv[1], headers={"Host": sys.argv[2]})
context = ssl._create_unverified_context()  # our own, maybe self-signed, certificate
try:
    body = urllib.request.urlopen(request, timeout=5, context=context).read()
except urllib.error.HTTPError as error:
    body = error.read()
except OSError as error:
    sys.exit(f"no answer: {error}")
print(body.decode())
sys.exit(0 if b'"status": "ok"' in body else 1)
EOF
}

nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }

supervisor_pid() {  # the pid of a running `run` (foreground or started), or nothing
  local pid
  pid=$(cat "$RUN/prod.pid" 2>/dev/null) || return 0
  if kill -0 "$pid" 2>/dev/null && grep -q prod.sh "/proc/$pid/cmdline" 2>/dev/null; then
    echo "$pid"
  fi
}

# -- preparing: packages, keys, certificate, database, static files, nginx.conf -------------

prepare() {
  [ -x "$PY" ] || make -s .venv/.installed-run
  [[ "$WEB_PROCESSES" =~ ^[1-9][0-9]*$ ]] || die "WEB_PROCESSES must be a number, not $WEB_PROCESSES"
  mkdir -p "$RUN" "$LOG" "$PROD_DIR/nginx/tmp" "$PROD_DIR/tls"

  [ -x "$(nginx_bin)" ] || apt_install nginx
  command -v openssl >/dev/null || apt_install openssl
  # PostgreSQL and Redis on this machine: start them (installing them if need be).
  case "$DATABASE_URL $REDIS_URL" in
    *127.0.0.1* | *localhost*) bash scripts/services.sh ;;
  esac

  if [ -n "${SECRET_KEY:-}" ]; then
    unset SECRET_KEY_FILE  # the operator's key, from the environment
  elif [ ! -s "$SECRET_KEY_FILE" ]; then
    (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$SECRET_KEY_FILE")
    say "generated a secret key in $SECRET_KEY_FILE (keep it: sessions depend on it)"
  fi

  tls_paths
  if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
    if [ ! -r "${TLS_CERT:-}" ] || [ ! -r "${TLS_KEY:-}" ]; then
      die "TLS_CERT and TLS_KEY must both be readable files"
    fi
  else
    if [ ! -s "$CERT" ]; then
      local san="DNS:localhost,IP:127.0.0.1,IP:::1"
      if [[ "$SITE_HOST" =~ ^[0-9.]+$ ]]; then san="$san,IP:$SITE_HOST"; else san="$san,DNS:$SITE_HOST"; fi
      (umask 077 && openssl req -x509 -newkey rsa:2048 -sha256 -days 825 -nodes -subj "/CN=$SITE_HOST" \
        -addext "subjectAltName=$san" -keyout "$KEY" -out "$CERT" 2>/dev/null)
      chmod 644 "$CERT"
      say "generated a self-signed certificate for $SITE_HOST in $CERT (browsers will warn)"
    fi
  fi

  create_database
  "$PY" manage.py migrate --noinput -v 0
  "$PY" manage.py collectstatic --noinput -v 0
  "$PY" manage.py check --deploy

  # Root's nginx runs its workers as NGINX_USER, which must be able to read the static files.
  nginx_user
  if [ -n "$NGINX_USER_LINE" ]; then
    runuser -u "$NGINX_USER" -- test -r "$STATIC_ROOT/staticfiles.json" ||
      die "nginx workers (user $NGINX_USER) cannot read $STATIC_ROOT: set PROD_DIR to a readable place or NGINX_USER"
  fi

  write_env
  echo "$URL" >"$PROD_DIR/url"
}

create_database() {  # CREATE DATABASE when the PostgreSQL server answers but lacks it
  "$PY" - <<'EOF'
import os, dj_database_url, psycopg
from psycopg import sql
c = dj_database_url.parse(os.environ["DATABASE_URL"])
if c["ENGINE"] == "django.db.backends.postgresql":
    where = {"host": c["HOST"] or None, "port": c["PORT"] or None,
             "user": c["USER"] or None, "password": c["PASSWORD"] or None}
    try:
        psycopg.connect(dbname=c["NAME"], connect_timeout=5, **where).close()
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            raise
        with psycopg.connect(dbname="postgres", autocommit=True, **where) as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(c["NAME"])))
        print(f"prod: created the database {c['NAME']}")
EOF
}

write_env() {  # what the processes run with, for tools that want the same database
  # Only its owner may read it (the database password is in it): the file is made under
  # the umask, inside the subshell, and moved into place whole.
  (
    umask 077
    {
      echo "# Written by scripts/prod.sh: source it to use the production database and Redis."
      for name in DJANGO_SETTINGS_MODULE DEBUG ALLOWED_HOSTS DATABASE_URL REDIS_URL STATIC_ROOT \
        "${REDIS_PREFIX:+REDIS_PREFIX}" "${SECRET_KEY_FILE:+SECRET_KEY_FILE}" \
        "${SECRET_KEY:+SECRET_KEY}"; do
        [ -n "$name" ] || continue
        printf 'export %s=%q\n' "$name" "${!name}"
      done
    } >"$PROD_DIR/env.new"
    chmod 600 "$PROD_DIR/env.new"
    mv -f "$PROD_DIR/env.new" "$PROD_DIR/env"
  )
}

tls_paths() {  # CERT and KEY: the operator's, or the self-signed pair prepare() makes
  if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
    CERT=${TLS_CERT:-} KEY=${TLS_KEY:-}
  else
    CERT="$PROD_DIR/tls/self-signed.crt" KEY="$PROD_DIR/tls/self-signed.key"
  fi
}

nginx_user() {  # NGINX_USER_LINE: root's nginx runs its workers as NGINX_USER
  NGINX_USER_LINE=""
  if [ "$(id -u)" = 0 ]; then
    NGINX_USER=${NGINX_USER:-www-data}
    NGINX_USER_LINE="user $NGINX_USER;"
  fi
}

write_nginx_conf() {
  nginx_conf "$1" >"$PROD_DIR/nginx/nginx.conf"
}

# What every location passing requests to Daphne sets (the telemetry one too), after its
# proxy_pass.
PROXY_SETTINGS='            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            # Replace, not append: Daphne trusts the first address (log-in throttling
            # and telemetry rate limits count per address).
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            # Daphne pings every socket every 20 s, so only a dead one stays silent this long.
            proxy_read_timeout 120s;'

# Per client address (docs/operations.md, "Limits"): page requests (everything passed to
# Daphne but the sockets), and the sockets: handshakes per second and sockets open at once.
# Static files are not limited. The bursts are far above what a family of 8 behind one
# address, with several tabs each, ever sends; a refusal is a 429.
REQUEST_LIMIT='            limit_req zone=requests_per_address burst=100 nodelay;'
SOCKET_LIMITS='            limit_req zone=handshakes_per_address burst=60 nodelay;
            limit_conn sockets_per_address 100;'

nginx_conf() {  # foreground | background: nginx.conf on stdout
  local mode=$1 upstreams="" i access error
  for i in $(seq 0 $((WEB_PROCESSES - 1))); do
    upstreams+="    server 127.0.0.1:$((DAPHNE_FIRST_PORT + i));"$'\n'
  done
  if [ "$mode" = foreground ]; then
    access=/dev/stdout error=stderr
  else
    access="$LOG/nginx-access.log" error="$LOG/nginx-error.log"
  fi
  local redirect_port=":$HTTPS_PORT"
  [ "$HTTPS_PORT" = 443 ] && redirect_port=""
  local tmp="$PROD_DIR/nginx/tmp"
  cat <<EOF
# Written by scripts/prod.sh on each start: edit the script, not this file.
$NGINX_USER_LINE
worker_processes auto;
worker_rlimit_nofile 16384;
pid $RUN/nginx.pid;
error_log $error warn;
events { worker_connections 8192; }

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    # Access lines name the path without its query string (a table socket's ?t= and a
    # private room page's carry the room's token), mask /join/<token>/, and leave the
    # Referer out (a page's address carries the token too). The last field names the Daphne
    # process that answered.
    map \$uri \$logged_uri { "~^/join/" "/join/-/"; default \$uri; }
    log_format tokenless '\$remote_addr [\$time_local] "\$request_method \$logged_uri \$server_protocol" '
                         '\$status \$body_bytes_sent "\$http_user_agent" \$request_time '
                         'upstream=\$upstream_addr';
    access_log $access tokenless;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    client_max_body_size 1m;
    client_body_temp_path $tmp/body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;

    # Limits per client address (docs/operations.md, "Limits"; the burst and the count in
    # each location). Refusals answer 429 and are logged at info, below error_log's warn:
    # nginx's error lines quote the request line, query string (token) included.
    limit_req_zone \$binary_remote_addr zone=requests_per_address:10m rate=10r/s;
    limit_req_zone \$binary_remote_addr zone=handshakes_per_address:10m rate=2r/s;
    limit_conn_zone \$binary_remote_addr zone=sockets_per_address:10m;
    limit_req_status 429;
    limit_conn_status 429;
    limit_req_log_level info;
    limit_conn_log_level info;

    # WebSockets: pass the upgrade on; other requests keep the upstream connection alive.
    map \$http_upgrade \$connection_upgrade { default upgrade; "" ""; }
    # Hashed names (name.0123456789ab.ext, ManifestStaticFilesStorage) never change.
    map \$uri \$static_cache {
        "~\\.[0-9a-f]{12}\\.[A-Za-z0-9]+\$" "public, max-age=31536000, immutable";
        default "public, max-age=300";
    }

    # Any process can serve any request or socket (rooms live in PostgreSQL and Redis),
    # so no sticky sessions; least_conn spreads the long-lived sockets evenly.
    upstream daphne {
        least_conn;
$upstreams        keepalive 32;
    }

    # A table's sockets go to the process its room's code hashes to, so that a room's
    # sockets normally meet in one process (docs/architecture.md, "Routing"). Consistent
    # hashing: adding or removing a process moves only the rooms that hashed to it.
    # Correctness never depends on it: a socket on another process still gets every state
    # through the channel layer.
    map \$uri \$room_code { "~^/ws/rooms/(?<code>[^/]+)/\$" \$code; default ""; }
    upstream daphne_rooms {
        hash \$room_code consistent;
$upstreams    }

    server {
        listen $LISTEN_ADDRESS:$HTTP_PORT;
        return 301 https://\$host$redirect_port\$request_uri;
    }

    server {
        listen $LISTEN_ADDRESS:$HTTPS_PORT ssl http2;
        ssl_certificate $CERT;
        ssl_certificate_key $KEY;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;
        ssl_session_timeout 1d;

        location /static/ {
            alias $STATIC_ROOT/;
            add_header Cache-Control \$static_cache;
            add_header X-Content-Type-Options nosniff;
            gzip on;
            gzip_types text/css application/javascript image/svg+xml application/json;
        }

        # Anonymous telemetry (POST /telemetry/events/): the privacy text promises that no
        # address is kept: no access log line (address, user agent) for these requests,
        # and no error log line either (nginx's error lines name the client's address).
        location /telemetry/ {
            access_log off;
            error_log /dev/null;
$REQUEST_LIMIT
            proxy_pass http://daphne;
$PROXY_SETTINGS
        }

        # The lobby's socket.
        location /ws/ {
$SOCKET_LIMITS
            proxy_pass http://daphne;
$PROXY_SETTINGS
        }

        # The table's sockets, by their room.
        location /ws/rooms/ {
$SOCKET_LIMITS
            proxy_pass http://daphne_rooms;
$PROXY_SETTINGS
        }

        location / {
$REQUEST_LIMIT
            proxy_pass http://daphne;
$PROXY_SETTINGS
        }
    }
}
EOF
}

# -- serving: the supervisor -------------------------------------------------------------------

CHILDREN=()

stop_children() {
  trap - INT TERM
  local pid
  # nginx first (listed last), so no new request reaches a stopping Daphne.
  for ((i = ${#CHILDREN[@]} - 1; i >= 0; i--)); do kill -TERM "${CHILDREN[$i]}" 2>/dev/null || true; done
  for _ in $(seq 1 100); do
    local alive=0
    for pid in "${CHILDREN[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${CHILDREN[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "$RUN/prod.pid" "$RUN/children"
}

children_alive() {
  local pid
  for pid in "${CHILDREN[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done
}

daphne_command() {  # PORT: DAPHNE_COMMAND, one Daphne process's command line
  # --proxy-headers: the client's address and scheme from nginx's X-Forwarded-* headers.
  # nginx writes the access log (none for telemetry), so Daphne keeps none: without
  # --access-log it would print one, addresses included, at its default verbosity.
  DAPHNE_COMMAND=("$PY" -m daphne -b 127.0.0.1 -p "$1" --proxy-headers
    --access-log /dev/null config.asgi:application)
}

serve() {  # foreground | background (output already redirected by `start`)
  local mode=$1 i port
  echo $$ >"$RUN/prod.pid"
  trap 'say "stopping"; stop_children; exit 0' INT TERM
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true  # many sockets per process
  for i in $(seq 1 "$WEB_PROCESSES"); do
    port=$((DAPHNE_FIRST_PORT + i - 1))
    daphne_command "$port"
    local command=("${DAPHNE_COMMAND[@]}")
    if [ "$mode" = foreground ]; then
      "${command[@]}" &
    else
      "${command[@]}" >>"$LOG/daphne-$i.log" 2>&1 &
    fi
    CHILDREN+=($!)
  done
  echo "${CHILDREN[*]}" >"$RUN/children"
  # nginx once every Daphne listens: an upstream refused early would be benched for 10 s.
  for port in $(seq "$DAPHNE_FIRST_PORT" $((DAPHNE_FIRST_PORT + WEB_PROCESSES - 1))); do
    until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
      children_alive || break 2
      sleep 0.2
    done
  done
  "$(nginx_bin)" -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf" -e "$LOG/nginx-error.log" \
    -g "daemon off;" &
  CHILDREN+=($!)
  echo "${CHILDREN[*]}" >"$RUN/children"
  say "$WEB_PROCESSES Daphne processes on 127.0.0.1:$DAPHNE_FIRST_PORT.. behind nginx"
  for _ in $(seq 1 150); do  # the first healthy answer, up to 30 s
    if probe >/dev/null 2>&1; then
      say "serving $URL"
      break
    fi
    children_alive || break
    sleep 0.2
  done
  # Until a signal, or until any process exits: then stop the rest (a service manager
  # such as systemd restarts the whole set; see docs/operations.md).
  wait -n || true
  say "a process exited on its own; stopping the others"
  stop_children
  exit 1
}

run() {
  [ -z "$(supervisor_pid)" ] || die "already running (scripts/prod.sh stop first)"
  prepare
  write_nginx_conf foreground
  say "Ctrl-C stops everything"
  serve foreground
}

start() {
  if [ -n "$(supervisor_pid)" ]; then
    say "already running: $(cat "$PROD_DIR/url")"
    return 0
  fi
  prepare
  write_nginx_conf background
  rm -f "$RUN/prod.pid"
  # A session of its own: it outlives this shell and its terminal.
  setsid bash "$ROOT/scripts/prod.sh" _serve </dev/null >>"$LOG/prod.log" 2>&1 &
  for _ in $(seq 1 300); do  # 60 s
    if probe >/dev/null 2>&1; then
      say "serving $URL (logs in $LOG; scripts/prod.sh stop)"
      return 0
    fi
    if [ -s "$RUN/prod.pid" ] && [ -z "$(supervisor_pid)" ]; then break; fi
    sleep 0.2
  done
  say "did not become healthy; the end of the logs:"
  tail -n 20 "$LOG"/*.log >&2 || true
  stop
  return 1
}

stop() {
  local pid
  pid=$(supervisor_pid)
  if [ -n "$pid" ]; then
    kill -TERM "$pid"
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # Left behind only if the supervisor itself was killed.
  for pid in $(cat "$RUN/children" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "$RUN/prod.pid" "$RUN/children"
  say "stopped"
}

status() {
  local pid
  pid=$(supervisor_pid)
  if [ -z "$pid" ]; then
    say "not running"
    return 3
  fi
  echo "supervisor $pid; processes: $(cat "$RUN/children" 2>/dev/null)"
  for pid in $(cat "$RUN/children" 2>/dev/null); do
    echo "  $pid $(ps -o args= -p "$pid" 2>/dev/null || echo '(gone)')"
  done
  echo "$(cat "$PROD_DIR/url")/healthz:"
  probe || return 1
}

config() {  # nginx | daphne: what `start` would run with, printed; nothing is started
  case "$1" in
    nginx)
      tls_paths
      nginx_user
      nginx_conf background
      ;;
    daphne)
      local port
      for port in $(seq "$DAPHNE_FIRST_PORT" $((DAPHNE_FIRST_PORT + WEB_PROCESSES - 1))); do
        daphne_command "$port"
        printf '%q ' "${DAPHNE_COMMAND[@]}"
        echo
      done
      ;;
    *) die "usage: scripts/prod.sh config [nginx|daphne]" ;;
  esac
}

case "${1:-run}" in
  run) run ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  _serve) serve background ;;
  config) config "${2:-nginx}" ;;
  *) die "usage: scripts/prod.sh [run|start|stop|status|config [nginx|daphne]]" ;;
esac
