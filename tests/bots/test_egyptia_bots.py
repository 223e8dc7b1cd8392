"""ISMCTS, the random bot and the arena on Egyptia: legal, deterministic, blind to what the
seat cannot see, with 1, 2, 5 and 99 builders."""

from __future__ import annotations

import pytest

from karnak.bots import Budget, SeatView, make_bot, play_out
from karnak.bots.arena import run_arena
from karnak.bots.ismcts import ISMCTSBot, game_knowledge, make_ismcts
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, get_game
from karnak.core.actions import Action
from karnak.games.egyptia import bot as heuristic
from karnak.games.egyptia.bot import EgyptiaHeuristic
from karnak.games.egyptia.rules.state import EgyptiaState

GAME = get_game("egyptia")


def advance(state: EgyptiaState, steps: int, seed: int) -> EgyptiaState:
    """Mixed heuristic and random moves by whichever builder a seeded coin picks."""
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = rng.choice(state.to_move())
        if rng.below(2):
            action = heuristic.act(state, seat, rng)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    return state


def positions(players: int, count: int) -> list[EgyptiaState]:
    """Positions with a real choice for some seat, in every kind of step."""
    found = []
    for i in range(count * 4):
        state = GAME.new_state(players, seed=i)
        assert isinstance(state, EgyptiaState)
        advance(state, 3 + (11 * i) % (12 * players + 20), seed=i)
        if state.is_over():
            continue
        if any(len(state.legal_actions(s)) > 1 for s in state.to_move()):
            found.append(state)
        if len(found) == count:
            break
    return found


def searcher(iterations: int = 8) -> ISMCTSBot:
    return make_ismcts(GAME, Budget(iterations=iterations))


def label(state: EgyptiaState) -> str:
    return f"{state.n}p-r{state.round}-{state.stage[state.to_move()[0]]}"


def test_ismcts_uses_the_egyptia_heuristic() -> None:
    knowledge = game_knowledge(GAME)
    assert knowledge.policy is heuristic.act
    assert knowledge.evaluator is heuristic.evaluate
    assert knowledge.candidates is heuristic.candidates
    assert knowledge.reward is heuristic.reward
    assert knowledge.rollout_depth == heuristic.ROLLOUT_DEPTH
    bot = make_bot("ismcts:10", GAME)
    assert isinstance(bot, ISMCTSBot) and bot.rollout_depth == heuristic.ROLLOUT_DEPTH


CASES = positions(1, 4) + positions(2, 3) + positions(5, 3)


@pytest.mark.parametrize("state", CASES, ids=label)
def test_ismcts_returns_a_legal_action_and_is_deterministic(state: EgyptiaState) -> None:
    for seat in state.to_move()[:3]:
        view = SeatView.of(state, seat)
        first = searcher().choose(view, Rng(5))
        assert first in view.legal_actions
        assert searcher().choose(view, Rng(5)) == first


def ismcts_choices(state: EgyptiaState, seat: int) -> set[Action]:
    """ISMCTS's choice in true states that ``seat`` cannot tell apart, one seed."""
    choices = set()
    for k in range(3):
        truth = state.resample(seat, Rng(1000 + k))  # same information, other hidden steps
        view = SeatView.of(truth, seat)
        assert view.observation == state.observation(seat)
        choices.add(searcher(6).choose(view, Rng(7)))
    return choices


def hidden(state: EgyptiaState, seat: int) -> bool:
    """Whether another builder has done something ``seat`` has not seen yet."""
    return any(state.public_stage(o) in ("chosen", "done") for o in range(state.n) if o != seat)


@pytest.mark.parametrize("state", positions(3, 8), ids=label)
def test_ismcts_choice_does_not_depend_on_the_others_hidden_steps(state: EgyptiaState) -> None:
    for seat in state.to_move():
        assert len(ismcts_choices(state, seat)) == 1


def test_the_hidden_positions_really_hide_something() -> None:
    assert sum(hidden(s, seat) for s in positions(3, 8) for seat in s.to_move()) >= 4


def test_resample_depends_only_on_what_the_seat_sees() -> None:
    """The worlds ISMCTS draws are the same from every state the seat cannot tell apart
    (what makes the search blind to the others' sealed columns and private steps)."""
    for state in positions(3, 6):
        for seat in state.to_move():
            drawn = state.resample(seat, Rng(3)).to_json()
            for k in range(3):
                truth = state.resample(seat, Rng(2000 + k))
                assert truth.resample(seat, Rng(3)).to_json() == drawn


def test_ismcts_plays_whole_games_legally() -> None:
    """Tiny budgets, every move checked by ``apply``: solo, and against the heuristic and a
    random player."""
    solo = GAME.new_state(1, seed=21)
    play_out(solo, [searcher(2)], [Rng(1)])
    assert solo.is_over()
    three = GAME.new_state(3, seed=22)
    play_out(three, [searcher(2), EgyptiaHeuristic(), RandomBot()], [Rng(2), Rng(3), Rng(4)])
    assert three.is_over()


def test_ismcts_with_99_builders() -> None:
    """A decision at every kind of step of a 99-builder game stays legal, and a time budget
    stops even though one iteration draws a world of 99 sheets."""
    state = GAME.new_state(99, seed=5)
    assert isinstance(state, EgyptiaState)
    rng = Rng(5)
    stages = set()
    while len(stages) < 3 and not state.is_over():
        seat = state.to_move()[0]
        if state.stage[seat] not in stages and len(state.legal_actions(seat)) > 1:
            stages.add(state.stage[seat])
            action = searcher(2).choose(SeatView.of(state, seat), Rng(1))
            assert action in state.legal_actions(seat)
        state.apply(seat, heuristic.act(state, seat, rng))
    assert len(stages) == 3
    timed = make_ismcts(GAME, Budget(seconds=0.05))
    seat = state.to_move()[0]
    assert timed.choose(SeatView.of(state, seat), Rng(2)) in state.legal_actions(seat)


def test_ismcts_with_a_time_budget_stops() -> None:
    state = GAME.new_state(2, seed=8)
    bot = make_ismcts(GAME, Budget(seconds=0.05))
    action = bot.choose(SeatView.of(state, 0), Rng(2))
    assert action in state.legal_actions(0)
    assert bot.last_iterations >= 1


def test_the_candidates_are_legal_and_keep_the_heuristics_move() -> None:
    for state in CASES:
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            kept = heuristic.candidates(state, seat, legal)
            assert kept and set(kept) <= set(legal)
            assert heuristic.act(state, seat, Rng(0)) in kept
            assert len(kept) <= max(heuristic.SEARCH_MOVES, 1) or kept == legal


def test_rewards_and_the_evaluator() -> None:
    """Solo, the reward follows the score (a lone builder always ranks first); with others
    it is ISMCTS's rank reward; the evaluator gives one value in [0, 1] per seat."""
    low, high = GAME.new_state(1, seed=1), GAME.new_state(1, seed=1)
    play_out(low, [RandomBot()], [Rng(1)])
    play_out(high, [EgyptiaHeuristic()], [Rng(1)])
    assert heuristic.reward(high)[0] > heuristic.reward(low)[0]
    assert 0.0 < heuristic.reward(low)[0] < 1.0
    assert heuristic.reward(high)[0] == heuristic.solo_reward(high.scores()[0])
    three = GAME.new_state(3, seed=2)
    play_out(three, [EgyptiaHeuristic(), RandomBot(), RandomBot()], [Rng(1), Rng(2), Rng(3)])
    rewards = heuristic.reward(three)
    assert rewards[0] == 1.0 and max(rewards[1:]) < 1.0
    for state in CASES:
        values = heuristic.evaluate(state)
        assert len(values) == state.n and all(0.0 <= v <= 1.0 for v in values)


def test_the_solo_reward_and_a_solo_leaf_share_one_scale() -> None:
    """Finished games and leaves cut short are judged by the same function of the points."""
    rewarded = [heuristic.solo_reward(points) for points in (40.0, 55.0, 66.0, 72.0, 90.0)]
    assert rewarded == sorted(rewarded) and len(set(rewarded)) == len(rewarded)
    assert all(0.0 < r < 1.0 for r in rewarded)
    state = GAME.new_state(1, seed=4)
    for _ in range(12):
        state.apply(0, heuristic.act(state, 0, Rng(0)))
    assert not state.is_over()
    (value,) = heuristic.evaluate(state)
    assert value == heuristic.solo_reward(heuristic._estimate(state, 0, False))


def test_random_bot_plays_egyptia_to_the_end() -> None:
    for players in (1, 4):
        state = GAME.new_state(players, seed=players)
        play_out(state, [RandomBot()] * players, [Rng(s) for s in range(players)])
        assert state.is_over()


def test_arena_runs_egyptia_with_every_bot() -> None:
    result = run_arena(GAME, ["heuristic", "random", "random"], games=3, seed=3, options={})
    assert result.game == "egyptia" and result.balanced
    row = result.row("heuristic")
    assert row.games == 3 and row.seat_games == (1, 1, 1)
    assert row.wins == 3  # a random builder never comes close
    searched = run_arena(GAME, ["ismcts:2", "heuristic"], games=2, seed=5, options={})
    assert searched.row("ismcts:2").games == 2
    # iteration budgets make a run repeatable
    again = run_arena(GAME, ["ismcts:2", "heuristic"], games=2, seed=5, options={})
    assert again.to_json(timings=False) == searched.to_json(timings=False)


def test_arena_runs_solo_games() -> None:
    """A lone builder always wins; the rating (which needs two to rank) is left alone."""
    result = run_arena(GAME, ["heuristic"], games=2, seed=1, options={})
    row = result.row("heuristic")
    assert row.games == 2 and row.wins == 2 and row.mean_rank == 1.0
    assert (row.mu, row.sigma) == (25.0, 25.0 / 3.0)
    assert row.mean_score > 30
