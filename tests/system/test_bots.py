"""Bots over a real Daphne (docs/bots.md): the reference bot (tools/bots/random_bot.py)
reads its event stream, accepts challenges and plays whole matches on the table socket,
against a person and the built-in computer, and against another bot; the stream and the
token socket refuse what they must."""

import asyncio
import contextlib
import json
import threading
import time
import urllib.error
import urllib.request

import pytest
from channels.db import database_sync_to_async
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games import selectors, services
from games.engine.view import view_for
from games.models import Bot, Challenge, Draw, Room, Seat
from games.realtime import streams
from games.services import bots
from tests.games.conftest import make_session, make_user
from tests.rooms import friends_room
from tests.system.conftest import Client, needs_services, play, ply
from tools.bots.random_bot import Bot as RandomBot

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def make_bot(owner, name: str) -> tuple[int, str]:
    bot, token = bots.create_bot(owner_id=owner.pk, name=name, description="draws at random")
    return bot.pk, token


def request(server, path: str, token: str | None = None, method="GET", body=None):
    """(status, headers, JSON body) of one bot API call."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = json.dumps(body).encode() if body is not None else (b"" if method == "POST" else None)
    call = urllib.request.Request(server.url + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(call, timeout=30) as answer:
            return answer.status, dict(answer.headers), json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.load(error)


class Stream:
    """A bot's event stream read in a thread: its lines, as they come."""

    def __init__(self, server, token: str):
        self.lines: list[dict | None] = []
        self.changed = threading.Condition()
        self.ended = threading.Event()
        call = urllib.request.Request(
            server.url + "/api/bot/stream", headers={"Authorization": f"Bearer {token}"}
        )
        self.response = urllib.request.urlopen(call, timeout=60)
        self.headers = dict(self.response.headers)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.response:
                with self.changed:
                    self.lines.append(json.loads(line) if line.strip() else None)
                    self.changed.notify_all()
        except Exception:  # closed by the test, or by the server: the stream ended
            pass
        finally:
            self.ended.set()

    def wait_for(self, test, timeout=30) -> dict:
        with self.changed:
            assert self.changed.wait_for(
                lambda: any(e is not None and test(e) for e in self.lines), timeout
            ), f"no such line in {self.lines}"
            return next(e for e in self.lines if e is not None and test(e))

    def close(self):
        self.response.close()


def wait_until(check, timeout=30):
    done = threading.Event()
    for _ in range(int(timeout * 20)):
        if check():
            return
        done.wait(0.05)
    raise AssertionError("the condition never held")


def run_bot(server, token: str, matches: int) -> threading.Thread:
    """The reference bot, as its owner would run it, until ``matches`` matches are over."""
    bot = RandomBot(server.url, token, seed=7)
    thread = threading.Thread(target=lambda: asyncio.run(bot.run(matches)), daemon=True)
    thread.start()
    return thread


def test_reference_bot_plays_a_whole_match_against_a_person_and_the_computer(servers):
    server = servers("one")
    host = make_user("ann")
    _bot_id, token = make_bot(host, "RandomRita")
    room = friends_room(host, seats=3, rounds=3)
    thread = run_bot(server, token, matches=1)
    wait_until(lambda: selectors.bot_online(_bot_id))
    bots.challenge(room_id=room.pk, actor=services.Actor(user_id=host.pk), bot_name="randomrita")
    wait_until(lambda: Seat.objects.filter(room=room, index=1, bot=True).exists())
    services.start_match(
        room_id=room.pk, actor=services.Actor(user_id=host.pk), fill_with_computers=True
    )

    session = make_session(user=host)

    async def scenario():
        ann = await Client(session).connect(server.port, room.code)
        final = await play([ann], timeout=180)
        await ann.close()
        return final

    final = asyncio.run(scenario())
    thread.join(60)
    assert not thread.is_alive(), "the bot did not see the match end"
    assert final["match"]["over"] and len(final["match"]["rounds"]) == 3
    seats = final["seats"]
    assert [s["bot"] for s in seats] == [False, True, False]
    assert seats[1]["name"] == "RandomRita" and seats[2]["kind"] == "computer"
    # The bot drew for itself (on a machine loaded enough to miss heartbeats the computer
    # may cover its seat for a while, as it would a person's).
    assert Draw.objects.filter(round__match__room=room, drawer=1, by_computer=False).exists()


@pytest.mark.parametrize("variant", ["babanuki", "jijinuki", "old_maid", "schwarzer_peter"])
def test_two_reference_bots_play_a_whole_match_against_each_other(servers, variant):
    server = servers("one")
    owner = make_user("owner")
    first_id, first = make_bot(owner, "Alpha")
    second_id, second = make_bot(owner, "Beta")
    threads = [run_bot(server, token, matches=1) for token in (first, second)]
    wait_until(lambda: selectors.bot_online(first_id))
    wait_until(lambda: selectors.bot_online(second_id))
    seats = 3 if variant == "jijinuki" else 2  # Jiji-nuki needs three: the computer's
    status, _headers, answer = request(
        server, "/api/bot/challenge/Beta", first, "POST", {"variant": variant, "seats": seats}
    )
    assert status == 200, answer
    for thread in threads:
        thread.join(180)
        assert not thread.is_alive(), "a bot did not see the match end"
    room = Room.objects.get(code=answer["challenge"]["room"])
    assert room.status == Room.Status.FINISHED and room.variant == variant
    held = list(room.seats.values_list("user_id", "bot", "is_computer"))
    assert held[:2] == [(first_id, True, False), (second_id, True, False)]
    assert held[2:] == [(None, False, True)] * (seats - 2)
    for seat in (0, 1):  # each bot drew for itself
        assert Draw.objects.filter(round__match__room=room, drawer=seat, by_computer=False).exists()


def test_the_stream_starts_with_pending_challenges_and_refuses_a_second_one(servers):
    server = servers("one")
    host = make_user("ann")
    bot_id, token = make_bot(host, "Watcher")
    room = friends_room(host, seats=2)
    stream = Stream(server, token)
    try:
        assert stream.headers["Content-Type"] == "application/x-ndjson"
        wait_until(lambda: selectors.bot_online(bot_id))
        made = bots.challenge(
            room_id=room.pk, actor=services.Actor(user_id=host.pk), bot_name="Watcher"
        )
        line = stream.wait_for(lambda e: e["type"] == "challenge")
        assert line["challenge"] == {
            "id": made.pk,
            "room": room.code,
            "seat": 1,
            "variant": "babanuki",
            "seats": 2,
            "rules": room.rules,
            "options": room.options,
            "by": "ann",
        }
        status, headers, answer = request(server, "/api/bot/stream", token)
        assert status == 429 and answer["error"] == "too_many"
        assert int(headers["Retry-After"]) > 0
    finally:
        stream.close()
    # Closed, the bot goes offline; a new stream starts with the challenge still pending.
    wait_until(lambda: not selectors.bot_online(bot_id))
    again = Stream(server, token)
    try:
        line = again.wait_for(lambda e: e["type"] == "challenge")
        assert line["challenge"]["id"] == made.pk
        status, _h, answer = request(server, f"/api/bot/challenges/{made.pk}/accept", token, "POST")
        assert status == 200 and answer["game"]["socket"].endswith(f"/ws/rooms/{room.code}/")
        start = again.wait_for(lambda e: e["type"] == "gameStart")
        assert start["game"]["room"] == room.code and start["game"]["seat"] == 1
        assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.ACCEPTED
    finally:
        again.close()


def test_a_revoked_token_ends_the_stream_and_opens_nothing(servers):
    server = servers("one", env={"BOT_KEEPALIVE_SECONDS": "0.2"})
    owner = make_user("owner")
    bot_id, token = make_bot(owner, "Gone")
    stream = Stream(server, token)
    try:
        wait_until(lambda: stream.lines.count(None) >= 1)  # a keep-alive line came
        bots.revoke_token(owner_id=owner.pk, bot_id=bot_id)
        assert stream.ended.wait(30), "the stream went on after its token was revoked"
    finally:
        stream.close()
    status, headers, answer = request(server, "/api/bot/stream", token)
    assert status == 401 and answer["error"] == "unauthorized"
    assert headers["WWW-Authenticate"].startswith("Bearer")


async def _first(url: str, headers: dict, origin=None):
    """The first message's type on a new socket, or the close code the server sent."""
    async with connect(url, additional_headers=headers, origin=origin, open_timeout=30) as socket:
        try:
            return json.loads(await asyncio.wait_for(socket.recv(), 30))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "closed without a close frame from the server"
            return closed.rcvd.code


def test_a_seated_bots_token_socket_needs_no_origin_nor_cookie_and_sees_its_seat(servers):
    server = servers("one")
    host = make_user("ann")
    bot_id, token = make_bot(host, "Seated")
    room = friends_room(host, seats=2)
    streams.claim(bot_id)
    made = bots.challenge(room_id=room.pk, actor=services.Actor(user_id=host.pk), bot_name="Seated")
    bots.accept(bot=Bot.objects.get(pk=bot_id), challenge_id=made.pk)
    url = f"ws://127.0.0.1:{server.port}/ws/rooms/{room.code}/"
    headers = {"Authorization": f"Bearer {token}"}

    async def scenario():
        # No Origin; and an Origin of another site changes nothing for a token (a page
        # cannot set the header, so it cannot ride on the token).
        return await _first(url, headers), await _first(url, headers, "http://evil.example")

    for state in asyncio.run(scenario()):
        assert state["type"] == "state" and state["you"] == [1]
        assert state["seats"][1]["bot"] and state["seats"][1]["name"] == "Seated"


def bot_to_draw(host, bot_id: int) -> Room:
    """A match of two started: ``host`` in seat 0, the bot in seat 1 and to draw now (the
    host draws first when the deal says so)."""
    room = friends_room(host, seats=2)
    held = streams.claim(bot_id)  # online for the invitation; the test opens its stream
    name = Bot.objects.get(pk=bot_id).name
    made = bots.challenge(room_id=room.pk, actor=services.Actor(user_id=host.pk), bot_name=name)
    bots.accept(bot=Bot.objects.get(pk=bot_id), challenge_id=made.pk)
    streams.release(bot_id, held)
    actor = services.Actor(user_id=host.pk)
    services.start_match(room_id=room.pk, actor=actor)
    seen = view_for(selectors.snapshot(room.pk), actor)
    if seen["acting"] == 0:
        services.draw(room_id=room.pk, actor=actor, position=0, at=ply(seen, "draw"))
    return room


async def closed_after(socket, since: float, bound: float = 10) -> tuple[int | None, float]:
    """The code the server closed ``socket`` with (None: not closed within ``bound``
    seconds of ``since``), and how long after ``since`` it was; what comes meanwhile is
    read and dropped."""
    try:
        while True:
            await asyncio.wait_for(socket.recv(), max(0.0, since + bound - time.monotonic()))
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), time.monotonic() - since
    except TimeoutError:
        return None, time.monotonic() - since


async def ended_after(stream: Stream, since: float, bound: float = 10) -> tuple[bool, float]:
    ended = await asyncio.to_thread(stream.ended.wait, max(0.0, since + bound - time.monotonic()))
    return ended, time.monotonic() - since


@pytest.mark.parametrize("how", ["revoke", "new token"])
def test_a_revoked_or_replaced_token_closes_its_sockets_and_stream_in_every_process_at_once(
    servers, how
):
    one, two = servers("one"), servers("two")
    owner = make_user("ann")
    bot_id, token = make_bot(owner, "Revoked")
    room = bot_to_draw(owner, bot_id)
    stream = Stream(two, token)
    wait_until(lambda: selectors.bot_online(bot_id))
    headers = {"Authorization": f"Bearer {token}"}

    async def socket(server, token_headers):
        url = f"ws://127.0.0.1:{server.port}/ws/rooms/{room.code}/"
        opened = await connect(url, additional_headers=token_headers, open_timeout=30)
        return opened, json.loads(await asyncio.wait_for(opened.recv(), 30))

    async def scenario():
        (first, state), (second, _) = await socket(one, headers), await socket(two, headers)
        assert state["acting"] == 1, "the bot's turn"
        since = time.monotonic()
        if how == "revoke":
            await database_sync_to_async(bots.revoke_token)(owner_id=owner.pk, bot_id=bot_id)
        else:
            _bot, new = await database_sync_to_async(bots.new_token)(
                owner_id=owner.pk, bot_id=bot_id
            )
        with contextlib.suppress(ConnectionClosed):  # closed already: not sent at all
            await first.send(json.dumps({"type": "draw", **ply(state, "draw"), "position": 0}))
        ends = await asyncio.gather(
            closed_after(first, since), closed_after(second, since), ended_after(stream, since)
        )
        if how == "new token":  # the new token opens a socket and a stream at once
            fresh, seen = await socket(two, {"Authorization": f"Bearer {new}"})
            await fresh.send(json.dumps({"type": "ping", "ref": "still-open"}))
            while json.loads(await asyncio.wait_for(fresh.recv(), 30)).get("ref") != "still-open":
                pass
            await fresh.close()
            assert seen["you"] == [1] and seen["round"]["draws"] == state["round"]["draws"]
            again = await asyncio.to_thread(Stream, one, new)
            again.close()
        return state, ends

    try:
        state, (first, second, (ended, after)) = asyncio.run(scenario())
    finally:
        stream.close()
    assert first[0] == second[0] == 4401, (first, second)
    assert ended, "the stream went on after its token was revoked"
    print(f"closed after {first[1]:.3f} s and {second[1]:.3f} s; stream ended after {after:.3f} s")
    assert max(first[1], second[1], after) < 1.0
    # The draw sent after the revoke was not applied.
    assert Draw.objects.filter(round__match__room=room).count() == state["round"]["draws"]
    assert not Draw.objects.filter(round__match__room=room, drawer=1).exists()
