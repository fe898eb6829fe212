"""Pointing benchmark (development only): how long a drawer's ``point`` takes to reach
the giver as ``pointing``, over real WebSockets against a running server.

    python -m tools.bench_pointing --url http://127.0.0.1:8765 [--points 300]
        [--giver-url http://127.0.0.1:8766]

With ``--giver-url`` the giver's socket is on a second server process (the point then
crosses Redis from one process to the other, as it does behind a load balancer).

Setup (two signed-in players in a started friends room of two seats) is done here
through the services, on the server's database (``DATABASE_URL``), and is not measured;
the room and the players are deleted afterwards. Then the drawer sends a point every
``--interval`` seconds (the page sends at most one per 110 ms), alternating between two
cards, and each latency is measured on this process's one clock, from the drawer's send
to the giver's receipt of the ``pointing`` naming that card. It prints p50, p99 and the
maximum; docs/performance.md ("Pointing") records a run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time

import django


def setup() -> tuple[dict, list]:
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from tools.sessions import signed_in_session

    User = get_user_model()
    users = []
    for name in ("bench-pointer", "bench-giver"):
        User.objects.filter(username=name).delete()
        users.append(User.objects.create_user(username=name, password=None))
    keys = []
    for user in users:
        session = SessionStore()
        session.update(signed_in_session(user))
        session.create()
        keys.append(session.session_key)
    actors = [services.Actor(user_id=u.pk) for u in users]
    room = services.create_room(
        actor=actors[0], name="pointer", variant="babanuki", seat_count=2, mode="friends"
    )
    services.join_room(room_id=room.pk, actor=actors[1], name="giver")
    services.start_match(room_id=room.pk, actor=actors[0])
    return {"code": room.code, "id": room.pk, "keys": keys}, users


def cleanup(room_id: int, users: list) -> None:
    from games.models import Room

    Room.objects.filter(pk=room_id).delete()
    for user in users:
        user.delete()


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]


async def measure(urls: list[str], room: dict, points: int, interval: float) -> list[float]:
    """``urls``: the server of each player's socket (the room's host first)."""
    from websockets.asyncio.client import connect

    sockets, states = [], []
    for key, url in zip(room["keys"], urls, strict=True):
        ws_url = url.replace("http", "ws", 1).rstrip("/") + f"/ws/rooms/{room['code']}/"
        ws = await connect(
            ws_url,
            origin=url.rstrip("/"),
            additional_headers={"Cookie": f"sessionid={key}"},
            open_timeout=60,
        )
        state = json.loads(await ws.recv())
        while state["type"] != "state":
            state = json.loads(await ws.recv())
        sockets.append(ws)
        states.append(state)
    drawer = 0 if states[0]["acting"] is not None else 1
    giver_ws, drawer_ws = sockets[1 - drawer], sockets[drawer]
    rnd = states[drawer]["round"]
    at = {"match": states[drawer]["match"]["number"], "round": rnd["number"], "draw": rnd["draws"]}
    latencies = []
    try:
        for n in range(points):
            position = n % 2
            sent = time.monotonic()
            await drawer_ws.send(json.dumps({"type": "point", **at, "position": position}))
            while True:
                message = json.loads(await asyncio.wait_for(giver_ws.recv(), 10))
                if message["type"] == "pointing" and message["position"] == position:
                    latencies.append(time.monotonic() - sent)
                    break
            await asyncio.sleep(max(0.0, sent + interval - time.monotonic()))
    finally:
        for ws in sockets:
            await ws.close()
    return latencies


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--giver-url", default=None, help="a second server for one socket")
    parser.add_argument("--points", type=int, default=300)
    parser.add_argument("--interval", type=float, default=0.11)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    room, users = setup()
    try:
        urls = [args.url, args.giver_url or args.url]
        latencies = asyncio.run(measure(urls, room, args.points, args.interval))
    finally:
        cleanup(room["id"], users)
    ms = [v * 1000 for v in latencies]
    where = "two processes" if args.giver_url else "one process"
    print(
        f"point -> pointing at the giver ({where}), {len(ms)} points: "
        f"p50 {percentile(ms, 50):.1f} ms, p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
