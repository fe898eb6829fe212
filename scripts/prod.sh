#!/usr/bin/env bash
# Serve the site for real on this machine: nginx terminates TLS, serves the collected
# static files and balances HTTP and WebSockets over several Daphne processes, which share
# PostgreSQL and the Redis channel layer. docs/operations.md describes every variable.
#
#   scripts/prod.sh [run]   prepare, then serve in the foreground; Ctrl-C stops everything
#   scripts/prod.sh start   prepare, then serve in the background (logs in $PROD_DIR/log);
#                           returns once /healthz answers
#   scripts/prod.sh prepare install, keys, certificate, database, static files; serve nothing
#   scripts/prod.sh serve   serve in the foreground what `prepare` made (a service manager's
#                           command: no apt, no pip, no migrate)
#   scripts/prod.sh stop    stop a server started by any of these
#   scripts/prod.sh status  each process and /healthz; exit 0 healthy, 1 unhealthy, 3 stopped
#   scripts/prod.sh upgrade install from the lockfile, migrate, then restart the Daphne
#                           processes one at a time (no request refused)
#   scripts/prod.sh restart restart the Daphne processes one at a time
#   scripts/prod.sh reload  nginx reads its configuration and certificate again
#   scripts/prod.sh manage COMMAND...  a manage.py command on the production database
#   scripts/prod.sh backup  a dump of the database in $PROD_DIR/backups (BACKUP_KEEP kept)
#   scripts/prod.sh restore FILE       the database from a dump (the site stopped)
#   scripts/prod.sh rotate-key | retire-keys   a new secret key, the old one still accepted;
#                           then the old ones dropped
#   scripts/prod.sh config [nginx|daphne|cron|logrotate|systemd]  print what `start` writes
#                           or runs, or the lines to install; start nothing
# docs/operations.md is the runbook for each.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"

PROD_DIR=$(mkdir -p "${PROD_DIR:-var/prod}" && cd "${PROD_DIR:-var/prod}" && pwd)
RUN="$PROD_DIR/run"
LOG="$PROD_DIR/log"

# What an earlier `prepare` recorded (write_env) is read back: the environment still wins,
# so a start needs no variable given again. ALLOWED_HOSTS follows SITE_HOST when that is
# given anew. The recorded DATABASE_URL is kept apart too (RECORDED_DATABASE_URL): it holds
# the password of the site's role, which a superuser's URL given anew maps to.
RECORDED=(SITE_HOST LISTEN_ADDRESS HTTPS_PORT HTTP_PORT WEB_PROCESSES DAPHNE_FIRST_PORT
  DATABASE_URL REDIS_URL REDIS_PORT REDIS_PASSWORD REDIS_PREFIX DB_POOL DB_POOL_SIZE
  ALLOWED_HOSTS TLS_CERT TLS_KEY SECRET_KEY NGINX_USER DAPHNE_USER BACKUP_KEEP)
DATABASE_URL_GIVEN=${DATABASE_URL:+1} REDIS_URL_GIVEN=${REDIS_URL:+1} RECORDED_DATABASE_URL=""
read_recorded() {
  local line name site_host_given=${SITE_HOST+x}
  [ -r "$PROD_DIR/env" ] || return 0
  while IFS= read -r line; do
    [[ "$line" =~ ^export\ ([A-Z_]+)=(.*)$ ]] || continue
    name=${BASH_REMATCH[1]}
    [[ " ${RECORDED[*]} " == *" $name "* ]] || continue
    [ "$name" != DATABASE_URL ] || eval "RECORDED_DATABASE_URL=${BASH_REMATCH[2]}"
    [ -z "${!name+x}" ] || continue
    [ "$name" = ALLOWED_HOSTS ] && [ -n "$site_host_given" ] && continue
    eval "export $name=${BASH_REMATCH[2]}"  # written with printf %q: eval reads it back
  done <"$PROD_DIR/env"
}
read_recorded

SITE_HOST=${SITE_HOST:-127.0.0.1}
LISTEN_ADDRESS=${LISTEN_ADDRESS:-0.0.0.0}
HTTPS_PORT=${HTTPS_PORT:-8443}
HTTP_PORT=${HTTP_PORT:-8080}
WEB_PROCESSES=${WEB_PROCESSES:-$(nproc)}
DAPHNE_FIRST_PORT=${DAPHNE_FIRST_PORT:-8101}
# The site's own PostgreSQL role, named after its database; `prepare` makes it, with a
# password of its own, through the local superuser (site_database).
export DATABASE_URL=${DATABASE_URL:-postgres://oldmaid@127.0.0.1:5432/oldmaid}
# A pool of open database connections per process (docs/performance.md, "Load").
export DB_POOL=${DB_POOL:-1}
# Root's Daphne processes run as this user (daphne_user below); anyone else's as themselves.
[ "$(id -u)" != 0 ] || DAPHNE_USER=${DAPHNE_USER:-oldmaid}
LOCAL_HOSTS="127.0.0.1,localhost,[::1]"
[ "$SITE_HOST" = 127.0.0.1 ] || LOCAL_HOSTS="$SITE_HOST,$LOCAL_HOSTS"
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-$LOCAL_HOSTS}
export DJANGO_SETTINGS_MODULE=config.settings DEBUG=0
export STATIC_ROOT="$PROD_DIR/static"
export SECRET_KEY_FILE="$PROD_DIR/secret_key"
# Keys still accepted but no longer used to sign, one per line (rotate-key, retire-keys).
export SECRET_KEY_FALLBACKS_FILE="$PROD_DIR/secret_key_fallbacks"
ACME_ROOT="$PROD_DIR/acme"

say() { echo "prod: $*" >&2; }
die() { say "$*"; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  say "installing $* from Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq "$@" >/dev/null
}

# The site's Redis (docs/operations.md, "Credentials"). A REDIS_URL given in the
# environment, or recorded by an earlier `prepare`, is the operator's, used as it is.
# Otherwise the supervisor runs a Redis of the site's own (start_redis): 127.0.0.1:REDIS_PORT,
# only with the password REDIS_PASSWORD, which `prepare` makes once and keeps in the env
# file. OLD_REDIS_URL is what releases before that recorded (the machine's Redis, open to
# every local process): an env file holding it gets the site's own Redis at the next start.
OLD_REDIS_URL=redis://127.0.0.1:6379/1
REDIS_PORT=${REDIS_PORT:-6380}
own_redis_url() { echo "redis://:$REDIS_PASSWORD@127.0.0.1:$REDIS_PORT/0"; }
OWN_REDIS=""
if [ -n "${REDIS_PASSWORD:-}" ] && { [ -z "$REDIS_URL_GIVEN" ] || [ "$REDIS_URL" = "$(own_redis_url)" ]; }; then
  OWN_REDIS=1  # recorded by an earlier prepare (or handed down by `start` to its server)
elif [ -z "$REDIS_URL_GIVEN" ] && { [ -z "${REDIS_URL:-}" ] || [ "$REDIS_URL" = "$OLD_REDIS_URL" ]; }; then
  OWN_REDIS=1  # its password is made by prepare
fi
if [ -n "$OWN_REDIS" ]; then
  [[ "$REDIS_PORT" =~ ^[1-9][0-9]*$ ]] || die "REDIS_PORT must be a number, not $REDIS_PORT"
  [[ "${REDIS_PASSWORD:-x}" =~ ^[A-Za-z0-9._~-]+$ ]] ||
    die "REDIS_PASSWORD: letters, digits and . _ ~ - only (it goes into a URL)"
  export REDIS_PORT
  if [ -n "${REDIS_PASSWORD:-}" ]; then
    export REDIS_PASSWORD REDIS_URL
    REDIS_URL=$(own_redis_url)
  else
    unset REDIS_URL
  fi
else
  unset REDIS_PASSWORD REDIS_PORT
fi

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
  install_locked
  [[ "$WEB_PROCESSES" =~ ^[1-9][0-9]*$ ]] || die "WEB_PROCESSES must be a number, not $WEB_PROCESSES"
  mkdir -p "$RUN" "$PROD_DIR/nginx/tmp" "$PROD_DIR/tls" "$ACME_ROOT"
  log_files

  [ -x "$(nginx_bin)" ] || apt_install nginx
  command -v openssl >/dev/null || apt_install openssl
  # PostgreSQL on this machine, and an operator's Redis on it: start them (installing them
  # if need be), without the superuser password CI gives PostgreSQL. The site's own Redis
  # needs only the program.
  local services=()
  case "$DATABASE_URL" in *127.0.0.1* | *localhost*) services+=(postgres) ;; esac
  [ -n "$OWN_REDIS" ] || case "${REDIS_URL:-}" in *127.0.0.1* | *localhost*) services+=(redis) ;; esac
  [ ${#services[@]} = 0 ] || bash scripts/services.sh --prod "${services[@]}"
  [ -z "$OWN_REDIS" ] || command -v redis-server >/dev/null || apt_install redis-server

  if [ -n "${SECRET_KEY:-}" ]; then
    unset SECRET_KEY_FILE  # the operator's key, from the environment
  elif [ ! -s "$SECRET_KEY_FILE" ]; then
    (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$SECRET_KEY_FILE")
    say "generated a secret key in $SECRET_KEY_FILE (keep it: sessions depend on it)"
  fi
  if [ -n "$OWN_REDIS" ] && [ -z "${REDIS_PASSWORD:-}" ]; then
    REDIS_PASSWORD=$("$PY" -c 'import secrets; print(secrets.token_urlsafe(32))')
    export REDIS_PASSWORD REDIS_URL
    REDIS_URL=$(own_redis_url)
    say "the site's own Redis (127.0.0.1:$REDIS_PORT) takes a password, kept in $PROD_DIR/env"
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

  daphne_user
  [ -z "$OWN_REDIS" ] || redis_dir
  # An earlier release's superuser password is dropped only when nothing runs with it.
  if [ -z "$DATABASE_URL_GIVEN" ] && [ -z "$(supervisor_pid)" ]; then site_database drop; else site_database; fi
  write_env  # the role's password, at once
  "$PY" manage.py migrate --noinput -v 0
  "$PY" manage.py collectstatic --noinput -v 0
  "$PY" manage.py check --deploy

  # Root's nginx runs its workers as NGINX_USER, which must be able to read the static files.
  nginx_user
  if [ -n "$NGINX_USER_LINE" ]; then
    runuser -u "$NGINX_USER" -- test -r "$STATIC_ROOT/staticfiles.json" ||
      die "nginx workers (user $NGINX_USER) cannot read $STATIC_ROOT: set PROD_DIR to a readable place or NGINX_USER"
  fi

  use_app
  [ -n "$(supervisor_pid)" ] || prune_app
  write_env
  echo "$URL" >"$PROD_DIR/url"
}

# Root's Daphne processes run as DAPHNE_USER (made, a system user without a shell, when
# missing), never as root, and never from the checkout: it may lie where that user cannot
# go (under /root), and its venv may be made of a Python only root can run (pyenv's). They
# run from a copy of their own instead, which the user may read but not change (daphne_app).
# The secret key files are root's, and its group's to read (0640): a process that runs as the
# user cannot plant a key there for rotate-key to carry forward. Started by another user,
# Daphne runs as it.
daphne_user() {
  dropping || return 0
  [ "$(id -u)" = 0 ] || die "only root can run the Daphne processes as $DAPHNE_USER: unset DAPHNE_USER"
  local error=""
  for _ in 1 2 3 4 5; do  # another prod.sh may be making it at the same moment
    id -u "$DAPHNE_USER" >/dev/null 2>&1 && break
    if error=$(useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$DAPHNE_USER" 2>&1); then
      say "made the system user $DAPHNE_USER for the Daphne processes"
    else
      sleep 1
    fi
  done
  id -u "$DAPHNE_USER" >/dev/null 2>&1 || die "could not make the user $DAPHNE_USER: $error"
  local file
  if [ -n "${SECRET_KEY_FILE:-}" ]; then  # unset: the operator's key, from the environment
    for file in "$SECRET_KEY_FILE" "$SECRET_KEY_FALLBACKS_FILE"; do
      [ -e "$file" ] || : | secret_file "$file"
      chown "root:$(id -gn "$DAPHNE_USER")" "$file"
      chmod 640 "$file"
    done
  fi
  as_daphne_user test -x "$PROD_DIR" && { [ -z "${SECRET_KEY_FILE:-}" ] || as_daphne_user test -r "$SECRET_KEY_FILE"; } ||
    die "the Daphne processes' user $DAPHNE_USER cannot reach ${SECRET_KEY_FILE:-$PROD_DIR}: set PROD_DIR to a place it may enter"
  daphne_app
  # The very command they run, as they run it: the interpreter, the packages, the code and
  # the settings (which read the key).
  error=$(as_daphne_user env -C "$APP_CODE" "$APP_VENV/bin/python" -c \
    'import daphne, django, config.settings' 2>&1 >/dev/null) ||
    die "the Daphne processes' user $DAPHNE_USER cannot run the site from $APP: ${error##*$'\n'}"
}

dropping() { [ -n "${DAPHNE_USER:-}" ] && [ "$DAPHNE_USER" != "$(id -un)" ]; }

drop_to_daphne_user() {  # DROP: the command prefix that runs as DAPHNE_USER (none when we are it)
  DROP=()
  if dropping; then
    DROP=(setpriv --reuid="$DAPHNE_USER" --regid="$DAPHNE_USER" --init-groups --)
  fi
}

as_daphne_user() {  # COMMAND...: run as DAPHNE_USER
  drop_to_daphne_user
  "${DROP[@]}" "$@"
}

# What the Daphne processes of a dropping root run (daphne_user): in APP, owned by root and
# readable by all,
#   code-HASH/   the checkout's files (git's: tracked, and untracked but not ignored), their
#                bytecode compiled; HASH is their content's, so an unchanged checkout is
#                copied once
#   venv-HASH/   a venv of a Python the user can run, of the checkout venv's version (that
#                venv's own interpreter, else Debian's python3) with the site's packages at
#                the versions of requirements.lock; made anew only when the lockfile,
#                pyproject.toml or that interpreter changes
#   code, venv   links to the two in use: `prepare` and `upgrade` switch them once the
#                migrations have run (use_app), and every process started from then on
#                (`roll`, a crash, `serve`) runs what they name.
# So a `git pull` reaches the processes through `upgrade`, after its migrations.
APP="$PROD_DIR/app"

app_code() { echo "$APP/$(readlink "$APP/code" 2>/dev/null || echo code)"; }
app_python() { echo "$APP/$(readlink "$APP/venv" 2>/dev/null || echo venv)/bin/python"; }

daphne_app() {
  local base version requirements venv sum
  version=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  base=$(app_interpreter "$version") ||
    die "the Daphne processes' user $DAPHNE_USER cannot run Python $version: neither this venv's own interpreter ($("$PY" -c 'import sys; print(sys._base_executable)')) nor /usr/bin/python$version; install Debian's python$version, or set DAPHNE_USER"
  (umask 022 && mkdir -p "$APP")
  chmod 755 "$APP"

  # The site's packages (pyproject.toml's dependencies, not the project itself: its code
  # is the copy below, the processes' working directory), with no pip of their own: this
  # venv's pip installs them.
  mapfile -t requirements < <("$PY" -c 'import sys, tomllib
print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]))' "$ROOT/pyproject.toml")
  sum=$({ printf '%s\n' "${requirements[@]}" "$base"; "$base" -VV; cat "$ROOT/requirements.lock"; } |
    sha256sum | cut -c1-12)
  venv="$APP/venv-$sum"
  if [ ! -e "$venv/.complete" ]; then
    say "installing the site's packages at the versions of requirements.lock in $venv, for $DAPHNE_USER"
    rm -rf "$venv"
    (umask 022 && "$base" -m venv --without-pip "$venv" &&
      "$PY" -m pip --python "$venv/bin/python" install -q -c "$ROOT/requirements.lock" "${requirements[@]}") ||
      die "could not install the site's packages in $venv"
    touch "$venv/.complete"
  fi

  # The files as one archive, named by their content: modes made readable by all, owner
  # and times left out, so that the same files always give the same name.
  local archive code
  archive=$(mktemp "$APP/.code.XXXXXX")
  code_files | tar -C "$ROOT" --null -T - --sort=name --mtime=@0 --owner=0 --group=0 \
    --numeric-owner --mode=u+rwX,go+rX,go-w -cf "$archive"
  sum=$(sha256sum <"$archive" | cut -c1-12)
  code="$APP/code-$sum"
  if [ ! -d "$code" ]; then
    rm -rf "$code.new"
    # The user cannot write bytecode beside the code: compiled now, or every process would
    # compile it again at each start.
    (umask 022 && mkdir "$code.new" && tar -C "$code.new" -xf "$archive" && mv "$code.new" "$code" &&
      "$venv/bin/python" -m compileall -q "$code" >/dev/null)
  fi
  rm -f "$archive"

  APP_CODE=$code APP_VENV=$venv
}

use_app() {  # a dropping root's processes started from now on run APP_CODE and APP_VENV
  dropping || return 0
  ln -sfn "${APP_VENV##*/}" "$APP/venv.new" && mv -Tf "$APP/venv.new" "$APP/venv"
  ln -sfn "${APP_CODE##*/}" "$APP/code.new" && mv -Tf "$APP/code.new" "$APP/code"
}

app_interpreter() {  # VERSION: an interpreter of that version DAPHNE_USER can run, or fail
  # The very one root runs, not merely one of that path: where a Python lies out of the
  # user's reach, its exec may still land on another.
  local candidate mine theirs show='import sys; print("%d.%d" % sys.version_info[:2], sys.version)'
  for candidate in "$("$PY" -c 'import sys; print(sys._base_executable)')" "/usr/bin/python$1"; do
    mine=$("$candidate" -c "$show" 2>/dev/null) || continue
    theirs=$(as_daphne_user "$candidate" -c "$show" 2>/dev/null) || continue
    if [ "$mine" = "$theirs" ] && [ "${mine%% *}" = "$1" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

code_files() {  # the checkout's files, NUL-separated: git's, or all but the venv, var and .git
  if git -c safe.directory="$ROOT" -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    local file
    git -c safe.directory="$ROOT" -C "$ROOT" ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' file; do
        if [ -e "$ROOT/$file" ] || [ -L "$ROOT/$file" ]; then printf '%s\0' "$file"; fi  # not deleted
      done
  else
    (cd "$ROOT" && find . \( -name .git -o -name .venv -o -path ./var -o -name __pycache__ \) -prune \
      -o \( -type f -o -type l \) -print0)
  fi
}

prune_app() {  # every code and venv in APP but the two in use (nothing running uses the others)
  local dir
  [ -d "$APP" ] || return 0
  rm -rf "$APP"/.code.* "$APP"/*.new  # left by a failure
  for dir in "$APP"/code-* "$APP"/venv-*; do
    [ -e "$dir" ] || continue
    [ "${dir##*/}" = "$(readlink "$APP/code")" ] || [ "${dir##*/}" = "$(readlink "$APP/venv")" ] ||
      rm -rf "$dir"
  done
}

# The run install at the lockfile's versions (requirements.lock), done again only when the
# lockfile or pyproject.toml changed: an upgrade that adds a dependency installs it.
install_locked() {
  local stamp="$ROOT/.venv/.installed-lock" sum
  [ -x "$PY" ] || make -s .venv/bin/python
  sum=$(cat "$ROOT/requirements.lock" "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)
  [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && return 0
  say "installing the site's packages at the versions of requirements.lock"
  "$PY" -m pip install -q -c "$ROOT/requirements.lock" -e "$ROOT"
  echo "$sum" >"$stamp"
}

# The site signs in to PostgreSQL as a role of its own: LOGIN, no superuser, no CREATEDB or
# CREATEROLE, the owner of its database and of every table in it, with a generated password
# that only the env file keeps (docs/operations.md, "Credentials"). DATABASE_URL becomes that
# role's URL. A URL that already signs in as a role that is not a superuser is kept as it is.
# Otherwise (the default URL, whose role has no password yet; a superuser's URL, given anew
# or recorded by an earlier release) the role and the database are made or brought to that
# state by the local superuser, over the unix socket as the system user postgres (peer: no
# password anywhere; PGHOST names another socket directory), or else by the superuser of
# the URL itself. With `drop`, and only when nothing runs with it, the well-known password
# 'postgres' that scripts/services.sh used to give the superuser is removed.
site_database() {  # [drop]
  local url
  url=$(RECORDED_DATABASE_URL=$RECORDED_DATABASE_URL DROP_WELL_KNOWN=${1:-} PROD_ENV="$PROD_DIR/env" "$PY" - <<'EOF'
import base64, hashlib, hmac, os, re, secrets, subprocess, sys
from urllib.parse import quote, urlsplit, urlunsplit

import dj_database_url
import psycopg


def fail(message):
    sys.exit(f"prod: {message}")


# Whatever goes wrong is said in one line, never as a traceback.
sys.excepthook = lambda kind, error, _trace: print(
    f"prod: could not give the site its PostgreSQL role: {kind.__name__}: {error}", file=sys.stderr
)

url = os.environ["DATABASE_URL"]
c = dj_database_url.parse(url)
if c["ENGINE"] != "django.db.backends.postgresql":
    print(url)
    sys.exit()
host, port, name = c["HOST"] or "127.0.0.1", int(c["PORT"] or 5432), c["NAME"]


def sign_in(user, password, dbname=name):
    """(whether USER is a superuser, "") once signed in with PASSWORD, or (None, why not)."""
    try:
        with psycopg.connect(host=host, port=port, dbname=dbname, user=user or None,
                             password=password or None, connect_timeout=5) as connection:
            query = "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
            return connection.execute(query).fetchone()[0], ""
    except psycopg.OperationalError as error:
        return None, (str(error).strip().splitlines() or ["refused"])[-1]


superuser, why = sign_in(c["USER"], c["PASSWORD"])
if superuser is False:
    print(url)  # the site's own role already
    sys.exit()
if superuser is None and "does not exist" in why:  # no database yet: is it a superuser?
    superuser = sign_in(c["USER"], c["PASSWORD"], "postgres")[0]
role = c["USER"] if not superuser and c["USER"] not in ("", "postgres") else name
for word in (role, name):
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", word):
        fail(f"the site's role and database are named with a-z, 0-9 and _, not {word!r}")

# The role's password: the one given with it, else the one recorded with it, else a new one.
password = c["PASSWORD"] if c["USER"] == role else ""
recorded = os.environ.get("RECORDED_DATABASE_URL")
if not password and recorded:
    r = dj_database_url.parse(recorded)
    if (r["USER"], r["HOST"] or "127.0.0.1", int(r["PORT"] or 5432), r["NAME"]) == (role, host, port, name):
        password = r["PASSWORD"]
password = password or secrets.token_urlsafe(32)


class Peer:
    """The local superuser: psql over the unix socket as the system user postgres."""

    def __init__(self):
        become = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else ["sudo", "-u", "postgres"]
        self.psql = [*become, "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-p", str(port)]

    def run(self, dbname, statements):
        done = subprocess.run([*self.psql, "-d", dbname], input=statements, capture_output=True,
                              text=True, cwd="/", timeout=120)
        if done.returncode:
            raise RuntimeError(done.stderr.strip() or f"psql exited with {done.returncode}")
        return done.stdout.strip()


class Superuser:
    """The superuser of the URL given."""

    def run(self, dbname, statements):
        with psycopg.connect(host=host, port=port, dbname=dbname, user=c["USER"],
                             password=c["PASSWORD"] or None, autocommit=True) as connection:
            cursor = connection.execute(statements)
            rows = cursor.fetchall() if cursor.description else []
        return "\n".join("|".join("t" if v is True else "f" if v is False else str(v) for v in row) for row in rows)


admin, reasons = None, [why]
if host in ("127.0.0.1", "localhost", "::1"):
    try:
        Peer().run("postgres", "SELECT 1")
        admin = Peer()
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
        reasons.append(f"the local superuser: {(str(error).splitlines() or [repr(error)])[-1]}")
if admin is None and superuser:
    admin = Superuser()
if admin is None:
    fail(f"cannot sign in to PostgreSQL at {host}:{port} as {c['USER'] or 'nobody'} "
         f"({'; '.join(reasons)}): give DATABASE_URL the site's own role, or a superuser's to make it")


def scram(secret):
    """PostgreSQL's SCRAM-SHA-256 verifier: the password itself never reaches the server."""
    if not secret.isascii():
        return secret.replace("'", "''")
    salt, rounds = secrets.token_bytes(16), 4096
    salted = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, rounds)
    client = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    server = hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    b64 = lambda data: base64.b64encode(data).decode()  # noqa: E731
    return f"SCRAM-SHA-256${rounds}:{b64(salt)}${b64(hashlib.sha256(client).digest())}:{b64(server)}"


try:
    existing = admin.run("postgres", f"SELECT rolsuper FROM pg_roles WHERE rolname = '{role}'")
    if existing == "t":
        fail(f"the PostgreSQL role {role} is a superuser: the site needs a role of its own "
             f"(give DATABASE_URL another database name, or make {role} an ordinary role)")
    if not existing:
        admin.run("postgres", f'CREATE ROLE "{role}" LOGIN')
        print(f"prod: made the PostgreSQL role {role} for the site", file=sys.stderr)
    admin.run("postgres", f'ALTER ROLE "{role}" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE '
                          f"NOREPLICATION NOBYPASSRLS PASSWORD '{scram(password)}'")
    if not admin.run("postgres", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        admin.run("postgres", f'CREATE DATABASE "{name}" OWNER "{role}"')
        print(f"prod: created the database {name}", file=sys.stderr)
    # Its tables, views and sequences too: an earlier release made them as the superuser.
    admin.run(name, f"""
        ALTER DATABASE "{name}" OWNER TO "{role}";
        GRANT ALL ON SCHEMA public TO "{role}";
        DO $$
        DECLARE r record;
        BEGIN
          FOR r IN SELECT c.oid::regclass AS relation, c.relkind FROM pg_class c
                   JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                     AND c.relowner <> '{role}'::regrole LOOP
            EXECUTE format('ALTER %s %s OWNER TO %I', CASE r.relkind WHEN 'v' THEN 'VIEW'
              WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
              r.relation, '{role}');
          END LOOP;
          FOR r IN SELECT c.oid::regclass AS relation FROM pg_class c
                   JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = 'public' AND c.relkind = 'S'
                     AND c.relowner <> '{role}'::regrole LOOP  -- a column's went with its table
            EXECUTE format('ALTER SEQUENCE %s OWNER TO %I', r.relation, '{role}');
          END LOOP;
        END $$;""")
    if (os.environ.get("DROP_WELL_KNOWN")
            and admin.run("postgres", "SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = 'postgres'") == "t"
            and sign_in("postgres", "postgres", "postgres")[0]):
        admin.run("postgres", "ALTER ROLE postgres PASSWORD NULL")
        print("prod: removed the well-known password of PostgreSQL's superuser postgres, which "
              "scripts/services.sh used to give it: the site has a role of its own now "
              "(docs/operations.md, \"Upgrade\")", file=sys.stderr)
except (OSError, RuntimeError, psycopg.Error) as error:
    fail(f"could not make the site's PostgreSQL role {role}: {str(error).strip()}")

if sign_in(role, password)[0] is not False:
    fail(f"the site's PostgreSQL role {role} cannot sign in at {host}:{port}: {sign_in(role, password)[1]}")
parts = urlsplit(url)
where = parts.netloc.rpartition("@")[2] or f"{host}:{port}"
print(urlunsplit((parts.scheme, f"{quote(role, safe='')}:{quote(password, safe='')}@{where}",
                  parts.path or f"/{name}", parts.query, "")))
EOF
  ) || exit 1
  export DATABASE_URL=$url
}

write_env() {  # what the processes run with, for tools that want the same database
  # Only its owner may read it (the database password is in it): the file is made under
  # the umask, inside the subshell, and moved into place whole.
  (
    umask 077
    {
      echo "# Written by scripts/prod.sh: source it to use the production database and Redis."
      echo "# The next start reads the settings back; the environment still wins."
      for name in DJANGO_SETTINGS_MODULE DEBUG STATIC_ROOT SECRET_KEY_FILE \
        SECRET_KEY_FALLBACKS_FILE "${RECORDED[@]}"; do
        [ -n "${!name:-}" ] || continue
        printf 'export %s=%q\n' "$name" "${!name}"
      done
    } >"$PROD_DIR/env.new"
    chmod 600 "$PROD_DIR/env.new"
    mv -f "$PROD_DIR/env.new" "$PROD_DIR/env"
  )
}

# The logs quote what requests asked for, so only root (or the user running the site) reads
# them: the directory 0750, its files 0640, those of earlier releases (0755, 0644) included.
# The supervisor runs under umask 027 (serve), so what nginx makes anew after a rotation
# is 0640 too.
log_files() {
  (umask 027 && mkdir -p "$LOG")
  chmod 750 "$LOG"
  (umask 027 && : >>"$LOG/prod.log" && : >>"$LOG/nginx-error.log")
  find "$LOG" -maxdepth 1 -type f -name '*.log*' -exec chmod 640 {} +
}

redis_dir() {  # the site's own Redis's working directory (it keeps nothing on disk)
  (umask 077 && mkdir -p "$PROD_DIR/redis")
  chmod 700 "$PROD_DIR/redis"
  ! dropping || chown "$DAPHNE_USER:" "$PROD_DIR/redis"
}

old_env() {  # an env file an earlier release wrote: no credentials of the site's own yet
  { [ -z "$DATABASE_URL_GIVEN" ] && [[ "$DATABASE_URL" == postgres*://postgres:postgres@* ]]; } ||
    { [ -n "$OWN_REDIS" ] && [ -z "${REDIS_PASSWORD:-}" ]; }
}

credentials_or_die() {
  ! old_env || die "$PROD_DIR/env was written by an earlier release: this one gives the site a PostgreSQL role and a Redis of its own, which its processes take at a start. Once: scripts/prod.sh stop, then scripts/prod.sh start (under systemd: systemctl stop oldmaid, scripts/prod.sh prepare, systemctl start oldmaid); docs/operations.md, \"Upgrade\""
}

database_credentials() {  # for a command on the database: the site's own role (site_database)
  # An earlier release's env file stays as it is until the next start (credentials_or_die).
  old_env || site_database
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
    # max_fails=0: nginx never benches a process. A process restarting refuses the
    # connection at once (its port is closed), and nginx passes the request or socket to
    # the next one, at the cost of one refused local connect. Benching (max_fails=1) once
    # left no process at all for a few seconds of a rolling upgrade: the one restarted
    # still benched in a worker when the other was stopped ("no live upstreams", a 502).
    upstreams+="    server 127.0.0.1:$((DAPHNE_FIRST_PORT + i)) max_fails=0;"$'\n'
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
    # private room page's carry the room's token), mask /join/<token>/ and /replay/<id>/
    # (the only key to an unlisted room's round), and leave the Referer out (a page's
    # address carries the token too). Then the whole time, and the Daphne processes tried
    # with what each answered and how long each took (a process restarting shows as one
    # refused, "502", before the one that answered). Django's own lines mask the same
    # (config/log_masking.py).
    map \$uri \$logged_uri { "~^/join/" "/join/-/"; "~^/replay/" "/replay/-/"; default \$uri; }
    log_format tokenless '\$remote_addr [\$time_local] "\$request_method \$logged_uri \$server_protocol" '
                         '\$status \$body_bytes_sent "\$http_user_agent" \$request_time '
                         'upstream=\$upstream_addr upstream_status=\$upstream_status '
                         'upstream_time=\$upstream_response_time';
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
        # A certificate authority's HTTP-01 check (certbot --webroot -w $ACME_ROOT), then
        # scripts/prod.sh reload; everything else goes to HTTPS.
        location /.well-known/acme-challenge/ {
            root $ACME_ROOT;
            default_type text/plain;
        }
        location / {
            return 301 https://\$host$redirect_port\$request_uri;
        }
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

        # The table's sockets, by their room. nginx's error lines quote the request, and a
        # private room's socket carries its token in the query: errors here (a process
        # that refused, restarting) show in the access line's upstream_status instead.
        location /ws/rooms/ {
            error_log $error crit;
$SOCKET_LIMITS
            proxy_pass http://daphne_rooms;
$PROXY_SETTINGS
        }

        # Pages. Errors as for the sockets (a private room's page carries its token too).
        # HTML is compressed: Django masks the CSRF token anew in every response, which
        # defeats BREACH's guessing of it.
        location / {
            error_log $error crit;
$REQUEST_LIMIT
            gzip on;
            gzip_proxied any;
            gzip_vary on;
            gzip_min_length 1024;
            gzip_types application/json application/x-ndjson;  # and text/html, always
            proxy_pass http://daphne;
$PROXY_SETTINGS
        }
    }
}
EOF
}

# -- serving: the supervisor -------------------------------------------------------------------

# Slot 0 is nginx, slots 1 to WEB_PROCESSES the Daphne processes: their pids, when each
# started (bash's SECONDS) and how often in a row each died young.
PIDS=()
STARTED=()
FAILURES=()
# The site's own Redis (OWN_REDIS) is supervised beside them, under this index of STARTED
# and FAILURES; its pid is REDIS_PID (and RUN/redis.pid), not in PIDS.
REDIS_SLOT=1000
REDIS_PID=""

record_children() { echo "${PIDS[*]}" >"$RUN/children"; }

daphne_command() {  # PORT: DAPHNE_COMMAND, one Daphne process's command line
  # --proxy-headers: the client's address and scheme from nginx's X-Forwarded-* headers.
  # nginx writes the access log (none for telemetry), so Daphne keeps none: without
  # --access-log it would print one, addresses included, at its default verbosity.
  # A dropping root's run the copy in APP (daphne_app), from its code's directory.
  drop_to_daphne_user
  local python=$PY
  if dropping; then
    python=$(app_python)
    DROP+=(env -C "$(app_code)")
  fi
  DAPHNE_COMMAND=("${DROP[@]}" "$python" -m daphne -b 127.0.0.1 -p "$1" --proxy-headers
    --access-log /dev/null config.asgi:application)
}

start_daphne() {  # SLOT MODE
  local slot=$1 mode=$2
  daphne_command $((DAPHNE_FIRST_PORT + slot - 1))
  if [ "$mode" = foreground ]; then
    "${DAPHNE_COMMAND[@]}" &
  else
    "${DAPHNE_COMMAND[@]}" >>"$LOG/daphne-$slot.log" 2>&1 &
  fi
  PIDS[slot]=$!
  STARTED[slot]=$SECONDS
  echo "$!" >"$RUN/daphne-$slot.pid"
  record_children
}

redis_conf() {  # the site's own Redis's configuration, which it reads on its standard input:
  # its password in no file and on no command line
  printf '%s\n' "bind 127.0.0.1" "port $REDIS_PORT" "protected-mode yes" \
    "requirepass $REDIS_PASSWORD" 'save ""' "appendonly no" "dir \"$PROD_DIR/redis\"" \
    'logfile ""' "daemonize no"
}

start_redis() {  # MODE: as DAPHNE_USER, as the Daphne processes run
  local redis
  redis=$(command -v redis-server || echo /usr/bin/redis-server)
  drop_to_daphne_user
  if [ "$1" = foreground ]; then
    "${DROP[@]}" "$redis" - < <(redis_conf) &
  else
    "${DROP[@]}" "$redis" - < <(redis_conf) >>"$LOG/redis.log" 2>&1 &
  fi
  REDIS_PID=$!
  STARTED[REDIS_SLOT]=$SECONDS
  echo "$REDIS_PID" >"$RUN/redis.pid"
}

start_nginx() {
  "$(nginx_bin)" -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf" -e "$LOG/nginx-error.log" \
    -g "daemon off;" &
  PIDS[0]=$!
  STARTED[0]=$SECONDS
  record_children
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

children_alive() {
  local pid
  for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done
}

stop_children() {
  trap - INT TERM
  local pid alive
  # nginx first, so that no new request reaches a stopping Daphne; then every Daphne, each
  # finishing its work under way (config/daphne_shutdown.py: at most EXIT_SECONDS, 15).
  [ -z "${PIDS[0]:-}" ] || kill -TERM "${PIDS[0]}" 2>/dev/null || true
  for pid in "${PIDS[@]:1}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 200); do
    alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ -n "$REDIS_PID" ]; then  # last: the Daphne processes used it until they exited
    kill -TERM "$REDIS_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$REDIS_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$REDIS_PID" 2>/dev/null || true
  fi
  rm -f "$RUN/prod.pid" "$RUN/children" "$RUN"/daphne-*.pid "$RUN/mode" "$RUN/redis.pid"
}

serve() {  # foreground | background (output already redirected by `start`)
  local mode=$1 slot
  umask 027  # the logs this makes, and nginx after a rotation, are 0640 (log_files)
  echo $$ >"$RUN/prod.pid"
  echo "$mode" >"$RUN/mode"
  trap 'say "stopping"; stop_children; exit 0' INT TERM
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true  # many sockets per process
  if [ -n "$OWN_REDIS" ]; then  # before the Daphne processes, which use it from their start
    start_redis "$mode"
    for _ in $(seq 1 100); do
      listening "$REDIS_PORT" || { kill -0 "$REDIS_PID" 2>/dev/null && sleep 0.1 && continue; }
      break
    done
  fi
  for slot in $(seq 1 "$WEB_PROCESSES"); do start_daphne "$slot" "$mode"; done
  # nginx once every Daphne listens, so that its first requests find them.
  for slot in $(seq 1 "$WEB_PROCESSES"); do
    until listening $((DAPHNE_FIRST_PORT + slot - 1)); do
      children_alive || break 2
      sleep 0.2
    done
  done
  start_nginx
  say "$WEB_PROCESSES Daphne processes on 127.0.0.1:$DAPHNE_FIRST_PORT.. behind nginx"
  for _ in $(seq 1 150); do  # the first healthy answer, up to 30 s
    if probe >/dev/null 2>&1; then
      say "serving $URL"
      break
    fi
    sleep 0.2
  done
  supervise "$mode"
}

# Until a signal: a process that exits is started again on its own, while the others
# (and nginx, which passes its requests and sockets to them) go on serving. One that
# fails within 10 s of its start, again and again, waits 1, 2, 4 ... up to 32 s first, so
# that a broken release does not spin. A clean exit (`upgrade`, `restart`) waits for
# nothing.
supervise() {
  local mode=$1 gone status slot name delay s
  while true; do
    gone=""
    status=0
    wait -n -p gone || status=$?
    [ -n "$gone" ] || continue  # a signal: its trap has run
    slot=""
    for s in "${!PIDS[@]}"; do [ "${PIDS[s]}" = "$gone" ] && slot=$s; done
    [ "$gone" != "$REDIS_PID" ] || slot=$REDIS_SLOT
    [ -n "$slot" ] || continue
    if [ "$status" != 0 ] && ((SECONDS - STARTED[slot] < 10)); then
      FAILURES[slot]=$((${FAILURES[slot]:-0} + 1))
    else
      FAILURES[slot]=0
    fi
    delay=0
    ((FAILURES[slot] == 0)) || delay=$((1 << (FAILURES[slot] < 6 ? FAILURES[slot] - 1 : 5)))
    if [ "$slot" = 0 ]; then name=nginx; elif [ "$slot" = "$REDIS_SLOT" ]; then name=redis; else name="daphne-$slot"; fi
    say "$name (pid $gone) exited with status $status; starting it again$( ((delay == 0)) || echo " in $delay s")"
    if ((delay > 0)); then
      sleep "$delay" &
      wait $! || true  # a signal ends the wait, and its trap stops everything
    fi
    if [ "$slot" = 0 ]; then
      start_nginx
    elif [ "$slot" = "$REDIS_SLOT" ]; then
      start_redis "$mode"
    else
      start_daphne "$slot" "$mode"
    fi
  done
}

run() {
  [ -z "$(supervisor_pid)" ] || die "already running (scripts/prod.sh stop first)"
  prepare
  write_nginx_conf foreground
  say "Ctrl-C stops everything"
  serve foreground
}

serve_prepared() {  # `serve`: what a service manager runs, each time it (re)starts the site
  [ -z "$(supervisor_pid)" ] || die "already running (scripts/prod.sh stop first)"
  [ -s "$STATIC_ROOT/staticfiles.json" ] && [ -r "$PROD_DIR/env" ] && { ! dropping || [ -L "$APP/venv" ]; } ||
    die "nothing prepared in $PROD_DIR: run scripts/prod.sh prepare (or upgrade) first"
  credentials_or_die
  [ -z "$DATABASE_URL_GIVEN" ] || site_database
  mkdir -p "$RUN"
  configure_nginx foreground
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
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # Left behind only if the supervisor itself was killed.
  for pid in $(cat "$RUN/children" "$RUN/redis.pid" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "$RUN/prod.pid" "$RUN/children" "$RUN"/daphne-*.pid "$RUN/mode" "$RUN/redis.pid"
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
  for pid in $(cat "$RUN/children" "$RUN/redis.pid" 2>/dev/null); do
    echo "  $pid $(ps -o args= -p "$pid" 2>/dev/null || echo '(gone)')"
  done
  echo "$(cat "$PROD_DIR/url")/healthz:"
  probe || return 1
}

# -- changing a running site: upgrade, restart, reload ----------------------------------------

running_or_die() { [ -n "$(supervisor_pid)" ] || die "not running (scripts/prod.sh start first)"; }

# /healthz from one Daphne process directly, as nginx would ask it.
daphne_healthy() {
  "$PY" - "http://127.0.0.1:$1/healthz" "$SITE_HOST" >/dev/null 2>&1 <<'EOF'
import sys, urllib.request
headers = {"Host": sys.argv[2], "X-Forwarded-Proto": "https"}
request = urllib.request.Request(sys.argv[1], headers=headers)
sys.exit(0 if b'"status": "ok"' in urllib.request.urlopen(request, timeout=5).read() else 1)
EOF
}

roll() {  # the Daphne processes one at a time, each serving again before the next stops
  local slot old new port began count
  count=$(find "$RUN" -name 'daphne-*.pid' | wc -l)
  ((count >= 1)) || die "no Daphne process to restart"
  ((count >= 2)) || say "one Daphne process: requests are refused while it restarts (WEB_PROCESSES=2 or more avoids it)"
  for slot in $(seq 1 "$count"); do
    old=$(cat "$RUN/daphne-$slot.pid")
    port=$((DAPHNE_FIRST_PORT + slot - 1))
    began=$SECONDS
    kill -TERM "$old" 2>/dev/null || true
    # The supervisor starts it again once it has exited (at most EXIT_SECONDS).
    for _ in $(seq 1 450); do  # 90 s
      new=$(cat "$RUN/daphne-$slot.pid" 2>/dev/null || true)
      [ -n "$new" ] && [ "$new" != "$old" ] && daphne_healthy "$port" && break
      sleep 0.2
    done
    [ -n "$new" ] && [ "$new" != "$old" ] && daphne_healthy "$port" ||
      die "daphne-$slot did not come back within 90 s: see $LOG/daphne-$slot.log"
    say "daphne-$slot restarted (pid $old -> $new) in $((SECONDS - began)) s"
  done
}

configure_nginx() {  # MODE: nginx.conf written and checked
  log_files
  tls_paths
  nginx_user
  write_nginx_conf "$1"
  "$(nginx_bin)" -t -q -p "$PROD_DIR/nginx" -c "$PROD_DIR/nginx/nginx.conf" -e "$LOG/nginx-error.log" ||
    die "nginx refuses $PROD_DIR/nginx/nginx.conf"
}

reload() {  # nginx reads its configuration (and a renewed certificate) again; no socket drops
  running_or_die
  configure_nginx "$(cat "$RUN/mode")"
  kill -HUP "$(cat "$RUN/nginx.pid")"
  say "nginx reloaded"
}

upgrade() {
  running_or_die
  credentials_or_die
  [ -z "$OWN_REDIS" ] || [ -s "$RUN/redis.pid" ] ||
    die "the site now has a Redis of its own, which the running server did not start: scripts/prod.sh stop, then scripts/prod.sh start"
  install_locked
  daphne_user  # a dropping root's copy of the new code (and packages), put in use below
  site_database
  # Migrations run while the old code still serves: they must only add (docs/operations.md,
  # "Writing migrations for a rolling upgrade").
  "$PY" manage.py migrate --noinput -v 0
  "$PY" manage.py collectstatic --noinput -v 0
  "$PY" manage.py check --deploy
  use_app
  write_env
  reload
  roll
  prune_app
  say "upgraded"
}

# -- housekeeping: manage.py, backups, keys ---------------------------------------------------

prepared_or_die() {
  [ -r "$PROD_DIR/env" ] || die "nothing prepared in $PROD_DIR: run scripts/prod.sh prepare first"
}

postgres_or_die() {
  case "$DATABASE_URL" in
    postgres://* | postgresql://*) ;;
    *) die "backups here are of PostgreSQL; DATABASE_URL is not" ;;
  esac
}

# pg_dump and pg_restore are given DATABASE_URL without its password (DBNAME), and the
# password in a libpq password file of their own (PGPASSFILE, 0600, deleted after): a
# command line is anyone's to read (ps, /proc/PID/cmdline), a passfile root's alone.
database_passfile() {  # PASSFILE, DBNAME
  local lines
  mapfile -t lines < <("$PY" - <<'EOF'
import os
from urllib.parse import unquote, urlsplit, urlunsplit
parts = urlsplit(os.environ["DATABASE_URL"])
userinfo, _, where = parts.netloc.rpartition("@")
user, _, password = userinfo.partition(":")
print(urlunsplit((parts.scheme, f"{user}@{where}" if user else where, parts.path, parts.query, "")))
def field(text):
    return unquote(text).replace("\\", "\\\\").replace(":", "\\:")
print(f"*:*:*:{field(user) or '*'}:{field(password)}")
EOF
  )
  [ ${#lines[@]} = 2 ] || die "could not read DATABASE_URL"
  DBNAME=${lines[0]}
  PASSFILE=$(mktemp "$RUN/.pgpass.XXXXXX")
  printf '%s\n' "${lines[1]}" >"$PASSFILE"
}

backup() {  # a custom-format dump only its owner may read; the newest BACKUP_KEEP are kept
  prepared_or_die
  postgres_or_die
  database_credentials
  local dir="$PROD_DIR/backups" file keep=${BACKUP_KEEP:-14}
  [[ "$keep" =~ ^[1-9][0-9]*$ ]] || die "BACKUP_KEEP must be a number, not $keep"
  (umask 077 && mkdir -p "$dir")
  chmod 700 "$dir"
  file="$dir/oldmaid-$(date -u +%Y%m%dT%H%M%S%3NZ).dump"
  database_passfile
  if ! (umask 077 && PGPASSFILE=$PASSFILE pg_dump --format=custom --file="$file.partial" --dbname="$DBNAME"); then
    rm -f "$file.partial" "$PASSFILE"
    die "pg_dump failed"
  fi
  rm -f "$PASSFILE"
  mv -f "$file.partial" "$file"
  find "$dir" -maxdepth 1 -name 'oldmaid-*.dump' | sort -r | tail -n +$((keep + 1)) | xargs -r rm -f
  say "backed up to $file ($(du -h "$file" | cut -f1))"
}

restore() {  # FILE: the database as the dump has it
  local file=${1:-}
  [ -n "$file" ] && [ -r "$file" ] || die "usage: scripts/prod.sh restore FILE (a dump of scripts/prod.sh backup)"
  prepared_or_die
  postgres_or_die
  [ -z "$(supervisor_pid)" ] ||
    die "stop the site first (scripts/prod.sh stop): a restore under live games rolls rooms back behind their open sockets"
  database_credentials
  database_passfile
  if ! PGPASSFILE=$PASSFILE pg_restore --clean --if-exists --no-owner --single-transaction \
    --exit-on-error --dbname="$DBNAME" "$file"; then
    rm -f "$PASSFILE"
    die "pg_restore failed; the database is as it was"
  fi
  rm -f "$PASSFILE"
  say "restored $file: start the site, and every page reconnects to the restored rooms"
}

secret_file() {  # FILE < content: written whole, only its owner may read it (0600); when
  # root's Daphne processes drop to DAPHNE_USER, root's and readable by that user's group
  # (0640), never theirs to write (daphne_user)
  (umask 077 && cat >"$1.new" && chmod 600 "$1.new")
  if [ "$(id -u)" = 0 ] && dropping && id -u "$DAPHNE_USER" >/dev/null 2>&1; then
    chown "root:$(id -gn "$DAPHNE_USER")" "$1.new" && chmod 640 "$1.new"
  fi
  mv -f "$1.new" "$1"
}

new_key() { "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))'; }

# Two rolling restarts, so that no process ever meets a key it does not know: first every
# process accepts the new key, then every process signs with it and still accepts the old.
rotate_key() {
  [ -z "${SECRET_KEY:-}" ] || die "SECRET_KEY is given in the environment: rotate it there (docs/operations.md)"
  prepared_or_die
  local old new running
  old=$(cat "$SECRET_KEY_FILE")
  new=$(new_key)
  running=$(supervisor_pid)
  # printf and grep -e: a key may begin with "-".
  { printf '%s\n' "$new"; cat "$SECRET_KEY_FALLBACKS_FILE" 2>/dev/null || true; } |
    secret_file "$SECRET_KEY_FALLBACKS_FILE"
  [ -z "$running" ] || roll
  { printf '%s\n' "$old"; grep -vxF -e "$new" "$SECRET_KEY_FALLBACKS_FILE" || true; } |
    secret_file "$SECRET_KEY_FALLBACKS_FILE"
  printf '%s\n' "$new" | secret_file "$SECRET_KEY_FILE"
  [ -z "$running" ] || roll
  say "a new secret key signs; the old ones are still accepted until scripts/prod.sh retire-keys"
}

retire_keys() {
  prepared_or_die
  : | secret_file "$SECRET_KEY_FALLBACKS_FILE"
  [ -z "$(supervisor_pid)" ] || roll
  say "only the current secret key is accepted now"
}

# -- printed for the operator -------------------------------------------------------------------

config() {  # what `start` would write or run, or lines to install; nothing is started
  local script
  script=$(printf '%q' "$ROOT/scripts/prod.sh")
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
    cron)
      local prefix=""
      [ "$PROD_DIR" = "$ROOT/var/prod" ] || prefix="PROD_DIR=$(printf '%q' "$PROD_DIR") "
      cat <<EOF
# /etc/cron.d/oldmaid, from scripts/prod.sh config cron (docs/operations.md, "Scheduled
# maintenance"). Each line reads $PROD_DIR/env, so it acts on the production database.
SHELL=/bin/bash
17 3 * * * $(id -un) ${prefix}$script manage purge_telemetry
27 3 * * * $(id -un) ${prefix}$script manage clearsessions
37 3 * * * $(id -un) ${prefix}$script backup
EOF
      ;;
    logrotate)
      cat <<EOF
# /etc/logrotate.d/oldmaid, from scripts/prod.sh config logrotate: daily, 14 kept,
# compressed. nginx reopens its logs; the Daphne logs are copied and truncated in place.
$LOG/nginx-access.log $LOG/nginx-error.log {
    daily
    rotate 14
    missingok
    notifempty
    compress
    delaycompress
    sharedscripts
    postrotate
        [ ! -s $RUN/nginx.pid ] || kill -USR1 "\$(cat $RUN/nginx.pid)"
    endscript
}
$LOG/daphne-*.log $LOG/prod.log {
    daily
    rotate 14
    missingok
    notifempty
    compress
    delaycompress
    copytruncate
}
EOF
      ;;
    systemd)
      cat <<EOF
# /etc/systemd/system/oldmaid.service, from scripts/prod.sh config systemd. Run
# scripts/prod.sh prepare once first, and upgrade for each release: the service only serves.
# It starts as root; nginx's workers drop to NGINX_USER, and each Daphne process to
# DAPHNE_USER, running the copy of the site prepare made in PROD_DIR/app.
[Unit]
Description=Old Maid (nginx and Daphne)
After=network-online.target postgresql.service redis-server.service
Wants=network-online.target

[Service]
ExecStart=$script serve
ExecReload=$script reload
Environment=PROD_DIR=$(printf '%q' "$PROD_DIR")
KillMode=mixed
TimeoutStopSec=30
Restart=always
RestartSec=2

[Install]
WantedBy=multi-user.target
EOF
      ;;
    *) die "usage: scripts/prod.sh config [nginx|daphne|cron|logrotate|systemd]" ;;
  esac
}

command=${1:-run}
[ $# = 0 ] || shift
case "$command" in
  run) run ;;
  start) start ;;
  prepare) prepare && say "prepared $PROD_DIR" ;;
  serve) serve_prepared ;;
  stop) stop ;;
  status) status ;;
  upgrade) upgrade ;;
  restart) running_or_die && roll ;;
  reload) reload ;;
  manage) prepared_or_die && database_credentials && exec "$PY" manage.py "$@" ;;
  backup) backup ;;
  restore) restore "$@" ;;
  rotate-key) rotate_key ;;
  retire-keys) retire_keys ;;
  _serve) serve background ;;
  config) config "${1:-nginx}" ;;
  *) die "usage: scripts/prod.sh [run|start|prepare|serve|stop|status|upgrade|restart|reload|manage|backup|restore|rotate-key|retire-keys|config]" ;;
esac
