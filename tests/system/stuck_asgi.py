"""The site's application (config/asgi.py) plus two test-only pages: ``/__tests__/stuck/``,
whose worker thread never returns (what a thread stuck where nothing can reach it looks
like to Daphne's shutdown, tests/system/test_shutdown.py), and ``/__tests__/stuck-count/``,
how many such threads are stuck."""

import threading

from asgiref.sync import sync_to_async

from config.asgi import application as site

STUCK_PATH = "/__tests__/stuck/"
COUNT_PATH = "/__tests__/stuck-count/"
_never = threading.Event()
_stuck = 0


def _stick() -> None:
    global _stuck
    _stuck += 1
    _never.wait()


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == STUCK_PATH:
        await sync_to_async(_stick, thread_sensitive=False)()
    if scope["type"] == "http" and scope["path"] == COUNT_PATH:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        return await send({"type": "http.response.body", "body": str(_stuck).encode()})
    return await site(scope, receive, send)
