"""A bot that plays any Old Maid game by drawing a random card (docs/bots.md walks
through it), with the standard library and ``websockets``: ``python -m
tools.bots.random_bot --token omb_...`` (or ``OLDMAID_BOT_TOKEN`` in the environment).
It accepts every challenge, plays every game it is seated in, deals the next round."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import ssl
import threading
import urllib.error
import urllib.request

import websockets

#: The server is restarting: reconnect now (docs/protocol.md, close codes).
RESTARTING = 4012


class Bot:
    def __init__(self, server: str, token: str, *, insecure: bool = False, seed=None):
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"}
        self.tls = ssl.create_default_context()
        if insecure:  # a local server with a self-signed certificate
            self.tls.check_hostname, self.tls.verify_mode = False, ssl.CERT_NONE
        self.random = random.Random(seed)
        self.playing: set[str] = set()  # rooms with a socket open
        self.finished = 0  # matches seen to their end

    def post(self, path: str) -> dict:
        request = urllib.request.Request(self.server + path, b"", self.headers, method="POST")
        try:
            with urllib.request.urlopen(request, context=self.tls) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:  # a refusal says why, in JSON
            return json.load(error)

    def events(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue) -> None:
        """Read the event stream (in a thread): one JSON object a line, empty lines to
        keep the connection alive."""
        request = urllib.request.Request(self.server + "/api/bot/stream", headers=self.headers)
        try:
            with urllib.request.urlopen(request, context=self.tls) as response:
                for line in response:
                    if line.strip():
                        loop.call_soon_threadsafe(queue.put_nowait, json.loads(line))
        finally:
            with contextlib.suppress(RuntimeError):  # the bot has stopped already
                loop.call_soon_threadsafe(queue.put_nowait, None)  # the stream ended

    async def run(self, matches: int | None = None) -> None:
        """Answer events until the stream ends (or ``matches`` matches are over)."""
        loop, queue = asyncio.get_running_loop(), asyncio.Queue()
        threading.Thread(target=self.events, args=(loop, queue), daemon=True).start()
        while (event := await queue.get()) is not None:
            if event["type"] == "challenge":
                print(
                    "challenged:",
                    self.post(f"/api/bot/challenges/{event['challenge']['id']}/accept"),
                )
            elif event["type"] == "gameStart":
                game = event["game"]
                if game["room"] not in self.playing:
                    self.playing.add(game["room"])
                    asyncio.create_task(self.play(game))
            elif event["type"] == "gameFinish":
                self.finished += 1
                if matches is not None and self.finished >= matches:
                    break

    async def play(self, game: dict) -> None:
        """Play one room over its socket until its match is over, reconnecting (a few
        times, waiting longer each time) if the connection drops."""
        options = {"additional_headers": self.headers}
        if game["socket"].startswith("wss:"):
            options["ssl"] = self.tls
        try:
            attempt = 0
            while attempt < 5:
                try:
                    if await self.play_once(game["socket"], options):
                        return
                except websockets.ConnectionClosedError as error:
                    if error.rcvd is not None and error.rcvd.code == RESTARTING:
                        continue  # the server is restarting: another process takes us now
                    print("connection lost:", error)
                except OSError as error:
                    print("connection lost:", error)
                await asyncio.sleep(2**attempt)
                attempt += 1
        finally:
            self.playing.discard(game["room"])

    async def play_once(self, url: str, options: dict) -> bool:
        """Answer the socket's states; True once the match is over."""
        async with websockets.connect(url, **options) as socket:
            sent = None  # the move last answered: a state repeated is not a new turn
            async for frame in socket:
                message = json.loads(frame)
                if message["type"] == "error":
                    print("refused:", message["code"], message["message"])
                    if message["code"] != "stale_version":  # not the move: try again
                        sent = None
                elif message["type"] == "state":
                    answer = self.answer(message)
                    if answer == "done":
                        return True
                    move = answer and (answer["type"], answer["round"], answer.get("draw"))
                    if answer is not None and move != sent:
                        sent = move
                        await socket.send(json.dumps(answer))
        return False

    def answer(self, state: dict) -> dict | str | None:
        """What to send for a state: a draw on our turn, the next round once one is over."""
        match, rnd = state["match"], state["round"]
        if match is None or rnd is None:
            return None  # the room is still waiting for players
        if match["over"]:
            return "done"
        at = {"match": match["number"], "round": rnd["number"]}
        if rnd["over"]:
            return {"type": "next_round", **at} if state["you"] else None
        seat = state["acting"]
        if seat is None or seat not in state["you"] or rnd["drawer"] != seat:
            return None  # not our turn
        cards = state["seats"][rnd["giver"]]["count"]
        return {
            "type": "draw",
            **at,
            "draw": rnd["draws"],
            "position": self.random.randrange(cards),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("OLDMAID_BOT_TOKEN", ""))
    parser.add_argument("--insecure", action="store_true", help="accept a self-signed certificate")
    parser.add_argument("--matches", type=int, help="stop after this many matches")
    args = parser.parse_args()
    if not args.token:
        parser.error("give --token or set OLDMAID_BOT_TOKEN")
    asyncio.run(Bot(args.server, args.token, insecure=args.insecure).run(args.matches))


if __name__ == "__main__":
    main()
