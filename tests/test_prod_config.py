"""What `scripts/prod.sh` runs with, read without starting anything
(`scripts/prod.sh config nginx|daphne`): telemetry requests leave no address or user agent
in any log (the privacy text promises that no address is kept)."""

import os
import re
import shlex
import subprocess

from daphne.cli import CommandLineInterface

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
    # The plain HTTP server only redirects (its 301 names no one); the HTTPS one serves.
    (serving,) = [s for s in servers if any(d.name == "location" for d in s.block)]
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

    def proxying(location):
        return [(d.name, d.args) for d in location.block if not d.name.endswith("_log")]

    assert proxying(telemetry) == proxying(rest)
    assert ("proxy_pass", ["http://daphne"]) in proxying(telemetry)


def test_daphne_keeps_no_access_log(tmp_path):
    lines = prod_config(tmp_path, "daphne", WEB_PROCESSES="3").splitlines()
    assert len(lines) == 3
    for line in lines:
        command = shlex.split(line)
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
    assert "usage: scripts/prod.sh config [nginx|daphne]" in result.stderr
