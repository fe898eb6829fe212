"""One settings module, read from the environment.

With nothing set, the site runs for a newcomer: SQLite, the in-memory channel layer,
DEBUG on, a throwaway secret key. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL and REDIS_URL.
"""

import os
import re
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"
# SECRET_KEY_FILE (what scripts/prod.sh sets) keeps the key out of the environment.
_SECRET_KEY_FILE = os.environ.get("SECRET_KEY_FILE")
SECRET_KEY = (
    os.environ.get("SECRET_KEY")
    or (Path(_SECRET_KEY_FILE).read_text().strip() if _SECRET_KEY_FILE else "")
    or _DEV_SECRET_KEY
)
# Keys no longer used to sign but still accepted (sessions, guests' seats, signed links),
# while a new SECRET_KEY takes over: SECRET_KEY_FALLBACKS (comma-separated) and the lines
# of SECRET_KEY_FALLBACKS_FILE (scripts/prod.sh rotate-key; docs/operations.md, "Rotating
# the secret key").
_FALLBACKS_FILE = os.environ.get("SECRET_KEY_FALLBACKS_FILE")
_FALLBACKS = os.environ.get("SECRET_KEY_FALLBACKS", "").split(",")
if _FALLBACKS_FILE and Path(_FALLBACKS_FILE).exists():
    _FALLBACKS += Path(_FALLBACKS_FILE).read_text().splitlines()
SECRET_KEY_FALLBACKS = [
    key for key in (raw.strip() for raw in _FALLBACKS) if key and key != SECRET_KEY
]
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY in the environment when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # first, so that runserver serves ASGI (HTTP and WebSockets)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",  # failed log-ins, on every log-in form (see "accounts" below)
    "games",
    "lobby",
    "telemetry",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",  # the Content-Security-Policy
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A page that cannot reach the database answers 503 with a page that needs none.
    "config.outage_pages.DatabaseOutageMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into our own page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

# SQLite by default; PostgreSQL (psycopg 3) when DATABASE_URL is set.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # 0, as Django advises under ASGI: each request runs in a thread of its own, so a
        # kept connection would outlive its thread. Health checks only matter above 0.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite (development) as correct under concurrency as PostgreSQL. Each change runs in
    # a transaction that reads the room and then writes; in SQLite's default DEFERRED mode
    # two of them at once deadlock on the upgrade to a write lock, and one fails at once
    # with "database is locked" (no waiting). IMMEDIATE takes the write lock at BEGIN, so
    # writers queue for up to `timeout` seconds instead, like PostgreSQL's row lock. WAL
    # lets reads (snapshots, pages) go on beside a writer; synchronous=NORMAL is safe with
    # WAL (a power cut may lose the last commits, never corrupt the file).
    # tests/system/test_sqlite.py: many friends rooms opened and started at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests on a file too: Django's default in-memory test database shares one cache
    # between connections, where a lock held elsewhere fails at once ("database table is
    # locked") instead of waiting, so concurrent tests would see what no real run does.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(Path(tempfile.gettempdir()) / f"oldmaid-tests-{os.getpid()}.sqlite3")
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database host that does not answer fails a request in seconds, not minutes.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
    # Server-side binding: parameters travel apart from the statement, so psycopg can
    # prepare a statement the fifth time a connection runs it, and PostgreSQL stops
    # parsing and planning the few statements every draw repeats (docs/performance.md).
    if env_bool("DB_PREPARED", True):
        prepared = {"server_side_binding": True, "prepare_threshold": 2}
        DATABASES["default"]["OPTIONS"].update(prepared)
    if env_bool("DB_POOL", False) and not DATABASES["default"]["CONN_MAX_AGE"]:
        # A pool of open connections per process (psycopg_pool): without it every table
        # action opens a new connection, since Channels closes it after each query.
        # timeout: how long a request waits for a connection when none can be had (the
        # database is down, or every connection is busy): the same 5 s as connect_timeout,
        # not psycopg_pool's 30.
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 2,
            "max_size": int(os.environ.get("DB_POOL_SIZE", "10")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "5")),
        }
# The connections each event loop keeps for the draws it sends itself, from a room the
# process kept (games.services.sql.execute_on_loop): at most this many statements at once.
DB_LOOP_CONNECTIONS = int(os.environ.get("DB_LOOP_CONNECTIONS", "4"))

# One process: the in-memory layer. Several processes: Redis, by default through its
# publish/subscribe layer: one PUBLISH per group message and one delivery per process,
# where the core layer queues a copy for every socket (about twice the messages per
# second on this machine, docs/performance.md). CHANNEL_LAYER=core keeps the core layer.
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in ("pubsub", "core"):
    raise ImproperlyConfigured(f"CHANNEL_LAYER must be pubsub or core, not {CHANNEL_LAYER!r}")
REDIS_URL = os.environ.get("REDIS_URL", "")
# Sites sharing one Redis (a staging and a production site): each gives its own prefix.
# Publish/subscribe ignores the database number in REDIS_URL, so without it each site
# would deliver the other's room.N broadcasts; the cache's keys take it too.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "")
if REDIS_PREFIX and not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", REDIS_PREFIX):
    raise ImproperlyConfigured("REDIS_PREFIX: 1 to 40 letters, digits, '_', '.' or '-'")
CHANNEL_PREFIX = REDIS_PREFIX or "asgi"  # channels_redis's own default
if REDIS_URL and CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Decoded once per process, not once per socket (games/realtime/layers.py).
            "CONFIG": {
                "hosts": [REDIS_URL],
                "serializer_format": "msgpack-shared",
                "prefix": CHANNEL_PREFIX,
            },
        }
    }
elif REDIS_URL:
    # The core layer: a process's sockets share one queue, so its capacity (messages
    # waiting, beyond which new ones are dropped) must cover them all.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1000, "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("ja", "日本語"),
    ("ko", "한국어"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
if not DEBUG:
    # Hashed file names (collectstatic), which nginx serves with a one-year cache.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Production hardening: on whenever DEBUG is off.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # Load balancers ask each process directly over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Everything to stdout, one line per record; scripts/prod.sh sends it to a file per process.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"}
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "line",
            # Invitation tokens, replay ids and t= tokens masked before any line is written.
            "filters": ["mask_secrets"],
        }
    },
    "filters": {
        "layer_outage": {"()": "games.realtime.outages.LayerOutageFilter"},
        "mask_secrets": {"()": "config.log_masking.MaskSecrets"},
    },
    "loggers": {
        # Django's defaults (django.utils.log.DEFAULT_LOGGING) give these two handlers of
        # their own, without the mask: their records go through the console above instead.
        "django": {"handlers": []},
        "django.server": {"handlers": ["console"], "propagate": False},
        "channels_redis.pubsub": {"filters": ["layer_outage"]},
        "asyncio": {"filters": ["layer_outage"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# -- the game's timings (seconds) --------------------------------------------------------
# Pause before a computer seat draws, so that people can follow it: the normal speed; a
# room set slow or fast scales it (games.schedule.COMPUTER_SPEEDS), so 0 stays 0.
COMPUTER_DELAY_SECONDS = float(os.environ.get("COMPUTER_DELAY_SECONDS", "0.9"))
# How long a human seat's connection may stay down before the computer covers it (a
# seat never connected: counted from the match's start, games/services/attendance.py).
SEAT_GRACE_SECONDS = float(os.environ.get("SEAT_GRACE_SECONDS", "20"))
# Where no person plays a seat (bots and the computer), the server deals the next round
# this long after a round ends, unless a player dealt it first.
ROUND_PAUSE_SECONDS = float(os.environ.get("ROUND_PAUSE_SECONDS", "3"))
# A socket refreshes its presence this often; one silent for the timeout counts as gone.
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "10"))
PRESENCE_TIMEOUT_SECONDS = float(os.environ.get("PRESENCE_TIMEOUT_SECONDS", "30"))
# A room's spectator count is sent at most this often (arrivals in between ride along).
SPECTATOR_COUNT_SECONDS = float(os.environ.get("SPECTATOR_COUNT_SECONDS", "1"))
# A broadcast the channel layer has not taken within this long is dropped (and logged):
# sockets catch up at their next heartbeat, and later broadcasts do not wait behind it.
BROADCAST_TIMEOUT_SECONDS = float(os.environ.get("BROADCAST_TIMEOUT_SECONDS", "2"))
# How often the sweep (one process at a time) looks for rooms whose computer turns,
# takeovers or abandonment are due.
# Told to stop, a Daphne process lets the work under way finish for at most this long,
# and exits after EXIT_SECONDS whatever happens (config/daphne_shutdown.py).
SHUTDOWN_SECONDS = float(os.environ.get("SHUTDOWN_SECONDS", "5"))
EXIT_SECONDS = float(os.environ.get("EXIT_SECONDS", "15"))
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "5"))
# Expired sessions are deleted this often (by the sweep of one process).
SESSION_CLEAR_SECONDS = float(os.environ.get("SESSION_CLEAR_SECONDS", "3600"))
# A playing room with no human connected for this long ends as abandoned (6 hours).
ABANDON_AFTER_SECONDS = float(os.environ.get("ABANDON_AFTER_SECONDS", str(6 * 3600)))
# The largest WebSocket message the table accepts.
WS_MAX_MESSAGE_BYTES = 2048

# -- limits: what one client may cost a process (games/realtime/limits.py, docs/operations.md) -----
# A socket that sends more than this many refused frames (malformed, too large, unknown,
# over the rate limit) within WS_INVALID_WINDOW_SECONDS is closed with 4429.
WS_INVALID_FRAME_LIMIT = int(os.environ.get("WS_INVALID_FRAME_LIMIT", "30"))
WS_INVALID_WINDOW_SECONDS = float(os.environ.get("WS_INVALID_WINDOW_SECONDS", "10"))
# For this long after, the closed socket's address opens no new socket (handshake refused).
WS_FLOOD_COOLDOWN_SECONDS = float(os.environ.get("WS_FLOOD_COOLDOWN_SECONDS", "10"))
# Frames a table socket may send per second; the lobby socket only listens, so fewer.
WS_TABLE_FRAMES_PER_SECOND = 20
# A table socket's "point" frames (the drawer's hover) per second, and each seat's
# reactions per REACTION_WINDOW_SECONDS: past them, refused as slow_down (never counted
# towards the 4429 close). A page throttles its points to this.
WS_POINTS_PER_SECOND = int(os.environ.get("WS_POINTS_PER_SECOND", "10"))
REACTIONS_PER_WINDOW = int(os.environ.get("REACTIONS_PER_WINDOW", "5"))
REACTION_WINDOW_SECONDS = float(os.environ.get("REACTION_WINDOW_SECONDS", "10"))
# Each seat's points, however many sockets and server processes it points from: at most
# SEAT_POINTS_PER_WINDOW in any SEAT_POINT_WINDOW_SECONDS, counted across processes
# (games/realtime/windows.py); past them, slow_down as well.
SEAT_POINTS_PER_WINDOW = int(os.environ.get("SEAT_POINTS_PER_WINDOW", "10"))
SEAT_POINT_WINDOW_SECONDS = float(os.environ.get("SEAT_POINT_WINDOW_SECONDS", "1"))
# Frames a socket may send in one second before Daphne cuts it off (4429) where it reads
# them, before any queue (config/daphne_guard.py): far above any honest page.
WS_FRAMES_PER_SECOND_HARD = int(os.environ.get("WS_FRAMES_PER_SECOND_HARD", "200"))
WS_LOBBY_FRAMES_PER_SECOND = int(os.environ.get("WS_LOBBY_FRAMES_PER_SECOND", "5"))
# Open sockets of each kind (table, lobby) per client address in one process; more are
# closed with 4429 at once. A family of 8 behind one address, 5 tabs each, opens 40.
WS_SOCKETS_PER_CLIENT = int(os.environ.get("WS_SOCKETS_PER_CLIENT", "64"))
# A heartbeat that finds a room ahead of what a socket was sent waits this long for the
# broadcast still on its way before it sends the socket a snapshot from the database.
BROADCAST_GRACE_SECONDS = float(os.environ.get("BROADCAST_GRACE_SECONDS", "1.0"))
# The cyclic garbage collector of a serving process (config/collector.py): its thresholds
# (generation 0's allocations, then how many collections of the one below; in a
# three-minute load run, collections of 5 ms or more stopped the two processes' loops for
# 3.5 s in all with Python's own 700,10,10, for 0.5 to 0.9 s with these:
# docs/performance.md), and the collections logged, those of at least GC_LOG_MS (0: none).
GC_THRESHOLDS = tuple(int(n) for n in os.environ.get("GC_THRESHOLDS", "50000,20,10").split(","))
GC_LOG_MS = float(os.environ.get("GC_LOG_MS", "0"))
# -- end of limits ------------------------------------------------------------------------

# -- accounts -------------------------------------------------------------------------------
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Failed log-ins are limited by django-axes on every log-in form, the admin's included:
# its backend refuses a locked-out attempt before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Locked out: one account from one address, after LOGIN_FAILURE_LIMIT failures, for
# LOGIN_FAILURE_WINDOW_SECONDS. Never a whole address (a family behind one router keeps
# playing) and never an account everywhere (a stranger cannot lock its owner out).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(seconds=int(os.environ.get("LOGIN_FAILURE_WINDOW_SECONDS", "900")))
AXES_RESET_ON_SUCCESS = True
# The cool-off runs from the last counted failure; attempts while locked out do not
# extend it (the right password typed during the wait must not cost another wait).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The address is REMOTE_ADDR and nothing else. Behind nginx, Daphne's --proxy-headers
# already makes it the client's (nginx replaces X-Forwarded-For with $remote_addr);
# without a proxy no header is trusted, so a forged one cannot dodge the count.
AXES_CLIENT_IP_CALLABLE = "lobby.logins.client_address"
AXES_LOCKOUT_CALLABLE = "lobby.logins.locked_out"
# Successful log-ins are not recorded: only failures are kept, until their cool-off ends.
AXES_DISABLE_ACCESS_LOG = True
# No banner at every start; failures are still logged (username and address masked).
AXES_VERBOSE = False

# The cache holds rate-limit counts (telemetry): shared through Redis when there is one.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# -- room creation (issue 17: accounts, docs/operations.md "Room creation") -------------------
# New rooms one person (an account, or a guest's browser) may open in an hour, counted in
# the cache above (shared through Redis), and rooms they host that may be waiting or
# playing with someone connected at once.
ROOM_CREATION_PER_HOUR = int(os.environ.get("ROOM_CREATION_PER_HOUR", "20"))
ROOMS_OPEN_AT_ONCE = int(os.environ.get("ROOMS_OPEN_AT_ONCE", "3"))
# Every guest of one address together (a family, a school or an office behind one address
# counts as one): a guest id is a cookie, and a cleared cookie is a new guest.
ROOM_CREATION_PER_ADDRESS_PER_HOUR = int(os.environ.get("ROOM_CREATION_PER_ADDRESS_PER_HOUR", "60"))
# -- end of room creation ---------------------------------------------------------------------

# -- play now (issue 34: docs/operations.md "Play now") -------------------------------------
# How long a public table waits for people before the computer takes its empty seats.
PLAY_NOW_WAIT_SECONDS = float(os.environ.get("PLAY_NOW_WAIT_SECONDS", "15"))
# How long a waiting public table keeps the seat of someone whose page is not connected (a
# reload, a page still opening) before giving it to the next person.
PLAY_NOW_AWAY_SECONDS = float(os.environ.get("PLAY_NOW_AWAY_SECONDS", "8"))
# Presses of Play now a minute, by one browser (an account or a guest) and by every
# browser of one address together; and how many people may wait for one game at once.
PLAY_NOW_JOINS_PER_MINUTE = int(os.environ.get("PLAY_NOW_JOINS_PER_MINUTE", "6"))
PLAY_NOW_JOINS_PER_MINUTE_PER_ADDRESS = int(
    os.environ.get("PLAY_NOW_JOINS_PER_MINUTE_PER_ADDRESS", "30")
)
PLAY_NOW_WAITING_PER_GAME = int(os.environ.get("PLAY_NOW_WAITING_PER_GAME", "200"))
# -- end of play now --------------------------------------------------------------------------

# -- bots (issue 21: docs/bots.md) ------------------------------------------------------------
# Bot accounts one person may own; challenges one account may send a minute and a day;
# games a bot may open against other bots a day (each refused with 429 and Retry-After).
BOTS_PER_OWNER = int(os.environ.get("BOTS_PER_OWNER", "5"))
BOT_CHALLENGES_PER_MINUTE = int(os.environ.get("BOT_CHALLENGES_PER_MINUTE", "10"))
BOT_CHALLENGES_PER_DAY = int(os.environ.get("BOT_CHALLENGES_PER_DAY", "200"))
BOT_GAMES_PER_DAY = int(os.environ.get("BOT_GAMES_PER_DAY", "100"))
# A bot's event stream sends a keep-alive line this often; a bot whose stream has not
# been heard of for three of them is offline (a process that died without closing it).
BOT_KEEPALIVE_SECONDS = float(os.environ.get("BOT_KEEPALIVE_SECONDS", "5"))
# -- end of bots ------------------------------------------------------------------------------

# -- telemetry ------------------------------------------------------------------------------
TELEMETRY_EVENTS_PER_MINUTE = int(os.environ.get("TELEMETRY_EVENTS_PER_MINUTE", "30"))
TELEMETRY_RETENTION_DAYS = 30
