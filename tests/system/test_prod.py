"""`scripts/prod.sh start`, used as an operator would: pages, static files, a WebSocket and
/healthz through nginx over HTTPS, then `stop`."""

import asyncio
import gzip
import json
import re
import secrets
import time
import urllib.error
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from websockets.asyncio.client import connect

from games.realtime import streams
from games.services import bots
from tests.support import needs_services
from tests.system.prod_site import UNVERIFIED, can_have_nginx, fetch

pytestmark = [pytest.mark.django_db(transaction=True), needs_services, can_have_nginx]


def test_start_serve_through_nginx_and_stop(prod):
    prod_dir, https, http, script = prod
    base = f"https://127.0.0.1:{https}"
    assert (prod_dir / "url").read_text().strip() == base
    env_file = (prod_dir / "env").read_text()
    assert "export DEBUG=0" in env_file and "DATABASE_URL=" in env_file
    # It holds the database password: its owner's alone.
    assert (prod_dir / "env").stat().st_mode & 0o777 == 0o600

    status, headers, body = fetch(f"{base}/healthz")
    assert status == 200
    assert json.loads(body) == {"status": "ok", "checks": {"database": "ok", "channel_layer": "ok"}}

    status, headers, body = fetch(f"{base}/")
    assert status == 200
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body)
    assert stylesheet, "the page links the hashed stylesheet"
    status, headers, css = fetch(base + stylesheet[1].decode())
    assert status == 200 and headers["Content-Type"].startswith("text/css") and css
    assert "immutable" in headers["Cache-Control"]

    status, headers, _ = fetch(f"http://127.0.0.1:{http}/rules/")
    assert status == 301 and headers["Location"] == f"{base}/rules/"

    # Pages are compressed for a browser that takes gzip.
    status, headers, body = fetch(f"{base}/rules/", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert b"</html>" in gzip.decompress(body)
    # A certificate authority's HTTP-01 check is answered over plain HTTP, not redirected.
    challenges = prod_dir / "acme" / ".well-known" / "acme-challenge"
    challenges.mkdir(parents=True)
    (challenges / "probe-token").write_text("proof")
    status, _, body = fetch(f"http://127.0.0.1:{http}/.well-known/acme-challenge/probe-token")
    assert (status, body) == (200, b"proof")

    async def lobby_socket():
        async with connect(
            f"wss://127.0.0.1:{https}/ws/lobby/", ssl=UNVERIFIED, origin=base, open_timeout=60
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 60))

    assert asyncio.run(lobby_socket())["type"] == "lobby"

    # Anonymous telemetry through nginx: stored, and no log line anywhere names its sender.
    event = {
        "kind": "game_started",
        "variant": "babanuki",
        "mode": "computer",
        "level": "easy",
        "seats": "4",
        "phone": "no",
        "browser": "firefox",
        "os": "linux",
    }
    status, _, body = fetch(
        f"{base}/telemetry/events/",
        json.dumps(event).encode(),
        {"Content-Type": "application/json", "User-Agent": "PrivacyProbe/9.1"},
    )
    assert status == 204, body
    status, _, _ = fetch(
        f"{base}/telemetry/events/", b"not json", {"User-Agent": "PrivacyProbe/9.1"}
    )
    assert status == 400

    status = script("status", 30)
    assert status.returncode == 0, status.stdout + status.stderr
    assert status.stdout.count("daphne") == 2 and "nginx" in status.stdout

    assert script("stop", 60).returncode == 0
    assert script("status", 30).returncode == 3
    logs = {path.name: path.read_text() for path in (prod_dir / "log").glob("*.log")}
    assert "GET /healthz" in logs["nginx-access.log"]  # the rest of the site is logged
    for name, text in logs.items():
        assert "PrivacyProbe" not in text, name
        for line in text.splitlines():
            assert not ("/telemetry/" in line and "127.0.0.1" in line), (name, line)
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"{base}/healthz", timeout=5, context=UNVERIFIED)


def test_a_rooms_table_sockets_meet_in_one_process_through_nginx(prod):
    """nginx sends every table socket of a room to the process its code hashes to
    (``scripts/prod.sh``, upstream ``daphne_rooms``), and different rooms over both
    processes; its access lines name the process that answered."""
    prod_dir, https, _, script = prod
    base = f"https://127.0.0.1:{https}"
    codes = [f"ROOM{n:02d}" for n in range(16)]  # no such rooms: each socket is refused

    async def sockets():
        for code in codes:
            for _ in range(3):
                try:
                    async with connect(
                        f"wss://127.0.0.1:{https}/ws/rooms/{code}/",
                        ssl=UNVERIFIED,
                        origin=base,
                        open_timeout=60,
                    ) as ws:
                        await asyncio.wait_for(ws.recv(), 60)
                except Exception:  # closed with 4404, the room being unknown
                    pass

    asyncio.run(sockets())
    assert script("stop", 60).returncode == 0  # every line written
    served: dict[str, set[str]] = {}
    for line in (prod_dir / "log" / "nginx-access.log").read_text().splitlines():
        found = re.search(r"GET /ws/rooms/(\w+)/ .* upstream=(\S+) upstream_status=", line)
        if found:
            served.setdefault(found[1], set()).add(found[2])
    assert sorted(served) == codes
    assert all(len(processes) == 1 for processes in served.values()), served
    # Over 16 rooms both processes serve some (all on one: a chance of 2 in 65,536).
    assert len(set().union(*served.values())) == 2, served


def test_a_bots_stream_and_token_socket_pass_through_nginx_and_no_log_names_the_token(prod):
    """docs/bots.md through the production front: the event stream's lines arrive as they
    are sent (nginx buffers none of them), answering a challenge seats the bot, its token
    socket opens without an Origin, and the token appears in no log. Everything goes
    through nginx: one bot challenges the other over the API."""
    prod_dir, https, _, script = prod
    base = f"https://127.0.0.1:{https}"
    owner = get_user_model().objects.create_user("owner")
    bot, token = bots.create_bot(owner_id=owner.pk, name="FrontBot")
    _other, other_token = bots.create_bot(owner_id=owner.pk, name="OtherBot")

    def api(path: str, bearer: str, body: bytes = b"") -> dict:
        headers = {"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"}
        status, _headers, answer = fetch(f"{base}{path}", body, headers)
        assert status == 200, answer
        return json.loads(answer)

    def next_event(stream) -> dict:
        while line := stream.readline():  # empty lines keep the stream alive
            if line.strip():
                return json.loads(line)
        raise AssertionError("the stream ended")

    call = urllib.request.Request(
        f"{base}/api/bot/stream", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(call, timeout=60, context=UNVERIFIED) as stream:
        assert stream.headers["Content-Type"] == "application/x-ndjson"
        deadline = time.monotonic() + 60
        while not streams.online([bot.pk]):  # until the stream is counted as open
            assert time.monotonic() < deadline, "the stream never counted as open"
            time.sleep(0.05)
        opened = api("/api/bot/challenge/FrontBot", other_token, b'{"variant": "babanuki"}')
        challenge = next_event(stream)
        assert challenge["type"] == "challenge"
        assert challenge["challenge"]["room"] == opened["challenge"]["room"]
        game = api(f"/api/bot/challenges/{challenge['challenge']['id']}/accept", token)["game"]
        code = game["room"]
        assert game["socket"] == f"wss://127.0.0.1:{https}/ws/rooms/{code}/"
        assert next_event(stream) == {"type": "gameStart", "game": game}

    async def seated():
        async with connect(
            game["socket"],
            ssl=UNVERIFIED,
            additional_headers={"Authorization": f"Bearer {token}"},
            open_timeout=60,
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 60))

    state = asyncio.run(seated())
    assert state["type"] == "state" and state["you"] == [1] and state["seats"][1]["bot"]
    assert state["room"]["status"] == "playing"  # started once its challenge was answered
    assert script("stop", 60).returncode == 0  # every line written
    for path in (prod_dir / "log").glob("*.log"):
        assert token not in path.read_text() and other_token not in path.read_text(), path


def test_no_log_line_names_a_join_token_or_replay_id_and_logs_are_0640_in_a_0750_directory(
    prod,
):
    """A join POST without a CSRF cookie, and a replay that does not exist: Django warns
    about both, naming the path; every handler masks what opens a seat or a round."""
    token, replay_id = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
    status, _, body = fetch(f"{prod.base}/join/{token}/", b"name=Hana", {"Origin": prod.base})
    assert status == 403 and b"Traceback" not in body
    status, _, body = fetch(f"{prod.base}/replay/{replay_id}/")
    assert status == 404 and b"Traceback" not in body
    assert prod.script("stop", timeout=60).returncode == 0  # every line written
    log_dir = prod.dir / "log"
    logs = {path.name: path.read_text() for path in log_dir.iterdir()}
    daphne = "".join(text for name, text in logs.items() if name.startswith("daphne-"))
    assert "Forbidden (CSRF cookie not set.): /join/-/" in daphne
    assert "Not Found: /replay/-/" in daphne
    for name, text in logs.items():
        assert token not in text and replay_id not in text, name
        assert "Traceback" not in text, name
    assert log_dir.stat().st_mode & 0o777 == 0o750
    assert {name: (log_dir / name).stat().st_mode & 0o777 for name in logs} == {
        name: 0o640 for name in logs
    }
