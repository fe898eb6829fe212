"""No message ever shows a seat (or a spectator, or a bot on its token socket) the face of
a card in another seat's hand, over complete games of every variant; nor tells anyone
but the drawer and the giver that a draw moved the odd card (the event's ``odd``), and
those two always. The truth comes from replaying each round from its stored rows, which
also proves a round replays exactly."""

import json
import random

import pytest
from channels.db import database_sync_to_async

from games.engine import RoundState
from games.models import Bot, Round, Seat
from games.services import bots
from tests.games.conftest import Player, match_ended, play_to_match_end
from tests.rooms import signed_in, waiting_table

pytestmark = pytest.mark.django_db(transaction=True)


def replay(rnd: Round, room) -> tuple[dict[int, list[list[str]]], set[int]]:
    """Hands after each draw number (0: after the deal), replayed from the rows; and the
    numbers of the draws that moved the giver's known odd card."""
    state = RoundState.from_hands(room.variant, rnd.dealt, rnd.dealer, room.options)
    hands = {0: [list(h) for h in state.hands]}
    odd = set()
    for row in rnd.draws.all():
        assert (state.drawer, state.giver) == (row.drawer, row.giver)
        if state.known_odd_card(row.giver) == state.hands[row.giver][row.position]:
            odd.add(row.number)
        result = state.draw(row.position)
        assert result.card == row.card
        assert (result.paired_with or "") == row.paired_with
        assert list(result.finished) == row.finished
        state.arrange_hand(row.drawer, row.hand_after)
        hands[row.number] = [list(h) for h in state.hands]
    assert state.to_dict()["hands"] == rnd.state["hands"]
    assert state.finish_order == rnd.state["finish_order"]
    assert state.ranking == (rnd.ranking or [])
    return hands, odd


def truth(room):
    rounds = list(Round.objects.filter(match__room=room).select_related("match"))
    replayed = {(r.match.number, r.number): replay(r, room) for r in rounds}
    hands = {key: hands for key, (hands, _) in replayed.items()}
    odd = {key: odd for key, (_, odd) in replayed.items()}
    seeds = {(r.match.number, r.number): r.seed for r in rounds}
    return hands, odd, seeds


def seat_owners(room, sockets) -> dict:
    seats = list(Seat.objects.filter(room=room))
    return {socket: {s.index for s in seats if holder(socket.actor, s)} for socket in sockets}


def holder(actor, seat) -> bool:
    """The seat's holder, from its row alone (not the product's rule): the same user, or
    the same guest browser, and not left."""
    same_user = actor.user_id is not None and seat.user_id == actor.user_id
    return not seat.left and (same_user or (bool(actor.guest) and seat.guest == actor.guest))


def seat_bot(room, host, name: str) -> None:
    """The bot ``name`` invited by ``host`` and seated, as its accept would."""
    made = bots.challenge(room_id=room.pk, actor=host.actor, bot_name=name)
    bots.accept(bot=Bot.objects.get(user__username=name), challenge_id=made.pk)


def faces_in(message: dict) -> str:
    message = json.loads(json.dumps(message))
    message["room"]["code"] = ""  # a room code may spell a card by chance
    return json.dumps(message)


@pytest.mark.parametrize(
    ("variant", "rules"),
    [
        ("babanuki", {"rounds": 1}),
        ("jijinuki", {"rounds": 1}),
        ("old_maid", {"strike_limit": 1}),
        ("schwarzer_peter", {"strike_limit": 1}),
    ],
)
async def test_no_message_reveals_a_hidden_face(variant, rules):
    players = [*await signed_in("a", "b"), await Player.bot("Cee")]
    room = await waiting_table(
        players[0], {"b": players[1]}, name="a", variant=variant, seats=4, **rules
    )
    await database_sync_to_async(seat_bot)(room, players[0], "Cee")
    await players[2].connect(room.code)
    spectator = await Player.guest("watcher")
    await spectator.connect(room.code, token=room.token)
    await players[0].send(type="start", fill=True)  # seat 3 is a computer
    await play_to_match_end(*players, rng=random.Random(variant))
    await spectator.until(match_ended)

    hands_at, odd_at, seeds = await database_sync_to_async(truth)(room)
    owners = await database_sync_to_async(seat_owners)(room, [*players, spectator])
    checked = 0
    odd_told = 0
    for socket in [*players, spectator]:
        # Who holds which seat comes from the database, not from the message checked.
        mine = owners[socket]
        for message in socket.messages:
            if message["type"] != "state" or not message["round"]:
                continue
            event = message["event"]
            if event and event.get("kind") == "draw":
                # The odd card's moment: the drawer's and the giver's alone, even once the
                # round is over; the key is absent, never false, for everyone else.
                key = (message["match"]["number"], message["round"]["number"])
                party = bool({event["drawer"], event["giver"]} & mine)
                odd = party and event["number"] in odd_at[key]
                assert event.get("odd", "absent") == (True if odd else "absent"), (
                    socket.actor,
                    message,
                )
                odd_told += odd
            if message["round"]["over"]:
                continue
            assert set(message["you"]) == mine
            key = (message["match"]["number"], message["round"]["number"])
            hands = hands_at[key][message["round"]["draws"]]
            allowed = {c for s in mine for c in hands[s]}
            if event and event.get("kind") == "draw" and {event["drawer"], event["giver"]} & mine:
                allowed.add(event["card"])
            hidden = {c for s, h in enumerate(hands) if s not in mine for c in h} - allowed
            text = faces_in(message)
            leaked = [c for c in hidden if f'"{c}"' in text]
            assert not leaked, (socket.actor, message)
            # Nor the deal's seed, from which every hand could be recomputed.
            assert seeds[key] not in text and message["round"]["dealt"] is None
            checked += 1
    assert checked > 20
    if variant == "jijinuki":
        assert odd_told == 0  # its odd card is nobody's to know until the end
