"""static/js/verify.js, run under node, agrees with the Python reference
(games/engine/seeded.py) on every variant, several player counts, same-colour pairs,
deals from another start than today's table gives, both deal versions (version 2 also with
counts outside the rules' round-robin, and balanced rounds), and deals that must not
verify: a swapped card, a changed seed, a wrong commitment, a wrong start or counts, an
unknown version."""

import hashlib
import json
import subprocess
from pathlib import Path

from games.engine import BALANCED_DEALS, deal_start_offset, get_variant, seeded
from tests.lobby.replays import verify_page_data

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "verify_cases.mjs"

PLAYERS = {
    "babanuki": [2, 4, 5, 8],
    "jijinuki": [3, 4, 6, 7],
    "old_maid": [2, 3, 6, 8],
    "schwarzer_peter": [2, 3, 7, 8],
}


def seed_for(name: str) -> bytes:
    return hashlib.sha256(name.encode()).digest()


def deal_record(variant, players, dealer, seed, start, options, version=1, counts=None) -> dict:
    """A finished round's deal as the replay page gives it to verify.js."""
    state = seeded.deal_from_seed(
        variant, players, dealer, seed, options, version=version, start=start, counts=counts
    )
    return {
        "variant": variant,
        "players": players,
        "dealer": dealer,
        "options": options,
        "seed": seed.hex(),
        "commitment": seeded.commitment(seed),
        "dealt": state.dealt,
        "removed": list(state.removed),
        "deal_version": version,
        "deal_start": start,
        "deal_counts": None if counts is None else list(counts),
    }


def uneven_counts(variant: str, players: int, dealer: int) -> list[int]:
    """Counts by seat that no round-robin deal gives: the dealer two cards short or over,
    the rest spread as evenly as possible."""
    deck = get_variant(variant).deck_size
    own = deck // players + (-2 if deck // players > 2 else 2)
    rest = deck - own
    others = [rest // (players - 1) + (i < rest % (players - 1)) for i in range(players - 1)]
    by_offset = [own, *others]
    return [by_offset[(seat - dealer) % players] for seat in range(players)]


def python_verdict(data: dict) -> str:
    return "verified" if verify_page_data(data) else "failed"


def cases_for(variant: str, players: int) -> list[tuple[str, dict, str]]:
    """(name, data, expected verdict) for one variant and player count."""
    name = f"{variant}/{players}"
    seed = seed_for(name)
    dealer = players // 2
    options = {"same_colour_pairs": players % 2 == 0, "reverse": False}
    today = (dealer + deal_start_offset(get_variant(variant), players)) % players
    old = (today + 1 + players // 3) % players  # another start than today's table gives
    assert old != today

    state, deal = seeded.new_deal(variant, players, dealer, seed, options)
    assert deal.version == 2
    new = deal_record(variant, players, dealer, seed, deal.start, options, 2, deal.counts)
    assert new["dealt"] == state.dealt
    good = deal_record(variant, players, dealer, seed, old, options)
    uneven = uneven_counts(variant, players, dealer)
    v2 = deal_record(variant, players, dealer, seed, old, options, 2, uneven)
    assert [len(h) for h in v2["dealt"]] == uneven

    swapped = json.loads(json.dumps(good["dealt"]))
    swapped[0][0], swapped[1][-1] = swapped[1][-1], swapped[0][0]
    reordered = json.loads(json.dumps(good["dealt"]))
    reordered[1][0], reordered[1][1] = reordered[1][1], reordered[1][0]
    other = seed_for(name + "/other")

    cases = [
        ("a new round, today's start", new, "verified"),
        ("an old round, another start", good, "verified"),
        ("a card swapped between two seats", {**good, "dealt": swapped}, "failed"),
        ("two cards swapped in one hand", {**good, "dealt": reordered}, "failed"),
        (
            "another seed with its own commitment",
            {**good, "seed": other.hex(), "commitment": seeded.commitment(other)},
            "failed",
        ),
        ("another seed, the old commitment", {**good, "seed": other.hex()}, "failed"),
        ("a wrong commitment", {**good, "commitment": seeded.commitment(other)}, "failed"),
        ("the old round checked with today's start", {**good, "deal_start": today}, "failed"),
        ("an unknown deal version", {**good, "deal_version": 3}, "failed"),
        ("a version given as text", {**good, "deal_version": "1"}, "failed"),
        ("a start that is no seat", {**good, "deal_start": players}, "failed"),
        ("no seed", {**good, "seed": None}, "failed"),
        ("version 2, counts outside the round-robin", v2, "verified"),
        ("version 2 without its counts", {**new, "deal_counts": None}, "failed"),
        ("version 2, another start", {**v2, "deal_start": (old + 1) % players}, "failed"),
        (
            "version 2, counts that do not add up",
            {**v2, "deal_counts": [*uneven[:-1], uneven[-1] + 1]},
            "failed",
        ),
        (
            "version 2, counts with a seat given none",
            {**v2, "deal_counts": [0, *uneven[1:-1], uneven[-1] + uneven[0]]},
            "failed",
        ),
        (
            "version 2, the counts given as text",
            {**v2, "deal_counts": ",".join(map(str, uneven))},
            "failed",
        ),
        ("version 1 with counts", {**good, "deal_counts": uneven}, "failed"),
        ("an unknown version with counts", {**v2, "deal_version": 3}, "failed"),
    ]
    if (variant, players) in BALANCED_DEALS:
        # A balanced round (RULES.md section 7): version 2 with the balanced counts.
        state, deal = seeded.new_deal(
            variant, players, dealer, seed, {**options, "balanced_deal": True}
        )
        balanced = deal_record(variant, players, dealer, seed, deal.start, options, 2, deal.counts)
        assert balanced["dealt"] == state.dealt
        own = list(new["deal_counts"])
        cases += [
            ("a balanced round", balanced, "verified"),
            (
                "a balanced round checked with the own deal's counts",
                {**balanced, "deal_counts": own},
                "failed",
            ),
        ]
    if good["removed"]:
        tampered = json.loads(json.dumps(good["dealt"]))
        removed = [tampered[0][0]]
        tampered[0][0] = good["removed"][0]
        cases.append(
            (
                "the card set aside swapped",
                {**good, "dealt": tampered, "removed": removed},
                "failed",
            )
        )
    return [(f"{name}: {label}", data, expected) for label, data, expected in cases]


def all_cases():
    return [
        case
        for variant, counts in PLAYERS.items()
        for n in counts
        for case in cases_for(variant, n)
    ]


def test_verify_js_agrees_with_the_python_reference(node, tmp_path):
    cases = all_cases()
    for name, data, expected in cases:
        assert python_verdict(data) == expected, name
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"name": n, "data": d} for n, d, _ in cases]))
    run = subprocess.run(
        [node, str(RUNNER), str(path)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert run.returncode == 0, run.stderr
    verdicts = json.loads(run.stdout)
    assert [v["name"] for v in verdicts] == [n for n, _, _ in cases]
    wrong = [
        (name, got["verdict"], expected)
        for (name, _, expected), got in zip(cases, verdicts, strict=True)
        if got["verdict"] != expected
    ]
    assert not wrong
    variants = {d["variant"] for _, d, _ in cases}
    assert variants == {"babanuki", "jijinuki", "old_maid", "schwarzer_peter"}
    assert any(d["options"]["same_colour_pairs"] for _, d, _ in cases)
