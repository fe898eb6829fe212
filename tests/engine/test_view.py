"""The one redaction function, case by case: who sees which hands, which faces of a drawn
card, and which fields at all (an allow-list: nothing passes by default)."""

import pytest

from games.engine.seats import seats_of
from games.engine.view import view_for
from games.identity import Actor

ANN, BOB, CAT = Actor(user_id=1), Actor(user_id=2), Actor(guest="g-cat")
SPECTATOR = None

HANDS = [["AS", "JK", "7D"], ["AH", "9C"], ["5S", "5H", "KD", "QC"]]


def seat(index, *, user_id=None, guest="", kind="human", left=False, covered=False):
    return {
        "index": index,
        "colour": ["red", "green", "yellow"][index],
        "name": f"seat {index}",
        "kind": kind,
        "covered": covered,
        "left": left,
        "away": False,
        "user_id": user_id,
        "guest": guest,
        "away_since": None,
    }


def state(*, mode="friends", seats=None, over=False, event=None, drawer=0, giver=2, host=(1, "")):
    seats = seats or [seat(0, user_id=1), seat(1, user_id=2), seat(2, guest="g-cat")]
    return {
        "version": 7,
        "room": {
            "code": "ABCDEF",
            "variant": "babanuki",
            "variant_name": "Babanuki",
            "mode": mode,
            "status": "playing",
            "seat_count": 3,
            "options": {},
            "rules": {"scoring": "points"},
            "computer_level": "medium",
            "listed": False,
            "host_user_id": host[0],
            "host_guest": host[1],
            "secret_server_field": "x",
        },
        "changed_at": 1.0,
        "unattended_since": None,
        "seats": seats,
        "match": {
            "number": 1,
            "scoring": "points",
            "scores": [0, 0, 0],
            "standings": [0, 1, 2],
            "over": False,
            "winners": None,
            "losers": None,
            "ended_by": None,
            "rounds": [],
            "secret_server_field": "x",
        },
        "round": {
            "number": 1,
            "dealer": 2,
            "state": {
                "hands": HANDS,
                "drawer": None if over else drawer,
                "giver": None if over else giver,
                "draws": 4,
                "discards": [["3S", "3C"]],
                "finish_order": [],
                "removed": [],
            },
            "over": over,
            "commitment": "c0ffee",
            "seed": "5eed",
            "dealt": [["2S"], ["2H"], ["2D"]],
            "deal_version": 1,
            "deal_start": 0,
        },
        "event": event,
        "spectators": 2,
    }


DRAW = {
    "kind": "draw",
    "number": 4,
    "drawer": 0,
    "giver": 2,
    "position": 1,
    "card": "QC",
    "paired_with": "",
    "finished": [],
    "next_giver": 0,
    "next_drawer": 1,
    "over": False,
    "by_computer": False,
    "hand_after": ["AS", "JK", "7D", "QC"],
}
PAIRED = {**DRAW, "card": "5H", "paired_with": "5S"}


@pytest.mark.parametrize(
    ("name", "st", "viewer", "you", "acting", "hands", "card"),
    [
        ("spectator", state(event=DRAW), SPECTATOR, [], None, [], None),
        ("own seat, acting", state(), ANN, [0], 0, ["0"], None),
        ("own seat, not acting", state(), BOB, [1], None, ["1"], None),
        ("a guest's seat", state(), CAT, [2], None, ["2"], None),
        ("drawer sees the drawn card", state(event=DRAW), ANN, [0], 0, ["0"], "QC"),
        ("giver sees the drawn card", state(event=DRAW), CAT, [2], None, ["2"], "QC"),
        ("a third seat does not", state(event=DRAW), BOB, [1], None, ["1"], None),
        ("a pair is face up for all", state(event=PAIRED), SPECTATOR, [], None, [], "5H"),
        (
            "round over: all hands",
            state(over=True, event=DRAW),
            SPECTATOR,
            [],
            None,
            ["0", "1", "2"],
            "QC",
        ),
        ("round over: a player", state(over=True), BOB, [1], None, ["0", "1", "2"], None),
        (
            "same device, acting seat only",
            state(mode="same_device", seats=[seat(i, user_id=1) for i in range(3)], drawer=1),
            ANN,
            [0, 1, 2],
            1,
            ["1"],
            None,
        ),
        (
            "same device, a computer's turn: no hand",
            state(
                mode="same_device",
                seats=[seat(0, user_id=1), seat(1, user_id=1), seat(2, kind="computer")],
                drawer=2,
                giver=1,
            ),
            ANN,
            [0, 1],
            None,
            [],
            None,
        ),
        (
            "same device, the drawn card for the acting drawer",
            state(
                mode="same_device",
                seats=[seat(i, user_id=1) for i in range(3)],
                event=DRAW,
                drawer=1,
                giver=0,
            ),
            ANN,
            [0, 1, 2],
            1,
            ["1"],
            None,
        ),
        (
            "a seat that left is a spectator",
            state(seats=[seat(0, user_id=1, left=True), seat(1, user_id=2), seat(2, guest="g")]),
            ANN,
            [],
            None,
            [],
            None,
        ),
        (
            "a seat given to someone else is not yours",
            state(seats=[seat(0, user_id=9), seat(1, user_id=2), seat(2, guest="g")]),
            ANN,
            [],
            None,
            [],
            None,
        ),
        (
            "a covered seat shows its hand but does not act",
            state(seats=[seat(0, user_id=1, covered=True), seat(1, user_id=2), seat(2)]),
            ANN,
            [0],
            None,
            ["0"],
            None,
        ),
    ],
)
def test_view_for(name, st, viewer, you, acting, hands, card):
    view = view_for(st, viewer)
    assert view["you"] == you, name
    assert view["acting"] == acting, name
    assert sorted(view["round"]["hands"]) == hands, name
    for key, hand in view["round"]["hands"].items():
        assert hand == HANDS[int(key)]
    event = view["event"]
    if st["event"]:
        assert event.get("card") == card, name
        assert "paired_with" not in event and "hand_after" not in event
    over = st["round"]["over"]
    assert (view["round"]["seed"] is not None) == over
    assert (view["round"]["dealt"] is not None) == over


def test_only_named_fields_pass():
    view = view_for(state(event=DRAW), BOB)
    assert "secret_server_field" not in view["room"]
    assert "secret_server_field" not in view["match"]
    for meta in view["seats"]:
        assert set(meta) == {
            "index",
            "colour",
            "name",
            "kind",
            "covered",
            "left",
            "away",
            "played_by_computer",
            "count",
            "place",
            "score",
        }
    assert set(view) == {
        "type",
        "version",
        "room",
        "you",
        "you_left",
        "acting",
        "host",
        "reporting",
        "seats",
        "match",
        "round",
        "event",
        "spectators",
    }
    text = repr(view)
    assert "g-cat" not in text and "user_id" not in text and "changed_at" not in text


def test_nobody_acts_once_the_match_is_over():
    st = state()
    st["match"]["over"] = True
    view = view_for(st, ANN)
    assert view["acting"] is None
    assert view["round"]["drawer"] is None and view["round"]["giver"] is None


def test_seats_come_from_the_state_every_time():
    st = state()
    assert seats_of(st, ANN) == {0}
    st["seats"][0]["user_id"] = 9  # the seat was freed and taken by someone else
    assert seats_of(st, ANN) == frozenset()
    assert view_for(st, ANN)["round"]["hands"] == {}


def test_the_view_says_which_seats_the_computer_plays():
    seats = [
        seat(0, user_id=1),
        seat(1, kind="computer"),
        seat(2, guest="g-cat", covered=True),
    ]
    view = view_for(state(seats=seats), ANN)
    assert [s["played_by_computer"] for s in view["seats"]] == [False, True, True]
    seats[0]["left"] = True
    view = view_for(state(seats=seats), None)
    assert [s["played_by_computer"] for s in view["seats"]] == [True, True, True]


def test_the_view_names_the_hosts_seat_for_everyone_and_who_the_host_is_for_nobody():
    # A guest opened the room: every socket is told its seat, nobody the guest id.
    st = state(host=(None, "g-cat"))
    for viewer in (ANN, BOB, CAT, SPECTATOR):
        view = view_for(st, viewer)
        assert view["host"] == 2
        assert "host_guest" not in view["room"] and "host_user_id" not in view["room"]
        assert "g-cat" not in repr(view)
    assert view_for(state(), SPECTATOR)["host"] == 0
    # A host who left the match plays no seat: no host's seat then.
    seats = [seat(0, user_id=1, left=True), seat(1, user_id=2), seat(2, guest="g-cat")]
    assert view_for(state(seats=seats), BOB)["host"] is None


def test_the_view_names_the_seats_whose_pages_report_telemetry():
    seats = [
        seat(0, user_id=1, left=True),
        seat(1, kind="computer"),
        seat(2, user_id=2),
        {**seat(0, user_id=3, covered=True), "index": 3},
        {**seat(1, guest="g-dan"), "index": 4},
    ]
    seats[2]["away"] = True  # a moment away: still reports the start, not the end
    five = {**state(seats=seats), "match": None, "round": None}  # five seats, no hands
    for viewer in (ANN, BOB, SPECTATOR):
        assert view_for(five, viewer)["reporting"] == {"start": 2, "end": 4}
    # Against the computer, and on a shared device: the page's first seat it has not left.
    alone = [seat(0, user_id=1), seat(1, kind="computer"), seat(2, kind="computer")]
    alone[0]["away"] = True
    view = view_for(state(mode="computer", seats=alone), ANN)
    assert view["reporting"] == {"start": 0, "end": 0}
    shared = [seat(i, user_id=1, left=i == 0) for i in range(3)]
    view = view_for(state(mode="same_device", seats=shared), ANN)
    assert view["reporting"] == {"start": 1, "end": 1}


def test_the_view_tells_a_player_the_seats_they_left_and_nobody_else():
    seats = [seat(0, user_id=1, left=True), seat(1, user_id=2), seat(2, guest="g-cat")]
    view = view_for(state(seats=seats), ANN)
    assert view["you"] == [] and view["you_left"] == [0]
    assert view_for(state(seats=seats), BOB)["you_left"] == []
    assert view_for(state(seats=seats), SPECTATOR)["you_left"] == []


# -- the odd card's moment: "odd" only for the two hands it moved between ----------------

ODD = {**DRAW, "card": "JK", "odd": True, "hand_after": ["AS", "JK", "7D", "JK"]}


@pytest.mark.parametrize(
    ("name", "st", "viewer", "odd"),
    [
        ("the drawer", state(event=ODD), ANN, True),
        ("the giver", state(event=ODD), CAT, True),
        ("a third seat", state(event=ODD), BOB, False),
        ("a spectator", state(event=ODD), SPECTATOR, False),
        ("the drawer, the round over", state(over=True, event=ODD), ANN, True),
        ("a third seat, the round over", state(over=True, event=ODD), BOB, False),
        ("a spectator, the round over", state(over=True, event=ODD), SPECTATOR, False),
        ("the drawer of another card", state(event=DRAW), ANN, False),
        ("the giver of another card", state(event=DRAW), CAT, False),
        (
            "same device, the giver's hand shown (two players: the giver draws next)",
            state(
                mode="same_device",
                seats=[seat(i, user_id=1) for i in range(3)],
                event=ODD,
                drawer=2,
                giver=0,
            ),
            ANN,
            True,
        ),
        (
            "same device, a third seat's hand shown",
            state(
                mode="same_device",
                seats=[seat(i, user_id=1) for i in range(3)],
                event=ODD,
                drawer=1,
                giver=0,
            ),
            ANN,
            False,
        ),
        (
            "a seat given to someone else",
            state(seats=[seat(0, user_id=9), seat(1, user_id=2), seat(2, guest="g")], event=ODD),
            ANN,
            False,
        ),
    ],
)
def test_the_odd_card_is_told_only_to_the_drawer_and_the_giver(name, st, viewer, odd):
    event = view_for(st, viewer)["event"]
    if odd:
        assert event["odd"] is True, name
        assert event["card"] == "JK", name
    else:
        assert "odd" not in event, name  # absent, never false: its absence tells nothing


def _events_of_whole_rounds(variant: str, seed: int):
    """Every draw of a whole three-seat round of ``variant``, as play.py records it."""
    import random

    from games.engine import RoundState

    rng = random.Random(seed)
    rs = RoundState.deal(variant, 3, 0, rng)
    while not rs.over:
        known = rs.known_odd_card(rs.giver)
        result = rs.draw(rng.randrange(rs.count(rs.giver)))
        yield known, {"kind": "draw", **result.as_dict(), "by_computer": False}


@pytest.mark.parametrize("variant", ["babanuki", "jijinuki", "old_maid", "schwarzer_peter"])
def test_whole_rounds_tell_the_odd_card_to_its_two_hands_and_never_in_jijinuki(variant):
    from games.engine.view import redact_event

    odd_draws = 0
    for seed in range(40):
        for known, event in _events_of_whole_rounds(variant, seed):
            assert event["odd"] == (event["card"] == known)
            if variant == "jijinuki":
                assert not event["odd"]
            elif variant == "babanuki":
                assert event["odd"] == (event["card"] == "JK")
            elif variant == "schwarzer_peter":
                assert event["odd"] == (event["card"] == "JC")
            elif event["odd"]:  # Old Maid: a queen, and the other queens all face up
                assert event["card"].startswith("Q")
            odd_draws += event["odd"]
            drawer, giver = event["drawer"], event["giver"]
            third = {0, 1, 2} - {drawer, giver}
            over = event["over"]
            for visible in ({drawer}, {giver}):
                seen = redact_event(event, visible, over)
                assert seen.get("odd", False) == event["odd"]
                assert seen["card"] == event["card"]
            for visible in (third, set()):
                assert "odd" not in redact_event(event, visible, over)
    if variant == "jijinuki":
        assert odd_draws == 0
    else:
        assert odd_draws > 20
