#!/usr/bin/env bash
# The peer (boardgame.io 0.50.2 Old Maid) made like for like with our stack, in three
# configurations, each a quick saturation ramp and a paced run, one JSON file per run:
#
#   a  as ../shared/peer-bgio runs it: the stock server, InMemory storage, the generator
#      straight to Node over http/ws
#   b  a, behind an nginx TLS front like scripts/prod.sh's (self-signed certificate,
#      worker_processes auto, upstream keepalive 32, the same proxy settings); the
#      generator goes over https/wss through nginx
#   c  b, with the bgio-postgres storage adapter on our PostgreSQL (database peer_bgio,
#      dropped and created anew for every run)
#
# Server CPU = Node + nginx (master and workers) + PostgreSQL (postmaster, its background
# processes and the peer_bgio backends), from /proc over the measured window.
#
#   flock /tmp/bench.lock tools/peer_bgio/run.sh OUT [a b c]
#   RAMP="10" PACED_MATCHES=10 PACED_S=10 flock /tmp/bench.lock tools/peer_bgio/run.sh /tmp/peer-try a
#
# Writes OUT/a, OUT/b, OUT/c (what BENCH_PEER=OUT of make bench-load reads) and
# OUT/summary.md. Starts and stops its own Node and nginx; nothing is left running.
set -u
cd "$(dirname "$0")"
HERE=$(pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUT [a b c]" >&2; exit 2; }
OUT=$1
shift
CONFIGS=${*:-a b c}
case "$OUT" in /*) ;; *) OUT="$OLDPWD/$OUT" ;; esac  # relative to the caller's directory

NODE_PORT=${NODE_PORT:-18431}
HTTPS_PORT=${HTTPS_PORT:-18443}
RAMP=${RAMP:-"25 100"}
SAT_WARMUP=${SAT_WARMUP:-2}
SAT_MEASURE=${SAT_MEASURE:-8}
PACED_MATCHES=${PACED_MATCHES:-100}
PACED_WARMUP=${PACED_WARMUP:-5}
PACED_S=${PACED_S:-30}
PACE_MS=${PACE_MS:-1000}
JITTER_MS=${JITTER_MS:-200}
SETUP_RUN=${SETUP_RUN:-0}   # 1: also the match-turnover run (setup-50) of run_all.sh
LOAD_MAX=${LOAD_MAX:-0.5}
QUIET_WAIT=${QUIET_WAIT:-5}  # seconds to wait for load1 < LOAD_MAX before warning
PG_HOST=${PG_HOST:-127.0.0.1}
PG_PORT=${PG_PORT:-5432}
PG_USER=${PG_USER:-postgres}
PG_DB=${PG_DB:-peer_bgio}
NGINX=${NGINX:-/usr/sbin/nginx}

for c in $CONFIGS; do
  case "$c" in a | b | c) ;; *) echo "unknown configuration $c (a, b or c)" >&2; exit 2 ;; esac
done
command -v node >/dev/null || { echo "node is missing: apt-get install -y nodejs npm" >&2; exit 1; }
if [[ "$CONFIGS" =~ [bc] ]]; then
  [ -x "$NGINX" ] || { echo "nginx is missing: apt-get install -y nginx" >&2; exit 1; }
  command -v openssl >/dev/null || { echo "openssl is missing: apt-get install -y openssl" >&2; exit 1; }
fi
if [[ "$CONFIGS" =~ c ]]; then
  command -v psql >/dev/null || { echo "psql is missing: apt-get install -y postgresql-client" >&2; exit 1; }
  psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres -tAc 'select 1' >/dev/null ||
    { echo "PostgreSQL at $PG_HOST:$PG_PORT (user $PG_USER) is not reachable" >&2; exit 1; }
fi
if [ ! -d node_modules/boardgame.io ] || [ ! -d node_modules/bgio-postgres ]; then
  npm ci --no-audit --no-fund || exit 1
fi
for p in $NODE_PORT $HTTPS_PORT; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    echo "port $p is in use (NODE_PORT / HTTPS_PORT)" >&2
    exit 1
  fi
done

RUN=$(mktemp -d /tmp/peer_bgio.XXXXXX)
NODE_PID="" NODE_WRAP="" NGINX_WRAP="" GEN_WRAP=""
stop_nginx() {
  local pid=""
  [ -s "$RUN/nginx/nginx.pid" ] && pid=$(cat "$RUN/nginx/nginx.pid")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  fi
  [ -n "$NGINX_WRAP" ] && { kill "$NGINX_WRAP" 2>/dev/null; wait "$NGINX_WRAP" 2>/dev/null; }
  rm -f "$RUN/nginx/nginx.pid"
  NGINX_WRAP=""
}
stop_node() {
  if [ -n "$NODE_PID" ]; then
    kill -TERM "$NODE_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$NODE_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$NODE_PID" 2>/dev/null
  fi
  [ -n "$NODE_WRAP" ] && { kill "$NODE_WRAP" 2>/dev/null; wait "$NODE_WRAP" 2>/dev/null; }
  NODE_PID="" NODE_WRAP=""
}
cleanup() {
  trap - EXIT INT TERM
  [ -n "$GEN_WRAP" ] && { kill "$GEN_WRAP" 2>/dev/null; wait "$GEN_WRAP" 2>/dev/null; }
  stop_node
  stop_nginx
  rm -rf "$RUN"
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT TERM

# The self-signed certificate, as scripts/prod.sh makes its own (RSA 2048, SHA-256).
if [[ "$CONFIGS" =~ [bc] ]]; then
  mkdir -p "$RUN/tls" "$RUN/nginx/tmp"
  chmod 755 "$RUN"
  chmod 1777 "$RUN/nginx/tmp" # nginx's workers run as nobody (the master as this user)
  (umask 077 && openssl req -x509 -newkey rsa:2048 -sha256 -days 2 -nodes -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -keyout "$RUN/tls/key.pem" -out "$RUN/tls/cert.pem" 2>/dev/null) || { echo "openssl failed" >&2; exit 1; }
fi

# nginx.conf: scripts/prod.sh's nginx_conf where it applies (workers, limits of file
# descriptors and connections, TLS, the upstream keepalive, the proxy settings of every
# location, the access log format, gzip of the JSON answers). Left out: the per-address
# request and socket limits (every bot comes from 127.0.0.1: they would refuse it), the
# port-80 redirect, the static files, telemetry and the room-hashed socket upstream (one
# Node process: nothing to route between).
write_nginx_conf() {
  local tmp="$RUN/nginx/tmp"
  cat >"$RUN/nginx/nginx.conf" <<EOF
# Written by tools/peer_bgio/run.sh for one run.
worker_processes auto;
worker_rlimit_nofile 16384;
pid $RUN/nginx/nginx.pid;
error_log $RUN/nginx/error.log warn;
events { worker_connections 8192; }

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format tokenless '\$remote_addr [\$time_local] "\$request_method \$uri \$server_protocol" '
                         '\$status \$body_bytes_sent "\$http_user_agent" \$request_time '
                         'upstream=\$upstream_addr upstream_status=\$upstream_status '
                         'upstream_time=\$upstream_response_time';
    access_log $RUN/nginx/access.log tokenless;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    client_max_body_size 1m;
    client_body_temp_path $tmp/body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;

    map \$http_upgrade \$connection_upgrade { default upgrade; "" ""; }

    upstream bgio {
        server 127.0.0.1:$NODE_PORT max_fails=0;
        keepalive 32;
    }

    server {
        listen 127.0.0.1:$HTTPS_PORT ssl http2;
        ssl_certificate $RUN/tls/cert.pem;
        ssl_certificate_key $RUN/tls/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;
        ssl_session_timeout 1d;

        # The lobby's REST API (create, join, ...) and the game sockets (socket.io's
        # websocket transport, /socket.io/: gzip leaves an upgraded connection alone).
        location / {
            gzip on;
            gzip_proxied any;
            gzip_vary on;
            gzip_min_length 1024;
            gzip_types application/json application/x-ndjson;
            proxy_pass http://bgio;
            proxy_http_version 1.1;
            proxy_set_header Host \$http_host;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header X-Forwarded-For \$remote_addr;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_read_timeout 120s;
        }
    }
}
EOF
}

psql_() { psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -v ON_ERROR_STOP=1 -qtA "$@"; }

wait_quiet() {  # LABEL: wait up to QUIET_WAIT s for load1 < LOAD_MAX, else warn
  local l i
  for i in $(seq 0 "$QUIET_WAIT"); do
    l=$(cut -d' ' -f1 /proc/loadavg)
    if awk -v l="$l" -v m="$LOAD_MAX" 'BEGIN{exit !(l<m)}'; then
      echo "$1 $(date -Is) quiet: $(uptime)" >>"$DIR/uptime.log"
      return 0
    fi
    [ "$i" -lt "$QUIET_WAIT" ] && sleep 1
  done
  echo "WARNING: $1 on a busy machine (load1=$l >= $LOAD_MAX)"
  echo "$1 $(date -Is) BUSY: $(uptime)" >>"$DIR/uptime.log"
}

run_one() {  # CONFIG LABEL MATCHES MODE WARMUP MEASURE [loadgen args...]
  local cfg=$1 label=$2 matches=$3 mode=$4 warmup=$5 measure=$6
  shift 6
  local limit=$((measure + warmup + 150)) url="http://127.0.0.1:$NODE_PORT" k
  local gen_args=(--config "$cfg") db_url=""
  wait_quiet "$cfg/$label"
  if [ "$cfg" = c ]; then
    psql_ -d postgres -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" -c "CREATE DATABASE $PG_DB" || return 1
    db_url="postgres://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB"
    gen_args+=(--postgres-db "$PG_DB" --serial-joins)
  fi
  # Node: a fresh server for every run (stdin from /dev/null: a background job)
  PORT=$NODE_PORT NODE_ENV=production PEER_DB_URL=$db_url \
    timeout "$limit" node server.js </dev/null >"$DIR/$label.server.log" 2>&1 &
  NODE_WRAP=$!
  for k in $(seq 1 150); do
    NODE_PID=$(sed -n 's/^READY pid=\([0-9]*\).*/\1/p' "$DIR/$label.server.log" 2>/dev/null)
    [ -n "$NODE_PID" ] && break
    sleep 0.1
  done
  if [ -z "$NODE_PID" ]; then
    echo "$cfg/$label: server did not start"; cat "$DIR/$label.server.log"; stop_node; return 1
  fi
  if [ "$cfg" != a ]; then
    write_nginx_conf
    rm -f "$RUN/nginx/access.log" "$RUN/nginx/error.log"
    timeout "$limit" "$NGINX" -e "$RUN/nginx/error.log" -p "$RUN/nginx" -c "$RUN/nginx/nginx.conf" \
      -g 'daemon off;' </dev/null >"$DIR/$label.nginx.log" 2>&1 &
    NGINX_WRAP=$!
    url="https://127.0.0.1:$HTTPS_PORT"
    for k in $(seq 1 100); do
      curl -skf "$url/games" >/dev/null 2>&1 && [ -s "$RUN/nginx/nginx.pid" ] && break
      sleep 0.1
    done
    if ! curl -skf "$url/games" >/dev/null 2>&1; then
      echo "$cfg/$label: nginx did not start"; cat "$DIR/$label.nginx.log" "$RUN/nginx/error.log" 2>/dev/null
      stop_node; stop_nginx; return 1
    fi
    gen_args+=(--insecure --nginx-pid "$(cat "$RUN/nginx/nginx.pid")")
  fi
  # In the background and waited for, so that a signal reaches the trap at once. The
  # generator prints one line at its end.
  timeout $((measure + warmup + 120)) node loadgen.js --url "$url" --matches "$matches" \
    --mode "$mode" --warmup "$warmup" --measure "$measure" --server-pid "$NODE_PID" --label "$label" \
    --json "$DIR/$label.json" "${gen_args[@]}" "$@" </dev/null >"$DIR/$label.gen.log" 2>&1 &
  GEN_WRAP=$!
  wait "$GEN_WRAP"
  GEN_WRAP=""
  grep -v -e NODE_TLS_REJECT_UNAUTHORIZED -e trace-warnings "$DIR/$label.gen.log"
  stop_node
  local nginx_errs=0 rows="null" log_entries="null"
  if [ "$cfg" != a ]; then
    stop_nginx
    nginx_errs=$(grep -c '\[\(error\|crit\|alert\|emerg\)\]' "$RUN/nginx/error.log" 2>/dev/null)
    nginx_errs=${nginx_errs:-0}
    cp "$RUN/nginx/error.log" "$DIR/$label.nginx-error.log" 2>/dev/null
  fi
  if [ "$cfg" = c ]; then
    # What the durable store holds after the run: one row per match, each row's log
    # holding every draw of its match.
    rows=$(psql_ -d "$PG_DB" -c 'SELECT count(*) FROM "Games"')
    log_entries=$(psql_ -d "$PG_DB" -c 'SELECT coalesce(sum(json_array_length(log)), 0) FROM "Games"')
    echo "$cfg/$label: PostgreSQL $PG_DB: $rows rows in \"Games\", $log_entries log entries"
  fi
  local errs
  errs=$(grep -c '^ERROR' "$DIR/$label.server.log")
  node -e "
    const fs=require('fs');const f='$DIR/$label.json';
    if(fs.existsSync(f)){const d=JSON.parse(fs.readFileSync(f));d.server_error_log_lines=$errs;
      d.nginx_error_log_lines=$nginx_errs;d.pg_games_rows=$rows;d.pg_log_entries=$log_entries;
      fs.writeFileSync(f,JSON.stringify(d,null,2));}
  "
  echo "$cfg/$label: server ERROR log lines: $errs; nginx error lines: $nginx_errs"
}

mkdir -p "$OUT"
echo "output: $OUT   configurations: $CONFIGS"
: >"$OUT/summary.md"
for cfg in $CONFIGS; do
  DIR="$OUT/$cfg"
  rm -rf "$DIR"
  mkdir -p "$DIR"
  {
    echo "config: $cfg"
    echo "date: $(date -Is)"
    echo "node: $(node --version)"
    echo "boardgame.io: $(node -p "require('boardgame.io/package.json').version")"
    echo "socket.io: $(node -p "require('socket.io/package.json').version")"
    echo "socket.io-client: $(node -p "require('socket.io-client/package.json').version")"
    [ "$cfg" = a ] || echo "nginx: $("$NGINX" -v 2>&1 | sed 's/.*: //'), worker_processes auto ($(nproc))"
    [ "$cfg" = c ] && echo "bgio-postgres: $(node -p "require('bgio-postgres/package.json').version"), sequelize $(node -p "require('sequelize/package.json').version"), pg $(node -p "require('pg/package.json').version"); $(psql_ -d postgres -c 'SHOW server_version')"
    echo "cpus: $(nproc)  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    echo "knobs: RAMP='$RAMP' SAT_WARMUP=$SAT_WARMUP SAT_MEASURE=$SAT_MEASURE PACED_MATCHES=$PACED_MATCHES PACED_WARMUP=$PACED_WARMUP PACED_S=$PACED_S PACE_MS=$PACE_MS JITTER_MS=$JITTER_MS"
  } >"$DIR/env.txt"
  echo "== configuration $cfg"
  for n in $RAMP; do
    run_one "$cfg" "sat-$n" "$n" saturate "$SAT_WARMUP" "$SAT_MEASURE"
  done
  if [ "$SETUP_RUN" = 1 ]; then
    run_one "$cfg" setup-50 50 setup "$SAT_WARMUP" "$SAT_MEASURE"
  fi
  run_one "$cfg" "paced-$PACED_MATCHES" "$PACED_MATCHES" paced "$PACED_WARMUP" "$PACED_S" \
    --pace "$PACE_MS" --jitter "$JITTER_MS"
  node summarize.js "$DIR" >"$DIR/summary.md"
  { echo "## configuration $cfg"; echo; cat "$DIR/summary.md"; echo; } >>"$OUT/summary.md"
done
echo
grep '^headline' "$OUT/summary.md"
