"""Plain WebSockets to a real server, as a page's script or a bot opens them: a table's
and the lobby's sockets, what a new socket meets at the door, the answers and the close
code it is sent, and a server's log free of tracebacks."""

import asyncio
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


async def open_socket(port, path, session="", origin=None, headers=None):
    cookie = {"Cookie": f"sessionid={session}"} if session else {}
    return await connect(
        f"ws://127.0.0.1:{port}{path}",
        origin=origin or f"http://127.0.0.1:{port}",
        additional_headers={**cookie, **(headers or {})},
        open_timeout=30,
    )


async def first_message_or_close(ws) -> str | int:
    """The first message's type, or the close code the server sent instead."""
    try:
        return json.loads(await asyncio.wait_for(ws.recv(), 30))["type"]
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def door(port, path, session="", headers=None, timeout: float = 60) -> int | str:
    """What a new socket meets: the HTTP status of a refused handshake, the close code of
    a socket closed before its first message, or that message's type. A socket neither
    opened nor refused within ``timeout`` fails the test."""

    async def attempt():
        try:
            ws = await open_socket(port, path, session, headers=headers)
        except InvalidStatus as refused:
            return refused.response.status_code
        try:
            return await first_message_or_close(ws)
        finally:
            await ws.close()

    try:
        return await asyncio.wait_for(attempt(), timeout)
    except TimeoutError:
        raise AssertionError(f"{path}: neither opened nor refused within {timeout} s") from None


async def table(port, code, session) -> object:
    ws = await open_socket(port, f"/ws/rooms/{code}/", session)
    assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "state"
    return ws


async def answers(ws, count: int) -> list[dict]:
    """The next ``count`` messages other than states (a state follows every error)."""
    found = []
    while len(found) < count:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] != "state":
            found.append(message)
    return found


async def in_one_window(burst, tries: int = 5):
    """The result of ``await burst()``, a new socket's burst of frames, from a run that
    fit in one second (``burst`` returns its result and its seconds, as
    ``timed_answers``). A socket's rate counts the frames of the second that opens with
    its first frame, so every frame of such a run was counted in that one second,
    however loaded the machine. A slower run proves nothing and is tried again."""
    for _ in range(tries):
        result, seconds = await burst()
        if seconds < 1.0:
            return result
    raise AssertionError(f"in {tries} tries no burst fit in one second: the machine is too busy")


async def close_code(ws) -> int:
    """Read until the server closes; the code it sent."""
    while True:
        try:
            await asyncio.wait_for(ws.recv(), 30)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "closed without a close frame from the server"
            return closed.rcvd.code


def assert_clean_log(server) -> None:
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]
    assert "invalid close code" not in log, log[-3000:]


async def lobby(port) -> object:
    ws = await open_socket(port, "/ws/lobby/")
    assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "lobby"
    return ws
