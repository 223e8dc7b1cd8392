"""The Aton heuristic: always legal, finishes games, deterministic, blind to hidden information.

Positions come from seeded games in which every decision is made by the heuristic or by a
random player (a seeded coin decides, the exchange now and then), so the heuristic is
questioned in the odd positions random play leads to as well as in its own. Everything is
seeded: the same games every run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from karnak.bots import SeatView, available_bots, make_bot, play_out
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, get_game
from karnak.games.aton.bot import (
    SEARCH_ARRANGEMENTS,
    SEARCH_KINDS,
    AtonHeuristic,
    act,
    arrangement_values,
    candidates,
    evaluate,
    make_heuristic,
)
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.state import AtonState
from support.aton_positions import BLUE, RED, lay, position

GAME = get_game("aton")
PHASES = {"allocate", "remove", "place", "cleanup"}


def new_game(seed: int) -> AtonState:
    state = GAME.new_state(2, seed=seed)
    assert isinstance(state, AtonState)
    return state


def positions(seed: int, every: int = 1) -> Iterator[tuple[AtonState, int]]:
    """(state, seat to decide) along one mixed heuristic/random game; the state is live."""
    state = new_game(seed)
    rng = Rng(seed)
    step = 0
    while not state.is_over():
        movers = state.to_move()
        if step % every == 0:
            for seat in movers:
                yield state, seat
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        if Exchange() in legal and rng.below(8) == 0:
            action = legal[0]
        elif rng.below(2):
            action = act(state, seat, rng)
        else:
            action = rng.choice(legal)
        state.apply(seat, action)
        step += 1


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize("seed", range(8))
def test_act_is_always_legal(seed: int) -> None:
    """Over every decision of mixed games, for every seat that must decide."""
    checked: set[str] = set()
    for state, seat in positions(300 + seed):
        action = act(state, seat, Rng(seed))
        assert action in state.legal_actions(seat), (
            f"{state.phase}: {action.to_text()} is not legal for seat {seat} (seed {300 + seed})"
        )
        checked.add(state.phase)
    assert {"allocate", "place"} <= checked


def test_every_kind_of_decision_is_met() -> None:
    checked: set[str] = set()
    for seed in range(8):
        checked |= {state.phase for state, _ in positions(300 + seed)}
    assert checked == PHASES


@pytest.mark.parametrize("seed", range(6))
def test_heuristic_finishes_games_through_the_bot_interface(seed: int) -> None:
    """Against random and against itself, every move checked by ``apply``."""
    for bots in ([AtonHeuristic(), RandomBot()], [RandomBot(), AtonHeuristic()]):
        state = new_game(seed)
        play_out(state, bots, [Rng(seed), Rng(seed + 1)])
        assert state.is_over()
    state = new_game(seed)
    play_out(state, [AtonHeuristic(), AtonHeuristic()], [Rng(1), Rng(2)])
    assert state.is_over()


# ------------------------------------------------------------------ determinism and hiding


def test_choose_is_deterministic_and_equals_act_on_the_sampled_world() -> None:
    bot = AtonHeuristic()
    for k, (state, seat) in enumerate(positions(11, every=3)):
        view = SeatView.of(state, seat)
        first = bot.choose(view, Rng(k))
        assert bot.choose(view, Rng(k)) == first
        rng = Rng(k)
        world = view.infoset.sample(rng.fork())
        assert isinstance(world, AtonState)
        assert act(world, seat, rng) == first
        # act reads only what the seat sees, so the true state gives the same answer
        assert act(state, seat, Rng(k)) == first


@pytest.mark.parametrize("seed", range(4))
def test_decisions_do_not_depend_on_hidden_information(seed: int) -> None:
    """Re-deal the other hand, both piles' order and the other's sealed cartouches."""
    bot = AtonHeuristic()
    rng = Rng(99 + seed)
    compared = 0
    for k, (state, seat) in enumerate(positions(23 + seed, every=2)):
        for _ in range(2):
            world = state.resample(seat, rng)
            assert world.observation(seat) == state.observation(seat)
            assert act(world, seat, Rng(k)) == act(state, seat, Rng(k))
            if k % 3 == 0:
                mine = bot.choose(SeatView.of(state, seat), Rng(k))
                theirs = bot.choose(SeatView.of(world, seat), Rng(k))
                assert mine == theirs, f"{state.phase}: {mine} vs {theirs}"
            compared += 1
    assert compared > 50


def test_sealed_cartouches_of_the_other_priest_change_nothing() -> None:
    """Blue decides after red has laid out: whatever red laid, blue lays the same."""
    seen = 0
    for seed in range(12):
        state = new_game(seed)
        rng = Rng(seed)
        while not state.is_over():
            movers = state.to_move()
            if state.phase == "allocate" and movers == (BLUE,) and state.alloc[RED] is not None:
                choice = act(state, BLUE, Rng(0))
                for cards in ([1, 1, 1, 1], [4, 4, 4, 4], [4, 1, 3, 2]):
                    other = state.clone()
                    other.alloc[RED] = list(cards)
                    assert act(other, BLUE, Rng(0)) == choice
                seen += 1
            seat = movers[0]
            state.apply(seat, act(state, seat, rng))
    assert seen > 20


def test_act_and_evaluate_leave_the_state_untouched() -> None:
    for state, seat in positions(31, every=3):
        before = state.to_json()
        act(state, seat, Rng(1))
        evaluate(state)
        candidates(state, seat, state.legal_actions(seat))
        assert state.to_json() == before


# ------------------------------------------------------------------ behaviour


def test_completes_a_temple_to_win_at_once() -> None:
    """Red holds ten squares of temple 1 with the last two free: it fills them and wins."""
    state = position(
        round=1, red=(1, 1, 2, 2), blue=(1, 2, 1, 1), temples={(1, s): RED for s in range(1, 11)}
    )
    lay(state, (1, 1, 2, 2), (1, 2, 1, 1))  # red goes first, places 2 in temples 1-2
    assert state.phase == "place" and state.to_move() == (RED,)
    for _ in range(2):
        action = act(state, RED, Rng(0))
        assert isinstance(action, Place) and action.temple == 1
        state.apply(RED, action)
    assert state.winner == RED and state.win_reason == "every square of temple 1"


def test_blocks_a_temple_the_other_priest_is_about_to_fill() -> None:
    state = position(
        round=1, red=(1, 1, 2, 2), blue=(1, 2, 1, 4), temples={(1, s): BLUE for s in range(1, 11)}
    )
    lay(state, (1, 1, 2, 2), (1, 2, 1, 4))
    assert state.phase == "place" and state.to_move() == (RED,)
    action = act(state, RED, Rng(0))
    assert isinstance(action, Place) and action.temple == 1


def test_removes_the_counter_that_breaks_a_majority() -> None:
    """Blue leads temple 2 (worth 5) by one; red's one removal in reach takes it there."""
    temples = {(2, 1): BLUE, (2, 2): BLUE, (2, 3): RED, (1, 1): BLUE, (1, 2): RED}
    state = position(round=2, red=(1, 3, 2, 1), blue=(1, 4, 1, 1), temples=temples)
    lay(state, (1, 3, 2, 1), (1, 4, 1, 1))  # red goes first: removes 1, places 1
    assert state.phase == "remove" and state.to_move() == (RED,)
    action = act(state, RED, Rng(0))
    assert isinstance(action, Remove) and action.temple == 2


def test_exchanges_a_poor_hand_once() -> None:
    state = position(round=2, red=(1, 1, 1, 2))
    assert act(state, RED, Rng(0)) == Exchange()
    state.apply(RED, Exchange())
    assert isinstance(act(state, RED, Rng(0)), Allocate)
    rich = position(round=2, red=(4, 4, 3, 4))
    assert isinstance(act(rich, RED, Rng(0)), Allocate)


def test_reaches_forty_points_with_cartouche_one() -> None:
    state = position(round=3, red=(1, 2, 3, 4))
    state.score[RED] = 36
    action = act(state, RED, Rng(0))
    assert isinstance(action, Allocate) and action.cards[0] == 4


def test_arrangement_values_cover_every_distinct_arrangement() -> None:
    for hand, count in (((1, 2, 3, 4), 24), ((2, 2, 3, 3), 6), ((4, 4, 4, 4), 1)):
        state = position(round=2, red=hand)
        assert len(arrangement_values(state, RED)) == count


def test_evaluate_is_a_chance_in_unit_range() -> None:
    for seed in range(3):
        state = new_game(seed)
        rng = Rng(seed)
        while not state.is_over():
            values = evaluate(state)
            assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)
            assert sum(values) == pytest.approx(1.0)
            seat = state.to_move()[0]
            state.apply(seat, act(state, seat, rng))
        final = evaluate(state)
        winners = state.winners()
        expected = [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]
        assert final == pytest.approx(expected)


def test_candidates_keep_the_best_arrangements_and_one_square_per_kind() -> None:
    for state, seat in positions(41, every=2):
        legal = state.legal_actions(seat)
        kept = candidates(state, seat, legal)
        assert kept and all(a in legal for a in kept)
        if state.phase == "allocate":
            assert len([a for a in kept if isinstance(a, Allocate)]) <= SEARCH_ARRANGEMENTS
            continue
        # squares of one colour in one temple are interchangeable: at most one of each kind
        kinds = set()
        for action in kept:
            assert isinstance(action, Place | Remove)
            spot = state.board.temples[action.temple - 1][action.square - 1]
            kinds.add((action.temple, spot.colour, spot.bonus))
        assert len(kinds) == len(kept) <= SEARCH_KINDS


def test_registry_builds_the_heuristic() -> None:
    assert "heuristic" in available_bots(GAME)
    bot = make_bot("heuristic", GAME)
    assert isinstance(bot, AtonHeuristic) and bot.name == "heuristic"
    assert isinstance(make_heuristic(GAME), AtonHeuristic)


def test_heuristic_beats_random_players() -> None:
    """20 games against a random player, seats alternated: at least 90% wins."""
    games = 20
    wins = 0.0
    for i in range(games):
        seed = 7000 + i
        hseat = i % 2
        state = new_game(seed)
        bots = [AtonHeuristic() if s == hseat else RandomBot() for s in range(2)]
        play_out(state, bots, [Rng(seed * 10 + s) for s in range(2)])
        winners = state.winners()
        if hseat in winners:
            wins += 1 / len(winners)
    assert wins / games >= 0.9, f"the heuristic won {wins:g} of {games} games"
