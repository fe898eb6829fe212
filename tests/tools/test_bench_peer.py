"""``make bench-load``'s ratios to the peer (``BENCH_PEER``, ``python -m tools.bench_load
--peer``): the peer's figures read from its run files, for each of its configurations
(``tools/peer_bgio/run.sh``), and our ratios to each."""

import json

import pytest
from django.core.management.base import CommandError

from tools.bench_load import peer_configurations, peer_figures, peer_lines


def run_file(folder, name, **run):
    (folder / f"{name}.json").write_text(json.dumps(run))


def write_runs(tmp_path, cpu_pct=100):
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

    saturate(25, 1000, cpu_pct)  # the best step: cpu_pct / 100 ms of server CPU a draw
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


@pytest.fixture
def peer_runs(tmp_path):
    return write_runs(tmp_path)


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


def test_each_configuration_the_folder_holds_is_read_apart(tmp_path):
    for name, cpu_pct in (("a", 100), ("c", 250)):
        (tmp_path / name).mkdir()
        write_runs(tmp_path / name, cpu_pct)
    peers = peer_configurations(tmp_path)
    assert list(peers) == ["a", "c"]
    assert (peers["a"]["cpu_ms"], peers["c"]["cpu_ms"]) == (1.0, 2.5)


def test_a_folder_of_run_files_is_one_peer(peer_runs):
    assert peer_configurations(peer_runs) == {"": peer_figures(peer_runs)}


def test_our_ratios_to_each_configuration_count_the_servers_cpu_only(tmp_path):
    for name, cpu_pct in (("a", 100), ("b", 200)):
        (tmp_path / name).mkdir()
        write_runs(tmp_path / name, cpu_pct)
    # 800 draws/s with 160% of a core over the four server groups: 2.0 ms a draw.
    at = {"daphne": 100, "postgres": 40, "nginx": 15, "redis": 5, "generator": 500}
    lines = peer_lines(peer_configurations(tmp_path), 800, at, 30.0)
    rows = [line for line in lines if line.startswith("| (")]
    assert len(rows) == 2
    assert rows[0].startswith(
        "| (a) the peer as it is | 1,000 (25 matches) | 0.80x | 1.00 ms | 2.0x"
    )
    assert rows[1].startswith(
        "| (b) behind nginx with TLS | 1,000 (25 matches) | 0.80x | 2.00 ms | 1.0x"
    )
    assert all(line.endswith("| 15.0 ms (200 matches) | 30.0 ms |") for line in rows)
    assert not any("met" in line for line in lines)  # anchors, not targets
