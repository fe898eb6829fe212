"""What `scripts/prod.sh` runs with, read without starting anything (`scripts/prod.sh
config nginx|daphne|logrotate|systemd`): telemetry requests leave no address or user agent
in any log (the privacy text promises that no address is kept), and the printed files pass
the tools that read them."""

import os
import re
import shlex
import shutil
import subprocess

import pytest
from daphne.cli import CommandLineInterface

from tests.conftest import REQUIRE_SERVICES
from tests.support import ROOT

SCRIPT = str(ROOT / "scripts" / "prod.sh")
TELEMETRY = "/telemetry/events/"


def prod_config(tmp_path, what: str, **env) -> str:
    result = subprocess.run(
        ["bash", SCRIPT, "config", what],
        env={**os.environ, "PROD_DIR": str(tmp_path / "prod"), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# -- a small nginx configuration reader: directives, their arguments and blocks -------------

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|#[^\n]*|[{};]|[^\s{};"\'#]+')


class Directive:
    def __init__(self, name: str, args: list[str], block: list["Directive"] | None):
        self.name, self.args, self.block = name, args, block

    def __repr__(self):
        return f"{self.name} {' '.join(self.args)}"


def parse(text: str) -> list[Directive]:
    tokens = [t for t in TOKEN.findall(text) if not t.startswith("#")]
    position = 0

    def block() -> list[Directive]:
        nonlocal position
        directives, words = [], []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == ";":
                directives.append(Directive(words[0], words[1:], None))
                words = []
            elif token == "{":
                directives.append(Directive(words[0], words[1:], block()))
                words = []
            elif token == "}":
                assert not words, f"unterminated directive {words}"
                return directives
            else:
                words.append(token)
        assert not words, f"unterminated directive {words}"
        return directives

    directives = block()
    assert position == len(tokens), "unbalanced braces"
    return directives


def only(directives: list[Directive], name: str) -> Directive:
    found = [d for d in directives if d.name == name]
    assert len(found) == 1, f"{len(found)} {name} blocks"
    return found[0]


def every(directives: list[Directive], name: str) -> list[Directive]:
    """Every ``name`` directive, in nested blocks too."""
    found = []
    for d in directives:
        if d.name == name:
            found.append(d)
        if d.block:
            found.extend(every(d.block, name))
    return found


def location_for(server: Directive, uri: str) -> Directive:
    """The location nginx picks for ``uri``: the longest matching prefix (this configuration
    has no regular-expression locations, which would be tried after it)."""
    locations = [d for d in server.block if d.name == "location"]
    assert all(len(d.args) == 1 for d in locations), "only plain prefix locations expected"
    matching = [d for d in locations if uri.startswith(d.args[0])]
    return max(matching, key=lambda d: len(d.args[0]))


def https_server(tmp_path) -> tuple[list[Directive], Directive]:
    config = parse(prod_config(tmp_path, "nginx"))
    http = only(config, "http")
    servers = [d for d in http.block if d.name == "server"]
    # The plain HTTP server redirects (and answers a certificate authority's check); the
    # HTTPS one serves.
    (serving,) = [s for s in servers if any("ssl" in d.args for d in s.block if d.name == "listen")]
    return config, serving


def test_nginx_keeps_no_log_line_of_a_telemetry_request(tmp_path):
    config, server = https_server(tmp_path)
    telemetry = location_for(server, TELEMETRY)
    assert telemetry.args != ["/"], "telemetry must have a location of its own"
    # The location's own access_log replaces every inherited one (http's and server's), so
    # `off` there means no log_format applies to these requests.
    assert [d.args for d in every(telemetry.block, "access_log")] == [["off"]]
    assert [d.args for d in every(telemetry.block, "error_log")] == [["/dev/null"]]
    # ... while the rest of the site is still logged.
    http = only(config, "http")
    assert [d.args[0] for d in http.block if d.name == "access_log"] != ["off"]
    assert every(location_for(server, "/rooms/").block, "access_log") == []


def test_telemetry_is_proxied_exactly_like_every_other_request(tmp_path):
    _, server = https_server(tmp_path)
    telemetry, rest = location_for(server, TELEMETRY), location_for(server, "/")

    def proxying(location):  # logging and compression aside (telemetry answers 204)
        return [
            (d.name, d.args)
            for d in location.block
            if not d.name.endswith("_log") and not d.name.startswith("gzip")
        ]

    assert proxying(telemetry) == proxying(rest)
    assert ("proxy_pass", ["http://daphne"]) in proxying(telemetry)


def test_daphne_keeps_no_access_log(tmp_path):
    lines = prod_config(tmp_path, "daphne", WEB_PROCESSES="3").splitlines()
    assert len(lines) == 3
    for line in lines:
        command = shlex.split(line)
        if os.geteuid() == 0:  # root's Daphne processes drop to their own user, and run
            # the copy of the code and the venv that prepare makes for it in PROD_DIR/app
            assert command[:8] == [
                "setpriv",
                "--reuid=oldmaid",
                "--regid=oldmaid",
                "--init-groups",
                "--",
                "env",
                "-C",
                str(tmp_path / "prod" / "app" / "code"),
            ]
            assert command[8] == str(tmp_path / "prod" / "app" / "venv" / "bin" / "python")
            command = command[8:]
        assert command[1:3] == ["-m", "daphne"]
        args = CommandLineInterface().parser.parse_args(command[3:])
        # Without --access-log Daphne prints one (client address first) to stdout, which
        # prod.sh keeps in var/prod/log/daphne-N.log.
        assert args.access_log == os.devnull
        assert args.proxy_headers


def test_an_unknown_config_is_refused_clearly(tmp_path):
    result = subprocess.run(
        ["bash", SCRIPT, "config", "apache"],
        env={**os.environ, "PROD_DIR": str(tmp_path / "prod")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "usage: scripts/prod.sh config [nginx|daphne|cron|logrotate|systemd]" in result.stderr


# -- the access log keeps no token; each address is limited -------------------------------


def log_format(http: Directive, name: str) -> str:
    (found,) = [d for d in http.block if d.name == "log_format" and d.args[0] == name]
    return " ".join(a.strip("'") for a in found.args[1:])


def test_nginx_access_lines_name_no_query_string_referer_or_invitation_token(tmp_path):
    config, server = https_server(tmp_path)
    http = only(config, "http")
    logs = [d for d in every(config, "access_log") if d.args != ["off"]]
    assert logs, "the site is logged"
    formats = {d.args[1] if len(d.args) > 1 else "combined" for d in logs}
    assert len(formats) == 1, formats
    line = log_format(http, formats.pop())
    # $request and $request_uri carry the query string (a socket's ?t=TOKEN), and so do
    # $args and $query_string; a Referer carries a page's address, query string included.
    for variable in ("$request ", "$request_uri", "$args", "$query_string", "$http_referer"):
        assert variable not in line + " ", variable
    assert "$logged_uri" in line
    # Which processes were tried, what each answered and how long each took.
    assert " ".join(line.split()).endswith(
        "upstream=$upstream_addr upstream_status=$upstream_status "
        "upstream_time=$upstream_response_time"
    )
    # ... and the invitation's path (/join/<token>/) and a replay's (/replay/<id>/) are masked.
    (masking,) = [d for d in http.block if d.name == "map" and d.args[1] == "$logged_uri"]
    assert masking.args[0] == "$uri"
    assert [(d.name, d.args) for d in masking.block] == [
        ('"~^/join/"', ['"/join/-/"']),
        ('"~^/replay/"', ['"/replay/-/"']),
        ("default", ["$uri"]),
    ]


def limits_of(location: Directive) -> list[tuple[str, list[str]]]:
    return [(d.name, d.args) for d in location.block if d.name.startswith("limit_")]


def test_nginx_limits_requests_handshakes_and_sockets_per_address(tmp_path):
    config, server = https_server(tmp_path)
    http = only(config, "http")
    zones = {d.args[1]: d.args for d in http.block if d.name.endswith("_zone")}
    assert zones == {
        "zone=requests_per_address:10m": [
            "$binary_remote_addr",
            "zone=requests_per_address:10m",
            "rate=10r/s",
        ],
        "zone=handshakes_per_address:10m": [
            "$binary_remote_addr",
            "zone=handshakes_per_address:10m",
            "rate=2r/s",
        ],
        "zone=sockets_per_address:10m": ["$binary_remote_addr", "zone=sockets_per_address:10m"],
    }
    statuses = {d.name: d.args for d in http.block if d.name.endswith("_status")}
    assert statuses == {"limit_req_status": ["429"], "limit_conn_status": ["429"]}
    pages = [("limit_req", ["zone=requests_per_address", "burst=100", "nodelay"])]
    assert limits_of(location_for(server, "/")) == pages
    assert limits_of(location_for(server, "/r/KP3KS9/")) == pages
    assert limits_of(location_for(server, TELEMETRY)) == pages
    for socket in ("/ws/rooms/KP3KS9/", "/ws/lobby/"):
        assert limits_of(location_for(server, socket)) == [
            ("limit_req", ["zone=handshakes_per_address", "burst=60", "nodelay"]),
            ("limit_conn", ["sockets_per_address", "100"]),
        ]
    assert limits_of(location_for(server, "/static/app.css")) == []
    # The sockets are proxied as every other request is, the table's to its room's process.
    proxy = proxying(location_for(server, "/"))
    assert proxying(location_for(server, "/ws/lobby/")) == proxy
    assert proxying(location_for(server, "/ws/rooms/KP3KS9/")) == [
        ("proxy_pass", ["http://daphne_rooms"]) if name == "proxy_pass" else (name, args)
        for name, args in proxy
    ]


def proxying(location: Directive) -> list[tuple[str, list[str]]]:
    return [(d.name, d.args) for d in location.block if d.name.startswith("proxy_")]


def test_a_rooms_table_sockets_are_routed_by_its_code_over_every_process(tmp_path):
    config, _ = https_server(tmp_path)
    http = only(config, "http")
    upstreams = {d.args[0]: d.block for d in http.block if d.name == "upstream"}
    servers = [d.args for d in upstreams["daphne"] if d.name == "server"]
    assert len(servers) == 2  # WEB_PROCESSES's default
    rooms = upstreams["daphne_rooms"]
    assert [d.args for d in rooms if d.name == "server"] == servers
    assert [d.args for d in rooms if d.name == "hash"] == [["$room_code", "consistent"]]
    (code,) = [d for d in http.block if d.name == "map" and d.args[1] == "$room_code"]
    assert code.args[0] == "$uri"
    assert [(d.name, d.args) for d in code.block] == [
        ('"~^/ws/rooms/(?<code>[^/]+)/$"', ["$code"]),
        ("default", ['""']),
    ]


def test_operations_doc_states_each_nginx_limit(tmp_path):
    doc = (ROOT / "docs" / "operations.md").read_text()
    section = doc.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for number in (
        "10 requests a second",
        "burst of 100",
        "2 handshakes a second",
        "burst of 60",
        "100 sockets",
        "429",
    ):
        assert number in section, number


@pytest.mark.skipif(
    not shutil.which("nginx", path="/usr/sbin:/usr/bin") and not os.environ.get("REQUIRE_SERVICES"),
    reason="no nginx (CI installs it: scripts/services.sh)",
)
def test_nginx_accepts_the_configuration(tmp_path):
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(tmp_path / "k.pem"),
         "-out", str(tmp_path / "c.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    text = prod_config(
        tmp_path, "nginx", TLS_CERT=str(tmp_path / "c.pem"), TLS_KEY=str(tmp_path / "k.pem")
    )
    for folder in ("prod/nginx/tmp", "prod/log", "prod/run"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "nginx.conf").write_text(text)
    nginx = shutil.which("nginx", path="/usr/sbin:/usr/bin")
    result = subprocess.run(
        [nginx, "-t", "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


# -- the files `config` prints, read by the tools they are for ------------------------------


def tool(name: str) -> str:
    """The path of a tool the printed files are for; CI installs it (scripts/services.sh)."""
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if path is None:
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but {name} is missing (scripts/services.sh)")
        pytest.skip(f"needs {name}")
    return path


def test_the_printed_logrotate_file_rotates_every_log_and_keeps_daphnes_open(tmp_path):
    """logrotate itself reads what `config logrotate` prints: nginx's logs are moved aside
    (nginx is told to reopen them), each Daphne's and the supervisor's are copied and
    emptied in place, since those processes keep writing to the file they opened; a second
    rotation compresses the first."""
    logs = tmp_path / "prod" / "log"
    logs.mkdir(parents=True)
    names = ("nginx-access.log", "nginx-error.log", "daphne-1.log", "daphne-2.log", "prod.log")
    for name in names:
        (logs / name).write_text(f"a line of {name}\n")
    config = tmp_path / "oldmaid.logrotate"
    config.write_text(prod_config(tmp_path, "logrotate"))
    config.chmod(0o644)  # logrotate ignores a file others may write
    daphne = (logs / "daphne-1.log").open("a")  # a Daphne process writing on

    def rotate():
        result = subprocess.run(
            [tool("logrotate"), "--force", "--state", str(tmp_path / "state"), str(config)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr

    rotate()
    for name in names:
        assert (logs / f"{name}.1").read_text() == f"a line of {name}\n", name
    for name in ("daphne-1.log", "daphne-2.log", "prod.log"):  # copied, then emptied
        assert (logs / name).stat().st_size == 0, name
    for name in ("nginx-access.log", "nginx-error.log"):  # moved: nginx makes it anew
        assert not (logs / name).exists(), name
    daphne.write("written after the rotation\n")
    daphne.flush()
    assert (logs / "daphne-1.log").read_text() == "written after the rotation\n"

    rotate()  # delaycompress: the previous rotation is compressed at the next
    assert (logs / "daphne-1.log.2.gz").exists() and (logs / "daphne-1.log.1").exists()
    daphne.close()


def test_the_printed_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    """systemd's own checker reads what `config systemd` prints (no systemd runs here): its
    sections, ExecStart and ExecReload (absolute, executable), and its settings; the checker
    is first shown to refuse a broken unit."""
    analyze = tool("systemd-analyze")

    def verify(text: str) -> subprocess.CompletedProcess:
        unit = tmp_path / "oldmaid.service"
        unit.write_text(text)
        return subprocess.run(
            [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
        )

    printed = prod_config(tmp_path, "systemd")
    assert "ExecStart=" in printed and f"Environment=PROD_DIR={tmp_path / 'prod'}" in printed
    broken = verify(printed.replace("ExecStart=/", "ExecStart=not/absolute/"))
    assert broken.returncode != 0 and "not/absolute" in broken.stderr, broken.stderr
    checked = verify(printed)
    assert checked.returncode == 0, checked.stderr
    assert "oldmaid.service" not in checked.stderr, checked.stderr  # no warning on our unit
