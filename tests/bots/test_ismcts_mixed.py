"""Issue 35: mixed strategies at a sealed root (``ISMCTSBot(sealed="regret")``).

The plain search models every other seat by the heuristic, so its sealed choice is the
best reply to one predictable move and is predictable itself. With ``sealed="regret"``
the first sealed moves of the bot and the others are learnt by regret matching and the
bot draws its move from its average strategy.
"""

from __future__ import annotations

import pytest

from karnak.bots import Budget, SeatView, play_out
from karnak.bots.ismcts import PURIFY, ISMCTSBot, _Regrets, make_ismcts
from karnak.core import Rng, get_game
from karnak.core.actions import Action
from karnak.core.state import State


class Coin(Action):
    """A side of a coin, for regret matching on matching pennies."""

    def __init__(self, side: str) -> None:
        self.side = side

    def to_text(self) -> str:
        return self.side

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Coin) and other.side == self.side

    def __hash__(self) -> int:
        return hash(self.side)


def test_regret_matching_finds_the_mixed_equilibrium_of_matching_pennies() -> None:
    """Two learners in self-play, each from its own sampled rewards: the average strategy
    of each goes to one half on each side, where a pure best reply would cycle."""
    heads, tails = Coin("heads"), Coin("tails")
    moves = [heads, tails]
    matcher, mismatcher = _Regrets(), _Regrets()
    rng = Rng(7)
    for _ in range(20_000):
        a, sigma_a = matcher.choose(moves, rng)
        b, sigma_b = mismatcher.choose(moves, rng)
        won = 1.0 if a == b else 0.0
        matcher.learn(moves, sigma_a, a, won)
        mismatcher.learn(moves, sigma_b, b, 1.0 - won)
    for learner in (matcher, mismatcher):
        share = dict(learner.mixed(moves))
        assert abs(share[heads] - 0.5) < 0.08 and abs(share[tails] - 0.5) < 0.08


def test_regret_matching_against_a_fixed_reply_learns_the_best_move() -> None:
    heads, tails = Coin("heads"), Coin("tails")
    learner = _Regrets()
    rng = Rng(3)
    for _ in range(5_000):
        move, sigma = learner.choose([heads, tails], rng)
        learner.learn([heads, tails], sigma, move, 1.0 if move == tails else 0.0)
    assert dict(learner.mixed([heads, tails])) == {tails: 1.0}  # heads purified away
    assert PURIFY > 0


def test_an_unknown_sealed_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="sealed must be one of"):
        ISMCTSBot(sealed="mixed")


def opening(name: str, players: int, seed: int) -> State:
    state = get_game(name).new_state(players, seed=seed)
    if name == "amunre":  # on to the first offering, by the heuristic
        knowledge_bot = make_ismcts(get_game(name), Budget(iterations=1))
        while not state.is_simultaneous():
            seat = state.to_move()[0]
            assert knowledge_bot.policy is not None
            state.apply(seat, knowledge_bot.policy(state, seat, Rng(seed)))
    assert state.is_simultaneous()
    return state


@pytest.mark.parametrize(("name", "players"), [("aton", 2), ("amunre", 4), ("egyptia", 2)])
def test_a_sealed_root_is_a_distribution_and_the_move_drawn_varies(name: str, players: int) -> None:
    game = get_game(name)
    state = opening(name, players, seed=3)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    drawn = set()
    spread = 0
    for seed in range(8):
        bot = make_ismcts(game, Budget(iterations=120), sealed="regret")
        move = bot.choose(SeatView.of(state, seat), Rng(seed))
        assert move in legal
        drawn.add(move)
        spread = max(spread, len(bot.last_visits))
        # the same seed, the same draw: deterministic with an iteration budget
        again = make_ismcts(game, Budget(iterations=120), sealed="regret")
        assert again.choose(SeatView.of(state, seat), Rng(seed)) == move
    assert spread > 1  # more than one move kept in the average strategy somewhere
    if name == "aton":
        assert len(drawn) > 1  # and the lay-out drawn is not always the same


def test_alone_or_not_sealed_the_search_is_the_plain_one() -> None:
    """Egyptia alone: nobody to read the bot, the plain search's move."""
    game = get_game("egyptia")
    state = game.new_state(1, seed=5)
    for seed in range(3):
        plain = make_ismcts(game, Budget(iterations=60))
        mixed = make_ismcts(game, Budget(iterations=60), sealed="regret")
        view = SeatView.of(state, 0)
        assert plain.choose(view, Rng(seed)) == mixed.choose(view, Rng(seed))
        assert plain.last_visits == mixed.last_visits


def test_regret_bots_play_whole_games() -> None:
    for name, players in (("aton", 2), ("amunre", 3)):
        game = get_game(name)
        state = game.new_state(players, seed=11)
        bots = [make_ismcts(game, Budget(iterations=8), sealed="regret") for _ in range(players)]
        play_out(state, bots, [Rng(s) for s in range(players)])
        assert state.is_over()


@pytest.mark.parametrize(("name", "players"), [("aton", 2), ("amunre", 4), ("egyptia", 2)])
def test_responding_to_mixed_opponents_keeps_the_trees_choice(name: str, players: int) -> None:
    """``sealed="respond"``: the others' sealed moves are mixed, the bot's own move is the
    tree's, chosen by visits (counted in iterations, not a distribution in thousandths),
    deterministic for a seed, and searched against other replies than the plain search's."""
    game = get_game(name)
    state = opening(name, players, seed=3)
    seat = state.to_move()[0]
    view = SeatView.of(state, seat)
    differs = False
    for seed in range(3):
        respond = make_ismcts(game, Budget(iterations=120), sealed="respond")
        move = respond.choose(view, Rng(seed))
        assert move in state.legal_actions(seat)
        visits = respond.last_visits
        assert move == max(visits, key=lambda m: visits[m])
        assert sum(visits.values()) <= respond.last_iterations
        again = make_ismcts(game, Budget(iterations=120), sealed="respond")
        assert again.choose(view, Rng(seed)) == move and again.last_visits == visits
        plain = make_ismcts(game, Budget(iterations=120))
        plain.choose(view, Rng(seed))
        differs = differs or plain.last_visits != visits
    assert differs  # the others' mixed replies changed what the tree learnt


def test_respond_bots_play_whole_games() -> None:
    game = get_game("aton")
    state = game.new_state(2, seed=12)
    bots = [make_ismcts(game, Budget(iterations=8), sealed="respond") for _ in range(2)]
    play_out(state, bots, [Rng(s) for s in range(2)])
    assert state.is_over()
