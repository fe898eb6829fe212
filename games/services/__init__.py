"""The only code that changes a room (DESIGN.md: one writer per room), one module per
kind of change over one shared change helper (``change.py``):

- ``rooms``: opening rooms, seats before the start, starting and dealing, abandonment;
- ``play``: draws (human and computer), leaving and resigning (from the profile too);
- ``presence``: connections, seats away and back, the computer covering a seat;
- ``public_tables``: Play now's seats at public tables, and their start;
- ``limits``: how many rooms one person may open;
- ``accounts``: a guest's games kept when they sign up or log in.

Callers use the names below (``services.draw(...)``); they are the services' whole
public surface.
"""

from games.identity import Actor
from games.services.accounts import claim_guest_games
from games.services.change import all_sent, bot_token, with_token
from games.services.limits import room_creation
from games.services.play import (
    computer_turn,
    computer_turn_on_loop,
    draw,
    draw_on_loop,
    end_unfinished,
    leave_match,
    resign,
)
from games.services.presence import (
    connect,
    cover_seat,
    disconnect,
    heartbeat,
    sweep_stale_presences,
    sweep_stale_watchers,
)
from games.services.public_tables import free_waiting_seat, start_table
from games.services.public_tables import join as play_now
from games.services.public_tables import leave as leave_table
from games.services.rooms import (
    abandon_room,
    create_room,
    deal_next_round,
    join_refusal,
    join_room,
    next_round,
    rematch,
    remove_player,
    set_computer_speed,
    start_match,
)

__all__ = [
    "Actor",
    "abandon_room",
    "all_sent",
    "bot_token",
    "claim_guest_games",
    "computer_turn",
    "computer_turn_on_loop",
    "connect",
    "cover_seat",
    "create_room",
    "deal_next_round",
    "disconnect",
    "draw",
    "draw_on_loop",
    "end_unfinished",
    "free_waiting_seat",
    "heartbeat",
    "join_refusal",
    "join_room",
    "leave_match",
    "leave_table",
    "next_round",
    "play_now",
    "rematch",
    "remove_player",
    "resign",
    "room_creation",
    "set_computer_speed",
    "start_match",
    "start_table",
    "sweep_stale_presences",
    "sweep_stale_watchers",
    "with_token",
]
