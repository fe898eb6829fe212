"""The deal search behind docs/fairness.md and the fairness page (issue 14).

For one variant and table size it measures, with the vectorised simulator:

1. every start of the round-robin deal (the deals RULES.md 2.1 allows), 200,000 rounds
   each;
2. the *parity family*: count vectors within ±3 cards of an equal share that add up to
   the deck, where one seat (the *special seat*) holds the other parity from every other
   seat. The special seat is the dealer for flow P; for flow N (Schwarzer Peter) the
   dealer, the seat on its left (the first drawer) and the seat after that (the first
   seat drawn from) are all searched, because which seat plays the dealer's part there is
   the question being tested. A second, smaller family (within ±2) puts the special seat
   at every offset, in every variant, to test the argument itself. Every candidate is
   screened with 10,000 rounds, the best are measured again with 200,000;
3. 1,000,000 rounds for the default deal, the other round-robin deal (fair or
   traditional), any round-robin start that looked fairer than the default, and the best
   deal outside the rules.

Results are plain dicts (JSON-ready), written by ``python -m tools.fairness --search``
to ``games/fairness_data.json`` (``measure_all``, ``dumps``); the site only reads that file
(``games.fairness_data``), and nothing here is installed with it.
"""

from __future__ import annotations

import itertools
import json
import math
import time
import zlib
from concurrent.futures import ProcessPoolExecutor

from games.engine import VARIANTS, dealt_counts, get_variant
from games.engine.dealing import deal_start_offset
from games.engine.variants import FAIR_DEAL, FLOW_FROM_PREVIOUS, TRADITIONAL_DEAL
from tools.fairness.fastsim import simulate_many
from tools.fairness.simulator import Z_95, wilson_interval

SCREEN_ROUNDS = 10_000
CANDIDATE_ROUNDS = 200_000
FINAL_ROUNDS = 1_000_000
#: How many of the screened candidates outside the rules are measured again.
REFINE = 8


def parity_family(deck: int, players: int, special: int, width: float) -> list[tuple[int, ...]]:
    """Count vectors (dealer first) within ``width`` of ``deck / players`` adding up to
    ``deck``, where seat ``special`` holds the other parity from every other seat."""
    share = deck / players
    lo, hi = max(1, math.ceil(share - width)), math.floor(share + width)
    found = []
    for own in range(lo, hi + 1):
        others = [c for c in range(lo, hi + 1) if c % 2 != own % 2]
        for rest in itertools.product(others, repeat=players - 1):
            if own + sum(rest) == deck:
                counts = list(rest)
                counts.insert(special, own)
                found.append(tuple(counts))
    return found


def round_robin(variant, players: int) -> dict[int, tuple[int, ...]]:
    """Every start's count vector (dealer first): offset from the dealer -> counts."""
    return {
        off: tuple(dealt_counts(variant, players, 0, deal_offset=off)) for off in range(players)
    }


def spread_interval(losses: list[int], rounds: int) -> tuple[float, float, float]:
    """The spread (highest seat's loss rate minus the lowest's) and an approximate 95%
    interval: normal approximation for the difference of the two extreme seats'
    multinomial rates, clipped to [0, 1]."""
    rates = [x / rounds for x in losses]
    hi = max(range(len(rates)), key=rates.__getitem__)
    lo = min(range(len(rates)), key=rates.__getitem__)
    p, q = rates[hi], rates[lo]
    spread = p - q
    sd = math.sqrt(max(p * (1 - p) + q * (1 - q) + 2 * p * q, 0.0) / rounds)
    return spread, max(0.0, spread - Z_95 * sd), min(1.0, spread + Z_95 * sd)


def report(counts, result, **extra) -> dict:
    losses = [int(x) for x in result.losses]
    rounds = result.rounds
    spread, low, high = spread_interval(losses, rounds)
    return {
        "counts": list(counts),
        "rounds": rounds,
        "losses": losses,
        "lose_rate": [round(x / rounds, 6) for x in losses],
        "lose_rate_95": [
            [round(a, 6), round(b, 6)] for a, b in (wilson_interval(x, rounds) for x in losses)
        ],
        "spread": round(spread, 6),
        "spread_95": [round(low, 6), round(high, 6)],
        "mean_draws": round(result.total_draws / rounds, 3),
        **extra,
    }


def _seed(*parts) -> int:
    return zlib.crc32("/".join(map(str, parts)).encode())


def measure(variant, players, deals, rounds, *parts) -> list:
    return simulate_many(variant, players, [list(c) for c in deals], rounds, seed=_seed(*parts))


def search_row(variant_key: str, players: int) -> dict:
    """Everything measured for one variant and table size (see the module docstring)."""
    variant = get_variant(variant_key)
    deck = variant.deck_size
    flow_p = variant.flow == FLOW_FROM_PREVIOUS
    rr = round_robin(variant, players)
    allowed = set(rr.values())

    # 1. Every round-robin start.
    starts = sorted(rr)
    results = measure(
        variant, players, [rr[o] for o in starts], CANDIDATE_ROUNDS, "rr", variant_key, players
    )
    rr_reports = [report(rr[o], r, offset=o) for o, r in zip(starts, results, strict=True)]

    # 2. The parity family: screen, then measure the best again.
    main_specials = [0] if flow_p else sorted({0, 1 % players, 2 % players})
    family: dict[tuple[int, ...], set] = {}
    for special in main_specials:
        for c in parity_family(deck, players, special, 3):
            family.setdefault(c, set()).add(special)
    for special in range(players):
        for c in parity_family(deck, players, special, 2):
            family.setdefault(c, set()).add(special)
    candidates = sorted(family)
    screened = measure(variant, players, candidates, SCREEN_ROUNDS, "screen", variant_key, players)
    screen = {c: report(c, r)["spread"] for c, r in zip(candidates, screened, strict=True)}
    outside = [c for c in candidates if c not in allowed]
    chosen = sorted(outside, key=lambda c: (screen[c], c))[:REFINE]
    # The best screened deal for each special seat: the test of which seat is special.
    by_special: dict[int, tuple[int, ...]] = {}
    for c in candidates:
        for special in family[c]:
            best = by_special.get(special)
            if best is None or (screen[c], c) < (screen[best], best):
                by_special[special] = c
    refine = sorted(set(chosen) | set(by_special.values()))
    refined = measure(variant, players, refine, CANDIDATE_ROUNDS, "refine", variant_key, players)
    refined_reports = {
        c: report(c, r, special=sorted(family[c]), within_rules=c in allowed)
        for c, r in zip(refine, refined, strict=True)
    }
    top = sorted(
        (refined_reports[c] for c in chosen), key=lambda rep: (rep["spread"], rep["counts"])
    )
    specials = [{**refined_reports[by_special[s]], "special": s} for s in sorted(by_special)]

    # 3. A million rounds for the deals that matter.
    default_off = deal_start_offset(variant, players, variant.dealing)
    fair_off = deal_start_offset(variant, players, FAIR_DEAL)
    trad_off = deal_start_offset(variant, players, TRADITIONAL_DEAL)
    best_rr = min(rr_reports, key=lambda rep: (rep["spread"], rep["offset"]))
    finals = {
        "fair": rr[fair_off],
        "traditional": rr[trad_off],
        "best_start": rr[best_rr["offset"]],
        "outside_best": tuple(top[0]["counts"]) if top else None,
    }
    final_deals = sorted({c for c in finals.values() if c is not None})
    final_results = measure(
        variant, players, final_deals, FINAL_ROUNDS, "final", variant_key, players
    )
    final_reports = {c: report(c, r) for c, r in zip(final_deals, final_results, strict=True)}

    def final(name: str, **extra):
        c = finals[name]
        return None if c is None else {**final_reports[c], **extra}

    row = {
        "variant": variant_key,
        "players": players,
        "deck": deck,
        "flow": variant.flow,
        "default_deal": variant.dealing,
        "default_offset": default_off,
        "fair": final("fair", offset=fair_off),
        "traditional": final("traditional", offset=trad_off),
        "best_start": final("best_start", offset=best_rr["offset"]),
        "outside_best": final("outside_best", special=top[0]["special"] if top else None),
        "round_robin": rr_reports,
        "screened": len(candidates),
        "screened_outside_rules": len(outside),
        "outside_top": top,
        "by_special": specials,
    }
    # 4. The balanced deal (RULES.md section 7), chosen among what was measured.
    return measure_balanced(row)


def rows() -> list[tuple[str, int]]:
    return [(v.key, n) for v in VARIANTS.values() for n in range(v.min_players, v.max_players + 1)]


def _timed_row(job: tuple[str, int]) -> dict:
    started = time.process_time()
    row = search_row(*job)
    row["cpu_seconds"] = round(time.process_time() - started, 1)
    return row


def measure_all(jobs: int) -> dict:
    """Every row searched, over ``jobs`` processes: the data file's contents."""
    started = time.perf_counter()
    jobs_list = sorted(rows(), key=lambda r: -r[1])  # big tables first
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        found = list(pool.map(_timed_row, jobs_list))
    found.sort(key=lambda r: (r["variant"], r["players"]))
    return {
        "rounds": {"screen": SCREEN_ROUNDS, "candidate": CANDIDATE_ROUNDS, "final": FINAL_ROUNDS},
        "wall_seconds": round(time.perf_counter() - started),
        "cpu_seconds": round(sum(r["cpu_seconds"] for r in found)),
        "rows": found,
    }


def dumps(payload: dict) -> str:
    """The data file's text: one line per variant and table size, so that a re-measured
    row shows as one changed line."""
    head = {k: v for k, v in payload.items() if k != "rows"}
    lines = ",\n".join(json.dumps(row, separators=(",", ":")) for row in payload["rows"])
    return json.dumps(head)[:-1] + ', "rows": [\n' + lines + "\n]}\n"


# -- The balanced deal (RULES.md section 7) --------------------------------------------


def balanced_special(flow: str, players: int) -> int:
    """The seat (offset from the dealer) that the balanced deal gives the other parity:
    the dealer in flow P, the first drawer (the dealer's left) in flow N."""
    return 0 if flow == FLOW_FROM_PREVIOUS else 1 % players


def _other_parity(counts, special: int) -> bool:
    return all(c % 2 != counts[special] % 2 for i, c in enumerate(counts) if i != special)


def one_seat_differs(counts) -> bool:
    """Equal counts for every seat but at most one: the simplest deal to deal by hand."""
    values = sorted(set(counts))
    return len(values) == 1 or (len(values) == 2 and min(counts.count(v) for v in values) == 1)


def _overlap(a: dict, b: dict) -> bool:
    """Neither spread is meaningfully smaller: their 95% intervals meet."""
    return not (a["spread_95"][1] < b["spread_95"][0] or b["spread_95"][1] < a["spread_95"][0])


def balanced_candidates(row: dict) -> list[dict]:
    """Every measured deal of a row that gives the balanced deal's special seat the other
    parity from every other seat (the parity family's measured candidates, and the
    round-robin starts that happen to do it), each once, with its largest measurement."""
    special = balanced_special(row["flow"], row["players"])
    found: dict[tuple[int, ...], dict] = {}
    named = [row.get(k) for k in ("fair", "traditional", "best_start", "outside_best")]
    for entry in [*row["outside_top"], *row["by_special"], *row["round_robin"], *named]:
        if not entry or not _other_parity(entry["counts"], special):
            continue
        key = tuple(entry["counts"])
        if key not in found or found[key]["rounds"] < entry["rounds"]:
            found[key] = entry
    return list(found.values())


def round_robin_offset(counts, deck: int) -> int | None:
    """The start from which a plain round-robin deal gives exactly these counts (dealer
    first), if any."""
    players = len(counts)
    for offset in range(players):
        rr = [0] * players
        for i in range(deck):
            rr[(offset + i) % players] += 1
        if list(counts) == rr:
            return offset
    return None


def choose_balanced(row: dict) -> dict | None:
    """The balanced deal of RULES.md section 7 among a row's measured candidates: the
    smallest spread, except that among the deals whose 95% intervals meet its interval
    one that deals every seat but one the same count is preferred (simplest by hand),
    then the smaller spread, then the counts. Its first card goes to the seat on the
    dealer's left, or, for counts that a plain round-robin deal gives from another start
    (a flow N first recipient), to that start, so that it is dealt without skipping.
    Returns ``{"counts", "offset", "special"}`` or None without candidates."""
    candidates = balanced_candidates(row)
    if not candidates:
        return None
    best = min(candidates, key=lambda e: (e["spread"], e["counts"]))
    near = [e for e in candidates if _overlap(e, best)]
    pick = min(near, key=lambda e: (not one_seat_differs(e["counts"]), e["spread"], e["counts"]))
    offset = round_robin_offset(pick["counts"], row["deck"])
    return {
        "counts": list(pick["counts"]),
        "offset": 1 % row["players"] if offset is None else offset,
        "special": balanced_special(row["flow"], row["players"]),
    }


def measure_balanced(row: dict) -> dict:
    """The row with its ``balanced`` entry: the chosen deal measured with a million
    fresh rounds (its offset and special seat beside the figures)."""
    choice = choose_balanced(row)
    if choice is None:
        return {**row, "balanced": None}
    variant = get_variant(row["variant"])
    (result,) = measure(
        variant,
        row["players"],
        [choice["counts"]],
        FINAL_ROUNDS,
        "balanced",
        row["variant"],
        row["players"],
    )
    return {
        **row,
        "balanced": report(
            choice["counts"], result, offset=choice["offset"], special=choice["special"]
        ),
    }


def add_balanced(payload: dict, jobs: int) -> dict:
    """Every row of ``payload`` with its balanced deal measured (``--balanced``)."""
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        found = list(pool.map(measure_balanced, payload["rows"]))
    return {
        **payload,
        "balanced_wall_seconds": round(time.perf_counter() - started),
        "rows": found,
    }
