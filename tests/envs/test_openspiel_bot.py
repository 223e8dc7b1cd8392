"""OpenSpiel's IS-MCTS as an arena opponent: whole legal games, seeded, blind to hidden cards."""

import pytest

pytest.importorskip("pyspiel")

from karnak.bots import BotSpecError, SeatView, make_bot
from karnak.bots.arena import run_arena
from karnak.bots.base import Budget, available_bots, parse_budget
from karnak.core import Rng, State, get_game
from karnak.envs.openspiel_bot import OpenSpielISMCTSBot, register
from support.hidden_choices import choices_over_truths

# Where the entry point is not installed (a plain checkout), register by hand.
register()


def outcomes(game: str, specs: list[str], games: int, seed: int = 0) -> list[tuple[float, ...]]:
    """Play an arena (every move checked by the engine's ``apply``); the scores per game."""
    result = run_arena(get_game(game), specs, games, seed, {})
    assert result.games == games
    return [outcome.scores for outcome in result.outcomes]


def test_offered_for_every_game_with_an_openspiel_form() -> None:
    for name in ("aton", "amunre", "egyptia"):
        assert "openspiel-ismcts" in available_bots(get_game(name))


@pytest.mark.parametrize(
    ("game", "specs"),
    [
        ("aton", ["random", "openspiel-ismcts:4"]),
        ("amunre", ["random", "openspiel-ismcts:2", "random"]),
        ("egyptia", ["openspiel-ismcts:3", "random"]),
        ("egyptia", ["openspiel-ismcts:3"]),
    ],
)
def test_plays_whole_legal_games_through_the_arena(game: str, specs: list[str]) -> None:
    assert len(outcomes(game, specs, 1)) == 1


def test_an_iteration_budget_is_deterministic_for_a_seed() -> None:
    specs = ["openspiel-ismcts:3", "random"]
    first = run_arena(get_game("aton"), specs, 1, 5, {}).outcomes[0]
    again = run_arena(get_game("aton"), specs, 1, 5, {}).outcomes[0]
    assert (first.scores, first.actions) == (again.scores, again.actions)


def positions(count: int) -> list[State]:
    """Amun-Re positions a few random moves in (hidden cards in the others' hands)."""
    game = get_game("amunre")
    found = []
    for seed in range(count):
        state = game.new_state(3, seed=seed)
        rng = Rng(seed)
        for _ in range(3 + seed):
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        found.append(state)
    return found


@pytest.mark.parametrize("index", range(3))
def test_the_choice_does_not_depend_on_hidden_information(index: int) -> None:
    state = positions(3)[index]
    seat = state.to_move()[0]
    game = get_game("amunre")
    choices = choices_over_truths(
        state, seat, lambda: OpenSpielISMCTSBot(game, Budget(iterations=8)), 3, 500, 7
    )
    assert len(choices) == 1


@pytest.mark.parametrize(
    "spec", ["openspiel-ismcts:0", "openspiel-ismcts:fast", "openspiel-ismcts:-1s"]
)
def test_a_bad_budget_is_a_clear_spec_error(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, get_game("aton"))


def test_a_time_budget_stops_and_searches() -> None:
    state = get_game("aton").new_state(2, seed=1)
    bot = OpenSpielISMCTSBot(get_game("aton"), parse_budget("0.05s"))
    seat = state.to_move()[0]
    assert bot.choose(SeatView.of(state, seat), Rng(1)) in state.legal_actions(seat)
    assert bot.simulations >= 1


def test_the_server_caps_it_and_can_stop_it() -> None:
    from karnak.server.bot_limits import Searching

    game = get_game("aton")
    bot = make_bot("openspiel-ismcts:50", game)
    assert isinstance(bot, Searching) and bot.budget == Budget(iterations=50)
    assert isinstance(bot, OpenSpielISMCTSBot)
    bot.stop = lambda: True  # each id search stops as soon as it may (two simulations)
    state = game.new_state(2, seed=2)
    seat = state.to_move()[0]
    assert bot.choose(SeatView.of(state, seat), Rng(3)) in state.legal_actions(seat)
    assert 2 <= bot.simulations <= 10 and bot.simulations % 2 == 0
