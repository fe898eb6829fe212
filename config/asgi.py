"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config import daphne_guard, daphne_shutdown, daphne_startup  # noqa: E402
from config.bot_sockets import BotSocketMiddleware  # noqa: E402
from config.origin import SameOriginMiddleware  # noqa: E402
from config.socket_auth import AuthMiddlewareStack  # noqa: E402
from games.realtime.outages import OutageMiddleware  # noqa: E402
from games.realtime.routing import fallback as no_such_socket  # noqa: E402
from games.realtime.routing import websocket_urlpatterns as game_sockets  # noqa: E402
from lobby.routing import websocket_urlpatterns as lobby_sockets  # noqa: E402

sockets = game_sockets + lobby_sockets
if os.environ.get("BENCH_ECHO") == "1":
    # The load benchmark's echo table (make bench-load), from the development tools: a
    # production install has no tools package and never sets BENCH_ECHO.
    from tools.echo import websocket_urlpatterns as echo_sockets

    sockets += echo_sockets
sockets += no_such_socket  # last: any other path is closed with 4404, not a traceback

# Daphne cuts off a socket flooding it with frames where it reads them (a no-op when
# something else serves the application).
daphne_guard.install()
# Told to stop, Daphne tells its sockets to reconnect elsewhere and exits in bounded time.
daphne_shutdown.install()
# The sweep runs from the start, not from the first table socket: it drives the rooms no
# process has a socket of (players that never connect).
daphne_startup.install()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A bot's socket is its token's (config/bot_sockets.py). Any other: the Origin
        # must be the page's own (scheme, host and port: config/origin.py); then the
        # session and user. A database or Redis outage closes the socket cleanly
        # (games/realtime/outages.py).
        "websocket": OutageMiddleware(
            BotSocketMiddleware(
                bots=URLRouter(sockets),
                browsers=SameOriginMiddleware(AuthMiddlewareStack(URLRouter(sockets))),
            )
        ),
    }
)

# What is loaded by now (Django, the apps, the rules, Twisted) lives as long as the
# process: frozen out of the collector's sight, so that its full collections, which stop
# the event loop and every table with it, walk only what came since (at 200 rooms they
# took 130 to 280 ms each, the paced run's p99: docs/performance.md).
gc.collect()
gc.freeze()
