"""The shape of a room's full state: built by ``games.state.room_state`` once per change,
read by ``view.view_for`` (what a socket may know), ``games.schedule`` (the server's next
move), the driver and the table socket. Server side only: it holds every hand and who
holds each seat. Plain data, so that it travels through the channel layer as it is;
``tests/games/test_state_shape.py`` checks that ``room_state`` builds exactly these
keys."""

from __future__ import annotations

from typing import TypedDict


class RoomInfo(TypedDict):
    code: str
    variant: str
    variant_name: str
    mode: str
    status: str
    seat_count: int
    options: dict
    rules: dict
    computer_level: str
    computer_speed: str
    listed: bool
    public: bool  # a public table Play now opened
    starts_at: float | None  # when it starts by itself while waiting (epoch seconds)
    # Server side only: who opened the room (``seats.host_seat`` finds their seat).
    host_user_id: int | None
    host_guest: str


class SeatState(TypedDict):
    index: int
    colour: str
    name: str
    kind: str  # "human", "computer" or "empty"
    covered: bool  # the computer plays it while its human is away
    left: bool  # its human left the match: the computer plays it
    away: bool
    bot: bool  # a bot account holds it (docs/bots.md)
    # Covered because its human left the previous match (a rematch followed), not away:
    # false in a first match.
    left_before: bool
    # Server side only: who holds the seat, and since when it is away (seconds).
    user_id: int | None
    guest: str
    away_since: float | None


class RoundResultState(TypedDict):
    number: int
    dealer: int
    ranking: list[int] | None
    holder: int | None
    removed: list[str]


class MatchState(TypedDict):
    number: int
    scoring: str
    scores: list
    standings: list
    over: bool
    winners: list[int] | None
    losers: list[int] | None
    ended_by: dict | None
    rounds: list[RoundResultState]  # the finished rounds, in order


class RoundInfo(TypedDict):
    number: int
    dealer: int
    state: dict  # games.engine.round.RoundState.to_dict()
    over: bool
    commitment: str
    seed: str  # secret until the round is over (view_for)
    dealt: list
    deal_version: int
    deal_start: int | None
    deal_counts: list[int] | None


class RoomState(TypedDict):
    version: int
    room: RoomInfo
    # Server side only: when the room last changed and since when nobody is there
    # (seconds since the epoch).
    changed_at: float | None
    unattended_since: float | None
    seats: list[SeatState]
    match: MatchState | None
    round: RoundInfo | None  # the match's current (latest) round
    event: dict | None  # what changed it: {"kind": "draw", ...}
    spectators: int
