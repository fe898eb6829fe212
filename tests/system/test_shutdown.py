"""A real Daphne told to stop (SIGTERM) while it serves a game: it closes its sockets with
4012, lets their work finish and exits by itself; one with a stuck thread still exits,
after EXIT_SECONDS (config/daphne_shutdown.py)."""

import asyncio
import contextlib
import json
import signal
import threading
import time
import urllib.request

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from config.daphne_shutdown import RESTARTING
from tests.support import move_for, needs_services
from tests.system.private import setup_room
from tests.system.stuck_asgi import COUNT_PATH, STUCK_PATH

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


async def table_socket(port: int, code: str, session_key: str):
    return await connect(
        f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={session_key}"},
        open_timeout=30,
    )


async def play_until_closed(ws, draws_seen: list[int]) -> int:
    """Draw whenever it is this socket's turn (the first deals the next round); the close
    code once the server closes the socket."""
    acted_on = -1
    try:
        async for frame in ws:
            state = json.loads(frame)
            if state["type"] != "state" or state["match"]["over"]:
                continue
            draws_seen.append(state["round"]["draws"])
            move = move_for(state)
            if move is not None and state["version"] != acted_on:
                acted_on = state["version"]
                await ws.send(json.dumps(move))
    except ConnectionClosed:
        pass
    return ws.close_code


def test_told_to_stop_mid_game_a_daphne_closes_its_sockets_with_4012_and_exits_by_itself(
    servers,
):
    room = setup_room(4, 2, 5)  # two players and two computers, drawing without pause
    server = servers("a")

    async def scenario():
        sockets = [await table_socket(server.port, room["code"], k) for k in room["sessions"]]
        draws_seen: list[int] = []
        playing = [asyncio.create_task(play_until_closed(ws, draws_seen)) for ws in sockets]
        while len(draws_seen) < 20:  # broadcasts under way
            await asyncio.sleep(0.01)
        server.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(asyncio.gather(*playing), 30)

    codes = asyncio.run(scenario())
    assert codes == [RESTARTING, RESTARTING]
    # By itself: 0, not the last resort's 1 (nor a kill's -9); the wait is the failure's bound.
    assert server.proc.wait(timeout=60) == 0
    log = server.log_path.read_text()
    assert "stopping: 2 sockets told to reconnect" in log
    assert "Traceback" not in log


def test_a_daphne_with_a_stuck_thread_still_exits_after_exit_seconds(servers):
    server = servers(
        "stuck",
        env={"SHUTDOWN_SECONDS": "1", "EXIT_SECONDS": "3"},
        application="tests.system.stuck_asgi:application",
    )

    def ask(path: str, timeout: float) -> bytes:
        with urllib.request.urlopen(server.url + path, timeout=timeout) as answer:
            return answer.read()

    # A page whose worker thread never returns, under way when the server is told to stop.
    threading.Thread(target=lambda: _quietly(ask, STUCK_PATH, 60), daemon=True).start()
    deadline = time.monotonic() + 60  # a bound for a failure
    while ask(COUNT_PATH, 10) != b"1":
        assert time.monotonic() < deadline, "the stuck page never started"
        time.sleep(0.02)
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=60) == 1  # the last resort's status
    log = server.log_path.read_text()
    assert "1 applications left after" in log
    assert "still running 3.0 s after being told to stop: exiting now" in log


def _quietly(call, *args) -> None:
    with contextlib.suppress(OSError):  # the server goes away under the request
        call(*args)
