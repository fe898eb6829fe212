"""The rules of a round, played card by card (RULES.md sections 2 and 3)."""

import pytest

from games.engine import BadPosition, RoundOver, RoundState, RulesError


def draw_card(state: RoundState, card: str):
    """Draw a named card from the current giver (tests know the faces)."""
    return state.draw(state.hand(state.giver).index(card))


RED, GREEN, YELLOW, BLUE = 0, 1, 2, 3


class TestWorkedExamples:
    def test_schwarzer_peter_example_from_the_rules(self):
        # P1 = 0 (dealer), P2 = 1, P3 = 2; hands after the initial discard.
        state = RoundState.from_hands("schwarzer_peter", [["8S", "KD"], ["8H", "KC"], ["JC"]], 0)
        assert (state.drawer, state.giver) == (1, 2)  # P2 draws from P3

        result = draw_card(state, "JC")
        assert result.finished == (2,)
        assert result.paired_with is None
        assert (state.drawer, state.giver) == (0, 1)  # P3 is out: P1 draws from P2

        result = draw_card(state, "8H")
        assert result.discarded == ("8S", "8H")
        assert state.hand(0) == ["KD"]
        assert (state.drawer, state.giver) == (1, 0)

        result = draw_card(state, "KD")
        assert result.discarded == ("KC", "KD")
        assert result.finished == (0,)
        assert state.over and result.over
        assert state.finish_order == [2, 0]
        assert state.loser == 1 and state.hand(1) == ["JC"]
        assert (state.giver, state.drawer) == (None, None)

    def test_three_player_old_maid_example_from_the_seed(self):
        # A = 0 deals; the left neighbours run A -> B -> C -> A. Queen of clubs removed.
        state = RoundState.from_hands(
            "old_maid",
            [["2S", "2H", "2D", "QS"], ["2C", "7S", "QH", "QD"], ["7H", "7D", "7C"]],
            0,
        )
        # Three 2s: two go, one stays; the queens pair; three 7s leave one.
        assert state.hands == [["2D", "QS"], ["2C", "7S"], ["7C"]]
        assert (state.giver, state.drawer) == (0, 1)  # A offers first, to B

        draw_card(state, "QS")
        assert state.hand(1) == ["2C", "7S", "QS"]  # the drawn card joins the right end
        assert (state.giver, state.drawer) == (1, 2)

        result = draw_card(state, "7S")
        assert result.finished == (2,)
        assert (state.giver, state.drawer) == (0, 1)  # C is out: A offers to B

        result = draw_card(state, "2D")
        assert result.finished == (0,)  # A's last card was drawn
        assert state.over
        assert state.finish_order == [2, 0]
        assert state.loser == 1 and state.hand(1) == ["QS"]


class TestFlowP:
    def test_skip_rule_when_the_drawer_finishes(self):
        # Red draws from Blue and finishes; Green does not draw; Yellow draws from Green.
        hands = [["5S"], ["7D", "9S"], ["9H", "JK"], ["5H", "7C"]]
        state = RoundState.from_hands("babanuki", hands, dealer=BLUE)
        assert (state.giver, state.drawer) == (BLUE, RED)
        result = draw_card(state, "5H")
        assert result.finished == (RED,)
        assert (state.giver, state.drawer) == (GREEN, YELLOW)

    def test_giver_drawn_out_play_continues_from_the_drawer(self):
        hands = [["5S", "8C"], ["7D", "9S"], ["9H", "JK"], ["6H"]]
        state = RoundState.from_hands("babanuki", hands, dealer=BLUE)
        result = draw_card(state, "6H")
        assert result.finished == (BLUE,)
        assert state.hand(RED) == ["5S", "8C", "6H"]
        assert (state.giver, state.drawer) == (RED, GREEN)

    def test_simultaneous_finish_ranks_the_giver_higher(self):
        hands = [["5S"], ["7D", "JK"], ["7H"], ["5H"]]
        state = RoundState.from_hands("babanuki", hands, dealer=BLUE)
        result = draw_card(state, "5H")
        assert result.finished == (BLUE, RED)
        assert state.finish_order == [BLUE, RED]
        assert (state.giver, state.drawer) == (GREEN, YELLOW)

    def test_each_drawer_draws_from_its_right_neighbour(self):
        hands = [["2S", "3S"], ["4S", "5S"], ["6S", "7S"], ["8S", "JK"]]
        state = RoundState.from_hands("babanuki", hands, dealer=0)
        seen = []
        for _ in range(4):
            seen.append((state.giver, state.drawer))
            state.draw(0)
        assert seen == [(0, 1), (1, 2), (2, 3), (3, 0)]

    def test_dealer_is_the_first_seat_drawn_from(self):
        hands = [["2S"], ["3S"], ["4S"], ["JK"]]
        state = RoundState.from_hands("babanuki", hands, dealer=2)
        assert (state.giver, state.drawer) == (2, 3)


class TestFlowN:
    def test_each_drawer_draws_from_its_left_neighbour(self):
        hands = [["7S", "8S"], ["9S", "10S"], ["QS", "KS"], ["AS", "JC"]]
        state = RoundState.from_hands("schwarzer_peter", hands, dealer=0)
        seen = []
        for _ in range(4):
            seen.append((state.drawer, state.giver))
            state.draw(0)
        assert seen == [(1, 2), (2, 3), (3, 0), (0, 1)]

    def test_finished_seat_is_skipped_as_drawer_and_as_giver(self):
        # Seat 2 gives its last card to seat 1; then seat 3 draws... from seat 0.
        hands = [["7S", "8S"], ["9S", "10S"], ["QS"], ["AS", "JC"]]
        state = RoundState.from_hands("schwarzer_peter", hands, dealer=0)
        result = draw_card(state, "QS")
        assert result.finished == (2,)
        assert (state.drawer, state.giver) == (3, 0)
        state.draw(0)
        assert (state.drawer, state.giver) == (0, 1)
        state.draw(0)
        # Seat 1's left neighbour (2) is out: seat 1 draws from seat 3.
        assert (state.drawer, state.giver) == (1, 3)


class TestInitialDiscard:
    def test_three_of_a_rank_leave_one_and_four_leave_none(self):
        state = RoundState.from_hands(
            "babanuki", [["7S", "7H", "7D", "KS", "KH", "KD", "KC", "JK"], ["2S"]], 0
        )
        assert state.hand(0) == ["7D", "JK"]
        assert sorted(map(sorted, state.discards)) == [["7H", "7S"], ["KC", "KD"], ["KH", "KS"]]

    def test_the_joker_and_black_peter_never_pair(self):
        state = RoundState.from_hands("schwarzer_peter", [["JC", "JH", "JD"], ["7S"]], 0)
        assert state.hand(0) == ["JC"]
        assert state.known_odd_card(0) == "JC"

    def test_same_colour_pairs(self):
        state = RoundState.from_hands(
            "babanuki",
            [["7S", "7H", "8S", "8C", "9H", "9D"], ["JK", "2S"]],
            0,
            {"same_colour_pairs": True},
        )
        assert state.hand(0) == ["7S", "7H"]
        assert not state.pairs_with("7S", "7H")
        assert state.pairs_with("7S", "7C")
        result = RoundState.from_hands(
            "babanuki", [["7S"], ["7H", "7C", "JK"]], 1, {"same_colour_pairs": True}
        )
        assert result.hand(1) == ["7H", "7C", "JK"]

    def test_seats_emptied_by_the_deal_finish_in_turn_order_from_the_first_drawer(self):
        hands = [["2S", "JK"], ["3S"], ["4S", "4H"], ["5S", "5H"], ["2H", "3H"]]
        state = RoundState.from_hands("babanuki", hands, dealer=2)
        # Turn order from the seat on the dealer's left: 3, 4, 0, 1, 2.
        assert state.finish_order == [3, 2]
        assert (state.giver, state.drawer) == (4, 0)  # the dealer finished: next(dealer) gives

    def test_flow_n_start_skips_a_first_drawer_emptied_by_the_deal(self):
        hands = [["7S", "JC"], ["8S", "8H"], ["7H"], ["9S"], ["9H"]]
        state = RoundState.from_hands("schwarzer_peter", hands, dealer=0)
        assert state.finish_order == [1]
        assert (state.drawer, state.giver) == (2, 3)

    def test_a_round_with_one_active_seat_after_the_deal_is_already_over(self):
        state = RoundState.from_hands("babanuki", [["2S", "2H"], ["JK"]], 0)
        assert state.over and state.loser == 1 and state.finish_order == [0]
        with pytest.raises(RoundOver):
            state.draw(0)


class TestRefusals:
    @pytest.mark.parametrize(
        ("variant", "hands", "message"),
        [
            ("babanuki", [["2S"], ["XX"]], "not card codes"),
            ("babanuki", [["2S"], ["2S"]], "more than once"),
            ("babanuki", [["2S"]], "2 to 8 players"),
            ("babanuki", [["2S"]] * 9, "2 to 8 players"),
            ("jijinuki", [["2S"], ["3S"]], "3 to 8 players"),
            ("jijinuki", [["JK"], ["3S"], ["4S"]], "not in the Jiji-nuki deck"),
            ("schwarzer_peter", [["JS"], ["7S"]], "not in the Schwarzer Peter deck"),
            ("schwarzer_peter", [["2S"], ["7S"]], "not in the Schwarzer Peter deck"),
            ("old_maid", [["QS", "QH"], ["QD", "QC"]], "at most 3 cards of rank Q"),
            ("babanuki", "2S 3S", "list of lists"),
            ("canasta", [["2S"], ["3S"]], "unknown variant"),
        ],
    )
    def test_bad_rounds_are_refused(self, variant, hands, message):
        with pytest.raises(ValueError, match=message):
            RoundState.from_hands(variant, hands, 0)

    def test_jiji_nuki_never_deals_all_52(self):
        from games.engine.cards import standard_deck

        deck = standard_deck()
        with pytest.raises(ValueError, match="deals 51 cards"):
            RoundState.from_hands("jijinuki", [deck[0::3], deck[1::3], deck[2::3]], 0)

    @pytest.mark.parametrize("dealer", [-1, 2, "0", None, True])
    def test_bad_dealer(self, dealer):
        with pytest.raises(ValueError, match="dealer"):
            RoundState.from_hands("babanuki", [["2S"], ["JK"]], dealer)

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            ({"same_colour": True}, "unknown house rule"),
            ({"reverse": "yes"}, "true or false"),
            ({"reverse": True}, "strikes scoring"),  # Babanuki scores points
            ("reverse", "dict"),
        ],
    )
    def test_bad_options(self, options, message):
        with pytest.raises(ValueError, match=message):
            RoundState.from_hands("babanuki", [["2S"], ["JK"]], 0, options)

    @pytest.mark.parametrize("position", [-1, 2, 99, 1.0, "0", None, True])
    def test_bad_positions_raise_and_change_nothing(self, position):
        state = RoundState.from_hands("babanuki", [["2S", "3S"], ["4S", "JK"]], 0)
        before = state.to_dict()
        with pytest.raises(BadPosition) as info:
            state.draw(position)
        assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)
        assert state.to_dict() == before

    def test_draw_after_the_round_is_over(self):
        state = RoundState.from_hands("babanuki", [["2S"], ["2H", "JK"]], 0)
        state.draw(0)
        assert state.over
        before = state.to_dict()
        with pytest.raises(RoundOver, match="over"):
            state.draw(0)
        assert state.to_dict() == before


class TestReverse:
    def test_the_holder_wins_instead_of_losing(self):
        state = RoundState.from_hands("old_maid", [["2S"], ["2H", "QS"]], 0, {"reverse": True})
        state.draw(0)
        assert state.holder == 1
        assert state.winner == 1 and state.loser is None


def test_state_round_trips_through_plain_data():
    import json
    import random

    state = RoundState.deal("jijinuki", 5, 2, random.Random(3))
    for _ in range(7):
        state.draw(0)
    copy = RoundState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy == state
    assert copy.draw(1) == state.draw(1)
