"""Match scoring (RULES.md section 5) and house rules that touch it (section 7)."""

import pytest

from games.engine import MatchRules, MatchScore, RoundResult


def result(*ranking):
    return RoundResult(ranking=tuple(ranking), holder=ranking[-1])


class TestPoints:
    def test_places_earn_n_minus_one_down_to_zero(self):
        match = MatchScore.start("babanuki", 4, MatchRules.for_variant("babanuki", rounds=3), 0)
        match.record(result(2, 0, 3, 1))
        assert match.points() == [2, 0, 3, 1]
        assert not match.over

    @pytest.mark.parametrize(("players", "expected"), [(2, [1, 0]), (3, [2, 1, 0])])
    def test_smaller_tables(self, players, expected):
        match = MatchScore.start(
            "babanuki", players, MatchRules.for_variant("babanuki", rounds=1), 0
        )
        match.record(result(*range(players)))
        assert match.points() == expected
        assert match.over and match.winners() == [0]

    def test_highest_total_wins_after_the_chosen_rounds(self):
        match = MatchScore.start("babanuki", 3, MatchRules.for_variant("babanuki", rounds=3), 0)
        for ranking in [(0, 1, 2), (0, 2, 1), (1, 0, 2)]:
            match.record(result(*ranking))
        assert match.points() == [5, 3, 1]
        assert match.over
        assert match.winners() == [0]
        assert match.standings() == [0, 1, 2]
        with pytest.raises(ValueError, match="over"):
            match.record(result(0, 1, 2))

    def test_a_tie_goes_to_the_better_place_in_the_final_round(self):
        match = MatchScore.start("jijinuki", 3, MatchRules.for_variant("jijinuki", rounds=3), 0)
        for ranking in [(0, 1, 2), (1, 0, 2), (2, 1, 0)]:
            match.record(result(*ranking))
        assert match.points() == [3, 4, 2]
        match2 = MatchScore.start("jijinuki", 3, MatchRules.for_variant("jijinuki", rounds=3), 0)
        for ranking in [(0, 1, 2), (0, 1, 2), (1, 2, 0)]:
            match2.record(result(*ranking))
        assert match2.points() == [4, 4, 1]
        assert match2.winners() == [1]  # level on 4; seat 1 was first in the final round
        assert match2.standings() == [1, 0, 2]

    def test_five_rounds(self):
        match = MatchScore.start("babanuki", 2, MatchRules.for_variant("babanuki", rounds=5), 0)
        for _ in range(4):
            match.record(result(0, 1))
            assert not match.over
        match.record(result(1, 0))
        assert match.over and match.winners() == [0] and match.losers() == [1]

    @pytest.mark.parametrize("rounds", [0, 2, 4, 6, "3"])
    def test_other_lengths_are_refused(self, rounds):
        with pytest.raises(ValueError, match="1, 3 or 5 rounds"):
            MatchRules.for_variant("babanuki", rounds=rounds)

    def test_reverse_is_refused_with_points(self):
        with pytest.raises(ValueError, match="strikes"):
            MatchRules.for_variant("babanuki", reverse=True)


class TestStrikes:
    def test_first_to_the_limit_loses_and_everyone_else_wins(self):
        rules = MatchRules.for_variant("schwarzer_peter")
        assert rules.strike_limit == 3
        match = MatchScore.start("schwarzer_peter", 3, rules, 0)
        for holder in [1, 2, 1, 0, 1]:
            match.record(RoundResult(ranking=(), holder=holder))
        assert match.strikes() == [1, 3, 1] and match.over
        assert match.losers() == [1]
        assert match.winners() == [0, 2]

    def test_custom_limit_and_single_round(self):
        match = MatchScore.start(
            "old_maid", 4, MatchRules.for_variant("old_maid", strike_limit=1), 0
        )
        match.record(RoundResult(ranking=(), holder=2))
        assert match.over and match.losers() == [2]
        single = MatchScore.start(
            "old_maid", 4, MatchRules.for_variant("old_maid", single_round=True), 0
        )
        single.record(RoundResult(ranking=(), holder=3))
        assert single.over and single.losers() == [3]

    def test_reverse_counts_wins_and_first_to_the_limit_wins(self):
        rules = MatchRules.for_variant("old_maid", strike_limit=2, reverse=True)
        match = MatchScore.start("old_maid", 3, rules, 0)
        match.record(RoundResult(ranking=(), holder=2))
        match.record(RoundResult(ranking=(), holder=0))
        assert not match.over
        match.record(RoundResult(ranking=(), holder=2))
        assert match.over and match.winners() == [2] and match.losers() == [0, 1]
        assert match.standings()[0] == 2

    @pytest.mark.parametrize("limit", [0, 11, "3", True])
    def test_bad_limits_are_refused(self, limit):
        with pytest.raises(ValueError, match="strike limit"):
            MatchRules.for_variant("schwarzer_peter", strike_limit=limit)

    def test_rounds_are_refused_for_strikes(self):
        with pytest.raises(ValueError, match="strike limit"):
            MatchRules.for_variant("old_maid", rounds=3)


def test_dealer_moves_one_seat_clockwise_each_round():
    match = MatchScore.start("babanuki", 4, MatchRules.for_variant("babanuki", rounds=5), 3)
    assert [match.dealer_for_round(k) for k in range(1, 6)] == [3, 0, 1, 2, 3]
    assert match.next_dealer == 3
    match.record(result(0, 1, 2, 3))
    assert match.next_dealer == 0


def test_round_result_of_an_unfinished_round_is_refused():
    from games.engine import RoundState

    state = RoundState.from_hands("babanuki", [["2S", "3S"], ["JK", "3H"]], 0)
    with pytest.raises(ValueError, match="still being played"):
        RoundResult.of(state)
