"""ISMCTS, the random bot and the arena on Aton: legal, deterministic, blind to hidden cards."""

from __future__ import annotations

import pytest

from karnak.bots import Budget, SeatView, make_bot, play_out
from karnak.bots.arena import run_arena
from karnak.bots.ismcts import ISMCTSBot, game_knowledge, make_ismcts
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, get_game
from karnak.core.actions import Action
from karnak.games.aton import bot as heuristic
from karnak.games.aton.bot import AtonHeuristic
from karnak.games.aton.rules.state import AtonState

GAME = get_game("aton")


def advance(state: AtonState, steps: int, seed: int) -> AtonState:
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = rng.choice(state.to_move())
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.below(len(actions))])
    return state


def positions(count: int) -> list[AtonState]:
    """Varied positions with a real choice: sealed allocations, removals, placements."""
    found = []
    for i in range(count * 3):
        state = GAME.new_state(2, seed=i)
        assert isinstance(state, AtonState)
        advance(state, 5 + 17 * i % 90, seed=i)
        if state.is_over():
            continue
        if any(len(state.legal_actions(s)) > 1 for s in state.to_move()):
            found.append(state)
        if len(found) == count:
            break
    return found


def searcher(iterations: int = 12) -> ISMCTSBot:
    return make_ismcts(GAME, Budget(iterations=iterations))


def test_ismcts_uses_the_aton_heuristic() -> None:
    knowledge = game_knowledge(GAME)
    assert knowledge.policy is heuristic.act
    assert knowledge.evaluator is heuristic.evaluate
    assert knowledge.candidates is heuristic.candidates
    assert isinstance(make_bot("ismcts:10", GAME), ISMCTSBot)


@pytest.mark.parametrize("state", positions(8), ids=lambda s: f"{s.phase}-r{s.round}")
def test_ismcts_returns_a_legal_action_and_is_deterministic(state: AtonState) -> None:
    for seat in state.to_move():
        view = SeatView.of(state, seat)
        first = searcher().choose(view, Rng(5))
        assert first in view.legal_actions
        assert searcher().choose(view, Rng(5)) == first


def canonical_resample(state: AtonState, seat: int, rng: Rng, *, history: bool = True) -> AtonState:
    """``AtonState.resample`` on a copy whose hidden cards are first put in one canonical
    arrangement (sorted) and whose history is dropped, so that the world drawn depends only
    on what ``seat`` knows and on ``rng``: an oracle written apart from the engine, whose own
    resample is tested the same way below."""
    copy = state.clone(log=False)
    copy.history = []
    copy.piles[seat].sort()
    other = 1 - seat
    sealed = copy.alloc[other] if not copy.revealed else None
    pool = sorted(
        copy.piles[other] + copy.hands[other] + list(sealed or []) + copy.face_down[other]
    )
    copy.hands[other], pool = pool[: len(copy.hands[other])], pool[len(copy.hands[other]) :]
    if sealed is not None:
        copy.alloc[other], pool = pool[:4], pool[4:]
    if copy.face_down[other]:
        shown = list(copy.discards[other])
        for card in copy.face_down[other]:
            shown.remove(card)
        count = len(copy.face_down[other])
        copy.face_down[other], pool = pool[:count], pool[count:]
        copy.discards[other] = shown + copy.face_down[other]
    copy.piles[other] = pool
    return ENGINE_RESAMPLE(copy, seat, rng, history=False)  # the copy has no log to keep


ENGINE_RESAMPLE = AtonState.resample


def ismcts_choices(state: AtonState, seat: int) -> set[Action]:
    """ISMCTS's choice in three true states that ``seat`` cannot tell apart, one seed."""
    choices = set()
    for k in range(3):
        truth = ENGINE_RESAMPLE(state, seat, Rng(1000 + k))  # same information, other deal
        view = SeatView.of(truth, seat)
        assert view.observation == state.observation(seat)
        choices.add(searcher(10).choose(view, Rng(7)))
    return choices


@pytest.mark.parametrize("state", positions(6), ids=lambda s: f"{s.phase}-r{s.round}")
def test_ismcts_and_the_heuristic_knowledge_use_no_hidden_information(
    state: AtonState, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With worlds drawn from the seat's information alone, the search (heuristic rollouts,
    evaluator and candidate moves included) chooses the same whatever the hidden cards are."""
    monkeypatch.setattr(AtonState, "resample", canonical_resample)
    for seat in state.to_move():
        assert len(ismcts_choices(state, seat)) == 1


def test_ismcts_choice_does_not_depend_on_hidden_information_through_the_engine() -> None:
    differing = 0
    for state in positions(6):
        for seat in state.to_move():
            differing += len(ismcts_choices(state, seat)) > 1
    assert differing == 0


def test_ismcts_plays_whole_games_legally() -> None:
    """Tiny budgets, every move checked by ``apply``; against the heuristic and random."""
    for seed, rival in ((1, AtonHeuristic()), (2, RandomBot())):
        state = GAME.new_state(2, seed=seed)
        play_out(state, [searcher(3), rival], [Rng(seed), Rng(seed + 1)])
        assert state.is_over()


def test_ismcts_with_a_time_budget_stops() -> None:
    state = GAME.new_state(2, seed=8)
    bot = make_ismcts(GAME, Budget(seconds=0.05))
    action = bot.choose(SeatView.of(state, 0), Rng(2))
    assert action in state.legal_actions(0)
    assert bot.last_iterations >= 1


def test_random_bot_plays_aton_to_the_end() -> None:
    for seed in range(5):
        state = GAME.new_state(2, seed=seed)
        play_out(state, [RandomBot(), RandomBot()], [Rng(seed), Rng(seed + 7)])
        assert state.is_over()


def test_arena_runs_aton_with_every_bot() -> None:
    result = run_arena(GAME, ["heuristic", "random"], games=4, seed=3, options={})
    assert result.game == "aton" and result.balanced
    heuristic_row = result.row("heuristic")
    assert heuristic_row.games == 4 and heuristic_row.seat_games == (2, 2)
    assert heuristic_row.wins + result.row("random").wins == pytest.approx(4)
    searched = run_arena(GAME, ["ismcts:3", "random"], games=2, seed=5, options={})
    assert searched.row("ismcts:3").games == 2
    # iteration budgets make a run repeatable
    again = run_arena(GAME, ["ismcts:3", "random"], games=2, seed=5, options={})
    assert again.to_json(timings=False) == searched.to_json(timings=False)
