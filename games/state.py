"""The room's full state (server side only) and the one function that redacts it.

``room_state`` gathers everything about a room, hidden faces included; it never leaves
the server. ``view_for`` is the only code that decides what a socket may know
(RULES.md section 9): its own hand, every seat's count, place and score, the face-up
pairs, whose turn it is, and the public facts of each draw.
"""

from __future__ import annotations

from games import rows
from games.engine import MatchRules, MatchScore, RoundResult, get_variant
from games.models import COLOURS, Match, Room


def load(room: Room) -> tuple[list, Match | None, list]:
    """The room's seats, its latest match and that match's rounds in order: two queries
    (a draw builds the new state from the rows it has already read, without reading
    them again)."""
    seats = rows.seats(room.pk)
    match, rounds = rows.latest_match(room.pk)
    if match is None:  # never for a started match: it is created with its first round
        match = room.matches.order_by("-number").first()
    return seats, match, rounds


def room_state(room: Room, event: dict | None = None, loaded: tuple | None = None) -> dict:
    """Everything about ``room`` as plain data, for broadcasting and snapshots.

    ``loaded`` is what ``load(room)`` returned, if the caller already has it."""
    seats, match, rounds = loaded if loaded is not None else load(room)
    spectators = getattr(room, "spectators_now", None)
    state: dict = {
        "version": room.version,
        "room": {
            "code": room.code,
            "variant": room.variant,
            "variant_name": get_variant(room.variant).name,
            "mode": room.mode,
            "status": room.status,
            "seat_count": room.seat_count,
            "options": room.options,
            "rules": room.rules,
            "computer_level": room.computer_level,
            "listed": room.listed,
        },
        "seats": [
            {
                "index": s.index,
                "colour": COLOURS[s.index],
                "name": s.name,
                "kind": "computer" if s.is_computer else ("empty" if s.is_empty else "human"),
                "covered": s.covered,
                "left": s.left,
                "away": s.away_since is not None,
            }
            for s in seats
        ],
        "match": None,
        "round": None,
        "event": event,
        "spectators": room.watchers.count() if spectators is None else spectators,
    }
    if match is None:
        return state
    score = match_score(room, match, rounds)
    state["match"] = {
        "number": match.number,
        "scoring": score.rules.scoring,
        "scores": score.scores(),
        "standings": score.standings(),
        "over": match.finished_at is not None,
        "winners": match.winners,
        "losers": match.losers,
        "ended_by": match.ended_by,
        "rounds": [
            {
                "number": r.number,
                "dealer": r.dealer,
                "ranking": r.ranking,
                "holder": r.holder,
                "removed": r.removed if r.finished_at else None,
            }
            for r in rounds
            if r.finished_at is not None
        ],
    }
    if rounds:
        current = rounds[-1]
        state["round"] = {
            "number": current.number,
            "dealer": current.dealer,
            "state": current.state,
            "over": current.finished_at is not None,
            "commitment": current.commitment,
            "seed": current.seed,  # secret: view_for reveals it only once the round is over
            "dealt": current.dealt,
        }
    return state


def match_score(room: Room, match, rounds) -> MatchScore:
    score = MatchScore.start(
        room.variant, room.seat_count, MatchRules(**match.rules), match.first_dealer
    )
    for r in rounds:
        if r.finished_at is not None:
            score.results.append(RoundResult(ranking=tuple(r.ranking or ()), holder=r.holder))
    return score


def view_for(state: dict, seats: frozenset[int] = frozenset(), same_device: bool = False) -> dict:
    """What a socket controlling ``seats`` may know of ``state`` (spectators: no seats).

    On a shared device the socket controls every human seat, but only the seat whose turn
    it is has its hand shown.
    """
    rnd = state["round"]
    round_state = rnd["state"] if rnd else None
    hands = round_state["hands"] if round_state else None
    over = bool(rnd and rnd["over"])
    # A match ended early (resigned, abandoned) stops its round where it stood: nobody
    # draws any more.
    in_play = bool(round_state) and not over and not (state["match"] or {}).get("over")
    drawer = round_state["drawer"] if in_play else None
    giver = round_state["giver"] if in_play else None
    seats_meta = state["seats"]
    acting = None
    if drawer is not None and drawer in seats:
        seat_meta = seats_meta[drawer]
        if not (seat_meta["covered"] or seat_meta["left"] or seat_meta["kind"] == "computer"):
            acting = drawer
    visible = {acting} - {None} if same_device else set(seats)

    match = state["match"]
    places = {}
    if round_state:
        for place, seat in enumerate(round_state["finish_order"], start=1):
            places[seat] = place
    view = {
        "type": "state",
        "version": state["version"],
        "room": state["room"],
        "you": sorted(seats),
        "acting": acting,
        "seats": [
            {
                **meta,
                "count": len(hands[meta["index"]]) if hands else 0,
                "place": places.get(meta["index"]),
                "score": match["scores"][meta["index"]] if match else 0,
            }
            for meta in seats_meta
        ],
        "match": match,
        "round": None,
        "event": redact_event(state["event"], visible, over),
        "spectators": state.get("spectators", 0),
    }
    if rnd:
        view["round"] = {
            "number": rnd["number"],
            "dealer": rnd["dealer"],
            "over": over,
            "draws": round_state["draws"],
            "drawer": drawer,
            "giver": giver,
            "discards": round_state["discards"],
            "hands": {str(s): hands[s] for s in range(len(hands)) if over or s in visible},
            "removed": round_state["removed"] if over else None,
            # The deal's commitment from the start; the seed and the dealt hands once over,
            # so that anyone can recompute and check the deal.
            "commitment": rnd["commitment"],
            "seed": rnd["seed"] if over else None,
            "dealt": rnd["dealt"] if over else None,
            "ranking": (round_state["finish_order"] + _holder(hands)) if over else None,
        }
    return view


def _holder(hands) -> list[int]:
    return [s for s, h in enumerate(hands) if h]


def redact_event(event: dict | None, visible: set[int], over: bool) -> dict | None:
    """A change as this audience may see it: a drawn card's face only for the drawer and
    the giver, or once it is discarded face up, or once the round is over."""
    if event is None or event.get("kind") != "draw":
        return event
    public = {k: v for k, v in event.items() if k not in ("card", "paired_with", "hand_after")}
    public["paired"] = bool(event["paired_with"])
    public["discarded"] = [event["paired_with"], event["card"]] if event["paired_with"] else None
    if over or event["paired_with"] or event["drawer"] in visible or event["giver"] in visible:
        public["card"] = event["card"]
    return public
