"""The soak test's judgement (tools/soak.py, `make soak`): what counts as growing with time,
and as the flood slowing the players; and that the tool starts and refuses clearly."""

import ipaddress
import math

from tests.support import run_python
from tools.soak import (
    FLOOD_FACTOR,
    LIMITS,
    Sample,
    client_address,
    judge_flood,
    judge_growth,
    phase_floods,
    sample_times,
)

# A 10-minute run sampled every minute: the first half after the 2-minute warm-up is
# judged against the last two samples.
DURATION, WARMUP = 600.0, 120.0
LEVEL = 100.0


def samples(**at_end: float) -> list[Sample]:
    """Every figure at LEVEL from 0:00 to 10:00; the named figures at their given value in
    the last two samples."""
    out = []
    for minute in range(11):
        figures = {name: LEVEL for name in LIMITS}
        if minute >= 9:
            figures.update(at_end)
        out.append(Sample(at=minute * 60.0, figures=figures))
    return out


def test_figures_at_the_same_level_pass():
    assert judge_growth(samples(), DURATION, WARMUP) == []


def test_sessions_may_rise_by_two_rows_and_no_more():
    assert judge_growth(samples(sessions=LEVEL + 2), DURATION, WARMUP) == []
    failures = judge_growth(samples(sessions=LEVEL + 3), DURATION, WARMUP)
    assert len(failures) == 1
    assert failures[0].startswith("FAIL sessions grew with time: 100.0 rows after the warm-up")


def test_a_daphne_may_grow_by_ten_percent_past_the_warm_up_and_no_more():
    name = "Daphne resident size, largest"
    ok = samples()
    for s in ok[-2:]:
        s.figures[name] = 110.0
    assert judge_growth(ok, DURATION, WARMUP) == []
    for s in ok[-2:]:
        s.figures[name] = 110.1
    assert [f.split(" grew")[0] for f in judge_growth(ok, DURATION, WARMUP)] == [f"FAIL {name}"]


def test_a_small_figure_may_grow_by_its_absolute_margin():
    name = "Redis subscriptions"
    small = samples()
    for s in small:
        s.figures[name] = 10.0
    for s in small[-2:]:
        s.figures[name] = 13.0
    assert judge_growth(small, DURATION, WARMUP) == []
    for s in small[-2:]:
        s.figures[name] = 14.0
    assert len(judge_growth(small, DURATION, WARMUP)) == 1


def test_what_grows_during_the_warm_up_is_not_growth():
    warming = samples()
    for s in warming:
        if s.at < WARMUP:
            s.figures["Daphne resident size, all"] = 50.0
    assert judge_growth(warming, DURATION, WARMUP) == []


def test_a_rise_in_only_the_last_sample_is_not_growth():
    spike = samples()
    spike[-1].figures["watchers"] = LEVEL + 50
    assert judge_growth(spike, DURATION, WARMUP) == []


def test_a_figure_not_measured_fails():
    missing = samples()
    for s in missing:
        del s.figures["presence"]
    assert judge_growth(missing, DURATION, WARMUP) == ["FAIL presence: not measured"]


def test_a_run_without_samples_in_both_halves_fails():
    only_start = [Sample(at=0.0, figures={name: LEVEL for name in LIMITS})]
    [failure] = judge_growth(only_start, DURATION, WARMUP)
    assert failure.startswith("FAIL too few samples to judge growth")


def test_a_short_run_warms_up_for_a_quarter_of_it():
    # Two minutes, sampled at the phase ends: the warm-up shrinks to 30 s, so the samples
    # at 0:30 and 1:00 are the level.
    short = [Sample(at=t, figures={name: LEVEL for name in LIMITS}) for t in (0, 30, 60, 90, 120)]
    short[0].figures["sessions"] = 0.0
    for s in short[3:]:
        s.figures["sessions"] = LEVEL + 3
    assert [f.split(" grew")[0] for f in judge_growth(short, 120.0, WARMUP)] == ["FAIL sessions"]


def test_the_flood_may_double_the_players_p99_and_no_more():
    assert FLOOD_FACTOR == 2.0
    assert judge_flood(quiet_p99=25.0, flood_p99=50.0) == []
    [failure] = judge_flood(quiet_p99=25.0, flood_p99=50.1)
    assert failure == (
        "FAIL players' draw latency p99 with the flood is 50.1 ms, 2.0x the 25.0 ms "
        "without it (at most 2x allowed)"
    )


def test_latency_not_measured_in_both_phases_fails():
    assert len(judge_flood(quiet_p99=25.0, flood_p99=math.nan)) == 1
    assert len(judge_flood(quiet_p99=math.nan, flood_p99=25.0)) == 1


def test_phases_alternate_starting_without_the_flood():
    assert [phase_floods(i) for i in range(4)] == [False, True, False, True]


def test_samples_come_every_interval_and_at_each_phase_end():
    assert sample_times(600, 60, 4) == [
        60, 120, 150, 180, 240, 300, 360, 420, 450, 480, 540, 600
    ]  # fmt: skip
    assert sample_times(120, 60, 4) == [30, 60, 90, 120]


def test_the_soak_starts_and_refuses_bad_arguments_clearly():
    help_ = run_python("-m", "tools.soak", "--help")
    assert help_.returncode == 0, help_.stderr
    for option in ("--url", "--minutes", "--rooms", "--no-flood", "--flood-max-frames"):
        assert option in help_.stdout
    bad = run_python("-m", "tools.soak", "--url", "ftp://127.0.0.1:1")
    assert bad.returncode == 1
    assert "--url must be http(s)://host:port" in bad.stderr and "Traceback" not in bad.stderr
    elsewhere = run_python("-m", "tools.soak", "--url", "https://192.0.2.1:8643")
    assert elsewhere.returncode == 1
    assert "the flood only targets 127.0.0.1" in elsewhere.stderr
    assert "Traceback" not in elsewhere.stderr


def test_every_client_has_a_loopback_address_of_its_own():
    addresses = [client_address("player", n) for n in range(600)]
    addresses += [client_address(kind) for kind in ("spectator", "lobby", "healthz", "flood")]
    assert len(set(addresses)) == len(addresses)
    assert all(ipaddress.ip_address(a).is_loopback for a in addresses)
    assert "127.0.0.1" not in addresses
