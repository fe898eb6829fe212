"""What one socket may know of a room (RULES.md section 9): the one redaction function.

``view_for`` takes the room's full state (``games.state.room_state``: plain data, hidden
faces and who holds each seat included) and who is looking, and builds the view from an
explicit allow-list: a field reaches a client only when this module names it. Which
seats a viewer plays (``seats.seats_of``) is read from the state itself every time, never
remembered, so a socket whose seat was freed or given away stops seeing that seat's cards
with the very next state (DESIGN.md: rights come from the state, every time).

Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .seats import Viewer, host_seat, played_by_computer, reporting_seats, seats_of
from .shapes import RoomState

#: The room's public description.
ROOM_FIELDS = (
    "code",
    "variant",
    "variant_name",
    "mode",
    "status",
    "seat_count",
    "options",
    "rules",
    "computer_level",
    "computer_speed",
    "listed",
    "public",
    "starts_at",
)
#: What everyone may know of each seat (who holds it is not among them); the view adds
#: ``played_by_computer`` (``seats.played_by_computer``), so pages need not work it out.
SEAT_FIELDS = ("index", "colour", "name", "kind", "covered", "left", "away", "bot", "left_before")
#: The match's public record.
MATCH_FIELDS = (
    "number",
    "scoring",
    "scores",
    "standings",
    "over",
    "winners",
    "losers",
    "ended_by",
    "rounds",
)
MATCH_ROUND_FIELDS = ("number", "dealer", "ranking", "holder", "removed")
#: A draw's public facts; the card's face is added only for those who may see it.
DRAW_EVENT_FIELDS = (
    "kind",
    "number",
    "drawer",
    "giver",
    "position",
    "finished",
    "next_giver",
    "next_drawer",
    "over",
    "by_computer",
)
#: Events other than draws carry only these.
EVENT_FIELDS = ("kind", "seat", "seats", "round")


def _pick(data: Mapping[str, object], fields: Iterable[str]) -> dict:
    return {name: data[name] for name in fields if name in data}


def view_for(state: RoomState, viewer: Viewer | None = None) -> dict:
    """What ``viewer`` may know of ``state`` (``None``: a spectator).

    On a shared device the viewer holds every human seat, but only the hand of the seat
    whose turn it is is shown.
    """
    seats = seats_of(state, viewer)
    room = state["room"]
    same_device = state["room"]["mode"] == "same_device"
    rnd = state["round"]
    round_state = rnd["state"] if rnd else None
    hands = round_state["hands"] if round_state else None
    match = state["match"]
    over = bool(rnd and rnd["over"])
    # A match ended early (resigned, abandoned) stops its round where it stood: nobody
    # draws any more.
    in_play = bool(round_state) and not over and not (match and match["over"])
    # (in_play holds only with a round_state: the second test only tells the checker.)
    drawer = round_state["drawer"] if in_play and round_state else None
    giver = round_state["giver"] if in_play and round_state else None
    acting: int | None = None
    if drawer is not None and drawer in seats and not played_by_computer(state["seats"][drawer]):
        acting = drawer
    visible: set[int] = (set() if acting is None else {acting}) if same_device else set(seats)
    places = {}
    if round_state:
        for place, seat in enumerate(round_state["finish_order"], start=1):
            places[seat] = place
    view = {
        "type": "state",
        "version": state["version"],
        "room": _pick(state["room"], ROOM_FIELDS),
        "you": sorted(seats),
        # The seats this socket's player left to the computer for the rest of the match.
        "you_left": sorted(seats_of(state, viewer, including_left=True) - seats),
        "acting": acting,
        # Public facts the pages read rather than work out (``seats.py``): the host's seat,
        # and the seats whose pages report a match starting and finishing.
        "host": host_seat(state["seats"], room.get("host_user_id"), room.get("host_guest", "")),
        "reporting": reporting_seats(room["mode"], state["seats"]),
        "seats": [
            {
                **_pick(meta, SEAT_FIELDS),
                "played_by_computer": played_by_computer(meta),
                "count": len(hands[meta["index"]]) if hands else 0,
                "place": places.get(meta["index"]),
                "score": match["scores"][meta["index"]] if match else 0,
            }
            for meta in state["seats"]
        ],
        "match": None,
        "round": None,
        "event": redact_event(state["event"], visible, over),
        "spectators": state["spectators"],
    }
    if match:
        view["match"] = {
            **_pick(match, MATCH_FIELDS),
            "rounds": [_pick(r, MATCH_ROUND_FIELDS) for r in match["rounds"]],
        }
    if rnd:
        # A round's state always holds the hands (RoundState.to_dict).
        assert round_state is not None and hands is not None
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
            # The deal's commitment from the start; the seed, the dealt hands and the deal
            # record once over, so that anyone can recompute and check the deal.
            "commitment": rnd["commitment"],
            "seed": rnd["seed"] if over else None,
            "dealt": rnd["dealt"] if over else None,
            "deal_version": rnd["deal_version"] if over else None,
            "deal_start": rnd["deal_start"] if over else None,
            "deal_counts": rnd.get("deal_counts") if over else None,
            "ranking": (round_state["finish_order"] + _holding(hands)) if over else None,
        }
    return view


def _holding(hands) -> list[int]:
    return [s for s, h in enumerate(hands) if h]


def redact_event(event: dict | None, visible: set[int], over: bool) -> dict | None:
    """A change as this audience may see it: a drawn card's face only for the drawer and
    the giver, or once it is discarded face up, or once the round is over.

    ``odd: true`` (the card was the odd card, known as such to both hands it moved
    between) only for the drawer and the giver, and only while they see the card as
    theirs: never for being the round's end, nor to a third seat or a spectator, for
    whom the key is absent, as it is on every other draw."""
    if event is None:
        return None
    if event.get("kind") != "draw":
        return _pick(event, EVENT_FIELDS)
    public = _pick(event, DRAW_EVENT_FIELDS)
    public["paired"] = bool(event["paired_with"])
    public["discarded"] = [event["paired_with"], event["card"]] if event["paired_with"] else None
    party = event["drawer"] in visible or event["giver"] in visible
    if over or event["paired_with"] or party:
        public["card"] = event["card"]
    if party and event.get("odd"):
        public["odd"] = True
    return public
