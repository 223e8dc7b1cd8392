"""The research description: reward schemes on hand-made outcomes, their ranges, and each
game's declared facts (sizes agree with the spaces and layouts, ranges hold over real games)."""

from __future__ import annotations

import pytest

from karnak.core import Rng, get_game
from karnak.core.description import (
    check_rewards,
    final_score_utilities,
    rank_utilities,
    score_utilities,
    standing,
    status_utilities,
    terminal_rewards,
    win_utilities,
)
from karnak.core.errors import InvalidOptionError


def test_win_shares_plus_one_among_winners_and_minus_one_among_the_rest() -> None:
    assert win_utilities([1, 2]) == [1.0, -1.0]
    assert win_utilities([1, 1]) == [0.0, 0.0]  # a draw
    assert win_utilities([2, 1, 3]) == pytest.approx([-0.5, 1.0, -0.5])
    assert win_utilities([1, 1, 3, 4]) == pytest.approx([0.5, 0.5, -0.5, -0.5])
    assert win_utilities([1, 1, 1]) == [0.0, 0.0, 0.0]


def test_rank_spreads_places_from_plus_one_to_minus_one_ties_sharing() -> None:
    assert rank_utilities([1, 2]) == [1.0, -1.0]
    assert rank_utilities([1, 2, 3]) == [1.0, 0.0, -1.0]
    assert rank_utilities([3, 1, 2, 4]) == pytest.approx([-1 / 3, 1.0, 1 / 3, -1.0])
    # two seats tied for second of four hold places 2 and 3: both get their mean, 0
    assert rank_utilities([1, 2, 2, 4]) == pytest.approx([1.0, 0.0, 0.0, -1.0])
    assert rank_utilities([1, 1, 1]) == [0.0, 0.0, 0.0]


def test_score_is_points_less_the_others_mean_and_alone_the_points() -> None:
    assert score_utilities([10, 4]) == [6.0, -6.0]
    assert score_utilities([9, 3, 6]) == [4.5, -4.5, 0.0]
    assert score_utilities([17]) == [17.0]


@pytest.mark.parametrize("outcome", [[1, 2, 3], [2, 2, 1], [1, 3, 2, 4], [1, 1, 3, 3, 5]])
def test_every_scheme_is_zero_sum(outcome: list[int]) -> None:
    assert sum(win_utilities(outcome)) == pytest.approx(0.0)
    assert sum(rank_utilities(outcome)) == pytest.approx(0.0)
    assert sum(score_utilities([10 * r for r in outcome])) == pytest.approx(0.0)


def test_final_score_maps_the_score_range_onto_plus_minus_one() -> None:
    assert final_score_utilities([-2], -2, 198) == [-1.0]
    assert final_score_utilities([198], -2, 198) == [1.0]
    assert final_score_utilities([98], -2, 198) == [0.0]
    # at a table of several: the difference over the span, still zero-sum
    assert final_score_utilities([10, 4], 0, 12) == [0.5, -0.5]
    assert final_score_utilities([12, 0], 0, 12) == [1.0, -1.0]
    assert sum(final_score_utilities([9, 3, 6], 0, 10)) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="no range"):
        final_score_utilities([3], 5, 5)


def test_status_pays_plus_one_for_reaching_the_target() -> None:
    assert status_utilities([50], 50) == [1.0]
    assert status_utilities([49], 50) == [-1.0]


def test_terminal_defaults_and_the_status_target() -> None:
    egyptia = get_game("egyptia")
    assert terminal_rewards(2) == "win" and terminal_rewards(1) == "final_score"
    assert check_rewards("final_score", 1) == check_rewards("final_score", 4) == "final_score"
    default = egyptia.default_score_target(1)
    assert default is not None and default in dict(egyptia.score_targets(1))
    assert check_rewards("status", 1, egyptia) == f"status:{default}"
    assert check_rewards(" status:MASTER ", 1, egyptia) == "status:Master"
    assert check_rewards("status:+61", 1) == "status:61"  # points need no game
    with pytest.raises(InvalidOptionError, match="names no default target"):
        check_rewards("status", 1)
    with pytest.raises(InvalidOptionError, match="solo table"):
        check_rewards("status:50", 2, egyptia)
    with pytest.raises(InvalidOptionError, match="named targets: none"):
        check_rewards("status:Master", 1)
    assert egyptia.score_targets(2) == () and egyptia.default_score_target(2) is None
    assert get_game("aton").score_targets(2) == ()


def test_reward_names_are_checked_and_solo_defaults_to_score() -> None:
    assert check_rewards(None, 2) == "win"
    assert check_rewards(None, 1) == "score"
    with pytest.raises(InvalidOptionError, match="solo"):
        check_rewards("win", 1)
    with pytest.raises(InvalidOptionError, match="win, score, rank"):
        check_rewards("gold", 3)


GAMES = [("aton", 2), ("amunre", 3), ("amunre", 5), ("egyptia", 1), ("egyptia", 3)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_the_declared_facts_agree_with_the_game(name: str, players: int) -> None:
    game = get_game(name)
    description = game.describe(players)
    assert description.rewards == ("win" if players > 1 else "score")
    assert description.num_distinct_actions == game.action_space(players).size
    assert description.observation_size == game.observation_layout(players).size
    assert description.information_state_size == game.information_state_layout(players).size
    assert (description.dynamics, description.information, description.chance) == (
        "sequential",
        "imperfect",
        "sampled",
    )
    assert description.utility == ("zero_sum" if players > 1 else "general_sum")
    low, high = game.score_bounds(players)
    assert low <= 0 < high


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_scores_and_utilities_stay_in_their_declared_ranges(name: str, players: int) -> None:
    game = get_game(name)
    low, high = game.score_bounds(players)
    schemes = ["score"] if players == 1 else ["win", "score", "rank"]
    schemes += ["final_score"] + [f"status:{n}" for n, _ in game.score_targets(players)]
    ranges = {scheme: game.describe(players, rewards=scheme) for scheme in schemes}
    for seed in range(2):
        state = game.new_state(players, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            assert all(low <= points <= high for points in state.scores())
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply_unchecked(seat, legal[rng.below(len(legal))])
        for scheme, description in ranges.items():
            values = standing(state, description.rewards)
            assert all(description.min_utility <= v <= description.max_utility for v in values)
            if scheme in ("win", "rank"):
                assert max(values) > 0 or values == [0.0] * players  # someone won, or all tied
            if scheme == "final_score":
                assert values == final_score_utilities(state.scores(), low, high)
            if scheme.startswith("status:"):
                target = dict(game.score_targets(players))[scheme.partition(":")[2]]
                assert values == status_utilities(state.scores(), target)
