"""Rooms for tests, opened through the services as the site opens them: a factory per
mode, the seats filled by who joins, the match started; and, over the table's socket
(``tests.games.conftest.Player``), the players brought to the table.

Who opens or joins a room may be named by an ``Actor``, a user (their account) or a
test ``Player`` (its actor). A room is babanuki for two unless a test says otherwise;
every other rule is the services' own default unless given (``rounds=1``, ...)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from django.test import override_settings

from games import selectors, services
from games.engine import get_variant
from games.engine.variants import POINTS
from games.errors import ActionError
from games.models import Room
from tests.play import play_match_out
from tests.support import ply

if TYPE_CHECKING:  # the socket helpers' players; the factories need none of it
    from tests.games.conftest import Player


def actor_of(who) -> services.Actor:
    """The actor behind ``who``: an Actor, a user or a test Player."""
    if isinstance(who, services.Actor):
        return who
    if hasattr(who, "actor"):
        return who.actor
    return services.Actor(user_id=who.pk)


def name_of(who) -> str:
    """The seat name ``who`` sits under unless a test names it: a user's own name."""
    return who.get_username() if hasattr(who, "get_username") else "host"


def one_round(variant: str) -> dict:
    """The rule that makes a match of ``variant`` short: one round where rounds are
    counted (points games), the default strike limit where strikes are."""
    return {"rounds": 1} if get_variant(variant).scoring == POINTS else {}


# -- rooms, through the services ------------------------------------------------------------


def open_room(host, mode: str, *, name=None, variant="babanuki", seats=2, **rules) -> Room:
    """A room of ``mode`` opened by ``host`` (versus the computer and on one device it
    starts at once)."""
    return services.create_room(
        actor=actor_of(host),
        name=name or name_of(host),
        variant=variant,
        seat_count=seats,
        mode=mode,
        **rules,
    )


def computer_room(host, **options) -> Room:
    """A room versus the computer, started: ``host`` in seat 0, computers in the rest."""
    return open_room(host, Room.Mode.COMPUTER, **options)


def friends_room(
    host, joined: Mapping | None = None, *, start=False, fill=False, **options
) -> Room:
    """A friends room of ``host``'s; ``joined`` (seat name: who) take the next seats in
    order. With ``start``, the host starts the match (``fill``: computers in the empty
    seats)."""
    room = open_room(host, Room.Mode.FRIENDS, **options)
    for name, who in (joined or {}).items():
        services.join_room(room_id=room.pk, actor=actor_of(who), name=name)
    if start:
        services.start_match(room_id=room.pk, actor=actor_of(host), fill_with_computers=fill)
    return room


def rematch_with_a_covered_seat(people: list, *, seats: int, how: str) -> Room:
    """A friends room of ``people`` (the first the host; computers in the other seats,
    one round a match) in its second match, the last person's seat covered by the
    computer: ``how`` "left" (they left match 1, so the seat is told as left before) or
    "away" (their page closed in match 2 and stayed away past the grace)."""
    host, *others = (actor_of(who) for who in people)
    joined = {f"p{i}": actor for i, actor in enumerate(others, start=1)}
    room = friends_room(host, joined, seats=seats, rounds=1, start=True, fill=True)
    last = len(people) - 1
    if how == "left":
        services.leave_match(room_id=room.pk, actor=others[-1])
    playing = people[:last] if how == "left" else people
    play_match_out(room.pk, {i: actor_of(who) for i, who in enumerate(playing)})
    services.rematch(room_id=room.pk, actor=host)
    if how == "away":
        channel = f"away.{room.pk}"
        services.connect(room_id=room.pk, actor=others[-1], channel_name=channel)
        services.disconnect(room_id=room.pk, channel_name=channel)
        with override_settings(SEAT_GRACE_SECONDS=0):
            version = Room.objects.get(pk=room.pk).version
            assert services.cover_seat(room_id=room.pk, seat_index=last, version=version)
    room.refresh_from_db()
    return room


def signed_in_friends_room(
    seats: int, humans: int, *, tag: str = "", **rules
) -> tuple[Room, list[str]]:
    """A started friends room of babanuki: ``humans`` signed-in players (player0, the
    host, player1, ...; their accounts' names end in ``tag``) and computers in the rest;
    and each player's session key."""
    from tests.games.conftest import make_session, make_user

    users = [make_user(f"player{i}{tag}") for i in range(humans)]
    joined = {f"player{i}": user for i, user in enumerate(users[1:], start=1)}
    room = friends_room(users[0], joined, seats=seats, start=True, fill=True, **rules)
    return room, [make_session(user=user) for user in users]


#: Cards in the hands at the least, so that the few draws a test makes cannot end the
#: round: each draw takes at most one pair (two cards), and the round ends at the odd card
#: alone. A round's last draw takes the locked path, which the kept-room tests are not
#: about (one deal in twenty for two leaves fewer, and the CI run met one).
CARDS_FOR_A_FEW_DRAWS = 8


def two_seat_room(cards: int = CARDS_FOR_A_FEW_DRAWS):
    """Babanuki for two, a person against the computer, the person to draw, on a deal
    with ``cards`` cards in the hands."""
    from tests.games.conftest import make_user

    for attempt in range(100):
        user = make_user(f"kept{attempt}")
        room = computer_room(user, seats=2, rounds=1)
        actor = services.Actor(user_id=user.pk)
        try:
            while (state := selectors.snapshot(room.pk)["round"]["state"])["drawer"] != 0:
                room.refresh_from_db()
                services.computer_turn(room_id=room.pk, version=room.version)
        except ActionError:  # the computer's draws ended this deal's round: another deal
            continue
        if sum(len(hand) for hand in state["hands"]) >= cards:
            return room, actor
    raise AssertionError(f"no deal of 100 left {cards} cards in the hands")


def draw_ply(room_id: int) -> dict:
    """The fields naming the room's next draw (``tests.support.ply``), read from the
    database."""
    state = selectors.snapshot(room_id)
    return {
        "match": state["match"]["number"],
        "round": state["round"]["number"],
        "draw": state["round"]["state"]["draws"],
    }


def easy_room_where_the_computer_gives_the_joker(me, **options):
    """An Easy computer room in which ``me`` draws first from the computer, who holds the
    joker; and the joker's position in its hand."""
    for _ in range(40):
        room = computer_room(me, seats=2, rounds=1, computer_level="easy", **options)
        state = selectors.snapshot(room.pk)
        rnd = state["round"]["state"]
        if rnd["drawer"] == 0 and "JK" in rnd["hands"][rnd["giver"]]:
            return room, rnd["hands"][rnd["giver"]].index("JK")
        Room.objects.filter(pk=room.pk).delete()
    raise AssertionError("no deal gave the computer the joker with the human to draw")


def signed_in_easy_room_where_the_computer_gives_the_joker():
    """``easy_room_where_the_computer_gives_the_joker`` of a new account, "reader"; and
    the reader's session key."""
    from tests.games.conftest import make_session, make_user

    user = make_user("reader")
    room, joker = easy_room_where_the_computer_gives_the_joker(user)
    return room, joker, make_session(user=user)


# -- at the table, over its socket ----------------------------------------------------------


async def signed_in(*names: str) -> list[Player]:
    """A signed-in player (a new account) for each of ``names``."""
    from tests.games.conftest import Player

    return [await Player.user(name) for name in names]


async def at_table(room: Room, *players: Player) -> None:
    """Every one of ``players`` opens the room's table and reads its snapshot."""
    for player in players:
        assert await player.connect(room.code), player.close_code


async def computer_table(player: Player, **options) -> Room:
    """A room versus the computer opened by ``player``, who is at its table."""
    room = await database_sync_to_async(computer_room)(player, **options)
    await at_table(room, player)
    return room


async def waiting_table(host: Player, joined: Mapping | None = None, **options) -> Room:
    """A waiting friends room of ``host``'s; ``joined`` (seat name: player) sit down; the
    host and everyone who joined are at its table."""
    room = await database_sync_to_async(friends_room)(host, joined, **options)
    await at_table(room, host, *(joined or {}).values())
    return room


async def playing_table(
    host: Player, joined: Mapping | None = None, *, fill=True, **options
) -> Room:
    """``waiting_table``, then the host starts the match from the table (``fill``:
    computers in the empty seats) and every player there sees it playing."""
    room = await waiting_table(host, joined, **options)
    await host.send(type="start", fill=fill)
    await host.until(lambda s: s["room"]["status"] != "waiting")
    # A deal can end its round at once (with two seats, about one in 8,000: every rank
    # pairs off in one hand): the host deals again, a rematch or the next round, as a
    # person would, until a round is in play.
    while host.state["round"]["over"]:
        version = host.state["version"]
        kind = "rematch" if host.state["match"]["over"] else "next_round"
        await host.send(type=kind, **ply(host.state, kind))
        await host.until(lambda s, version=version: s["version"] > version)
    for player in (host, *(joined or {}).values()):
        await player.until(lambda s: s["room"]["status"] == "playing" and not s["round"]["over"])
    return room


async def friends_in_play(
    *names: str, variant="babanuki", seats=None, **rules
) -> tuple[Room, list[Player]]:
    """A friends match in play and everyone at its table: a signed-in player for each of
    ``names`` (an account and a seat of that name; the first hosts, the others join in
    order), computers in the seats left (``seats``: one a name unless given)."""
    host, *others = await signed_in(*names)
    room = await playing_table(
        host,
        dict(zip(names[1:], others, strict=True)),
        name=names[0],
        variant=variant,
        seats=seats or len(names),
        **rules,
    )
    return room, [host, *others]


#: The new-game form as a page without scripts posts it (``post_new_game``).
NEW_GAME_FORM = {
    "variant": "babanuki",
    "seat_count": 4,
    "mode": "computer",
    "computer_level": "medium",
    "rounds": 3,
    "strike_limit": 3,
}


def post_new_game(client, **fields):
    """The new-game form posted with ``fields`` changed from ``NEW_GAME_FORM``."""
    return client.post("/new/", {**NEW_GAME_FORM, **fields})
