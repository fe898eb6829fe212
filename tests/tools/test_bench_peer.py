"""``make bench-load``'s ratios to the peer (``BENCH_PEER``, ``python -m tools.bench_load
--peer``): the peer's figures read from its run files, and issue 20's targets judged at
their boundaries."""

import json
import re

import pytest
from django.core.management.base import CommandError

from tools.bench_load import peer_figures, peer_lines


def run_file(folder, name, **run):
    (folder / f"{name}.json").write_text(json.dumps(run))


@pytest.fixture
def peer_runs(tmp_path):
    def saturate(matches, rate, server_pct):
        run_file(
            tmp_path,
            f"saturate-{matches}",
            mode="saturate",
            matches=matches,
            draws_per_s=rate,
            cpu_pct_of_one_core={"server": server_pct, "generator": 90, "other": 1},
            lat_every_seat_ms={"p99": 40},
        )

    saturate(25, 1000, 100)  # the best step: 1.0 ms of server CPU a draw
    saturate(100, 900, 99)
    for matches, p99 in ((50, 9.0), (200, 15.0)):
        run_file(
            tmp_path,
            f"paced-{matches}",
            mode="paced",
            matches=matches,
            draws_per_s=matches,
            cpu_pct_of_one_core={"server": 20},
            lat_every_seat_ms={"p99": p99},
        )
    return tmp_path


def test_the_peers_best_step_and_its_largest_paced_run_are_read(peer_runs):
    assert peer_figures(peer_runs) == {
        "rate": 1000,
        "matches": 25,
        "cpu_ms": 1.0,
        "paced_matches": 200,
        "paced_p99": 15.0,
    }


def test_a_folder_without_both_kinds_of_run_is_refused_clearly(tmp_path):
    run_file(tmp_path, "paced-200", mode="paced", matches=200, lat_every_seat_ms={"p99": 1})
    with pytest.raises(CommandError, match="saturate and paced"):
        peer_figures(tmp_path)
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(CommandError, match="not a peer run file"):
        peer_figures(tmp_path)


def verdicts(line: str) -> list[str]:
    return re.findall(r"\*\*(met|missed)\*\*", line)


def test_each_target_is_met_at_its_boundary_and_missed_just_past_it(peer_runs):
    peer = peer_figures(peer_runs)
    # 800 draws/s with 160% of a core over the four server groups: 2.0 ms a draw, 2.0x.
    at = {"daphne": 100, "postgres": 40, "nginx": 15, "redis": 5, "generator": 50}
    (line, _) = peer_lines(peer, 800, at, 30.0)
    assert "**2.0x**" in line and "**0.80x**" in line
    assert verdicts(line) == ["met", "met", "met"]
    past = {**at, "daphne": 101}  # 2.0125 ms a draw
    (line, _) = peer_lines(peer, 799, past, 30.1)
    assert verdicts(line) == ["missed", "missed", "missed"]
    # The generator's CPU is not the server's.
    (line, _) = peer_lines(peer, 800, {**at, "generator": 500}, 30.0)
    assert verdicts(line)[0] == "met"
