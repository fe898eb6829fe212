"""The site's application (config/asgi.py) as the servers tests start serve it, plus one
test-only endpoint: ``GET /__tests__/quiet/`` answers once the server has nothing left
running, so that a test can empty the database under a server that stays up.

A server shared by the tests of a worker (``tests.support.live_server``) outlives each
test's database: between tests its tables are flushed. Anything of the server still at
work then (a socket's disconnect writing presence rows, a computer turn, the sweep) would
hold row locks the flush waits for, or deadlock with it. The endpoint waits until every
request and socket the server was serving has ended (the test has closed its pages), then
stops its drivers, sweep and heartbeat (``games.realtime.driver.stop_all``, as at shutdown) and
waits for the database work they started; a socket opened later starts them again.
"""

import asyncio
import json

from config.asgi import application as site
from games.realtime import driver, limits
from games.realtime.workers import idle

QUIET_PATH = "/__tests__/quiet/"

#: Requests and sockets being served (their application calls not yet returned).
_serving = 0


async def application(scope, receive, send):
    global _serving
    if scope["type"] == "http" and scope["path"] == QUIET_PATH:
        return await _quiet(send)
    if scope["type"] not in ("http", "websocket"):
        return await site(scope, receive, send)
    _serving += 1
    try:
        return await site(scope, receive, send)
    finally:
        _serving -= 1


async def _quiet(send) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60  # a bound for a failure: a page left open
    while _serving and loop.time() < deadline:
        await asyncio.sleep(0.01)
    await driver.stop_all()
    limits._cooling.clear()  # the next test's sockets come from the same address
    quiet = not _serving and await idle()
    body = json.dumps({"quiet": quiet, "serving": _serving}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200 if quiet else 503,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})
