"""python -m tools.fairness for one deal: its JSON contract and its refusals."""

import json
import re

import pytest

from tools.fairness.cli import main


@pytest.fixture
def run(capsys):
    def run(*args):
        assert main(list(args)) == 0
        return capsys.readouterr().out

    return run


@pytest.fixture
def refusal(capsys):
    """What the command says on its way out when it refuses ``args`` (exit status 2)."""

    def refusal(*args):
        with pytest.raises(SystemExit) as exit_:
            main(list(args))
        assert exit_.value.code == 2
        return capsys.readouterr().err

    return refusal


def test_json_output_has_the_documented_keys(run):
    data = json.loads(
        run("--variant", "babanuki", "--players", "4", "--rounds", "20000", "--seed", "1", "--json")
    )
    assert data["rounds"] == 20000
    assert len(data["lose_rate"]) == 4
    assert abs(sum(data["lose_rate"]) - 1) < 1e-9
    assert 25 < data["mean_draws"] < 45
    assert data["rounds_per_second"] > 0
    assert data["deal"] == "fair" and data["deal_offset"] == 0


def test_seeded_runs_repeat(run):
    args = ("--variant", "schwarzer_peter", "--players", "3", "--rounds", "5000", "--seed", "9")
    a = json.loads(run(*args, "--json"))
    b = json.loads(run(*args, "--json"))
    assert a["lose_rate"] == b["lose_rate"]


def test_text_output_and_the_full_engine(run):
    text = run(
        "--variant",
        "old_maid",
        "--players",
        "3",
        "--rounds",
        "300",
        "--engine",
        "full",
        "--deal",
        "traditional",
        "--seed",
        "2",
    )
    assert "lose rate" in text and "mean draws per round" in text
    assert "traditional deal (first card to dealer+1)" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variant", "jijinuki", "--players", "2"), "3 to 8 players"),
        (("--variant", "babanuki", "--players", "9"), "2 to 8 players"),
        (("--variant", "babanuki", "--players", "4", "--rounds", "0"), "--rounds"),
        (("--variant", "babanuki", "--players", "4", "--deal", "fairest"), "--deal must be"),
        (("--variant", "babanuki", "--players", "4", "--deal", "14,13,13"), "one number per seat"),
        (("--variant", "babanuki", "--players", "4", "--deal", "14,13,13,12"), "add up to the 53"),
        (("--variant", "babanuki", "--players", "3", "--deal", "53,0,0"), "--deal must be|least"),
        (("--variant", "babanuki", "--players", "3", "--deal", "27,-1,27"), "--deal must be"),
    ],
)
def test_refusals_say_what_is_wrong(refusal, args, message):
    said = refusal(*args)
    assert re.search(message, said) and "Traceback" not in said


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variant", "babanuki"), "needs --variant and --players"),
        (("--players", "4"), "needs --variant and --players"),
        ((), "say what to measure"),
        (("--variant", "babanuki", "--players", "4", "--write", "x.md"), "one or the other"),
    ],
)
def test_it_refuses_a_half_or_mixed_request(refusal, args, message):
    assert message in refusal(*args)


def test_a_deal_named_by_its_counts(run):
    data = json.loads(
        run(
            "--variant",
            "babanuki",
            "--players",
            "5",
            "--rounds",
            "20000",
            "--seed",
            "3",
            "--deal",
            "13,10,10,10,10",
            "--json",
        )
    )
    assert data["deal"] == "counts" and data["counts"] == [13, 10, 10, 10, 10]
    assert len(data["lose_rate"]) == 5


@pytest.mark.parametrize(
    ("deal", "counts"), [("fair", [14, 13, 13, 13]), ("traditional", [13, 14, 13, 13])]
)
def test_fair_and_traditional_report_their_counts(run, deal, counts):
    args = ("--variant", "babanuki", "--players", "4", "--rounds", "2000", "--deal", deal)
    data = json.loads(run(*args, "--json"))
    assert data["deal"] == deal and data["counts"] == counts
    assert "cards dealt " + "-".join(map(str, counts)) in run(*args)


def test_deal_default_simulates_the_balanced_deal_where_a_new_room_uses_it(run):
    args = ("--players", "5", "--rounds", "2000", "--seed", "1", "--deal", "default", "--json")
    data = json.loads(run("--variant", "babanuki", *args))
    assert data["deal"] == "balanced"
    assert data["counts"] == [13, 10, 10, 10, 10] and data["deal_offset"] == 1


def test_deal_default_is_the_games_own_deal_where_no_balanced_deal_is_offered(run):
    args = ("--players", "4", "--rounds", "2000", "--seed", "1", "--deal", "default", "--json")
    data = json.loads(run("--variant", "babanuki", *args))
    assert data["deal"] == "fair" and data["counts"] == [14, 13, 13, 13]


def test_deal_default_names_a_flow_n_first_recipient(run):
    args = ("--players", "8", "--rounds", "2000", "--seed", "1", "--deal", "default", "--json")
    data = json.loads(run("--variant", "schwarzer_peter", *args))
    assert data["deal"] == "balanced"
    assert data["counts"] == [4, 3, 4, 4, 4, 4, 4, 4] and data["deal_offset"] == 2


def test_a_balanced_deal_where_none_is_offered_is_refused(refusal):
    err = refusal("--variant", "babanuki", "--players", "4", "--deal", "balanced")
    assert "has no balanced deal" in err
