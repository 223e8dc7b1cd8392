"""The generic ISMCTS bot: legal, deterministic by iterations, blind to hidden information."""

import pytest

from karnak.bots import BotSpecError, Budget, SeatView, make_bot, parse_budget
from karnak.bots.ismcts import ISMCTSBot, rank_rewards
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, State, get_game

GAME = get_game("amunre")


def advance(state: State, steps: int, seed: int) -> State:
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = rng.choice(state.to_move())
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.below(len(actions))])
    return state


def positions(count: int) -> list[State]:
    """Varied positions: every phase, sealed steps included, 3 to 5 players, all options."""
    found = []
    options = [{}, {"expert_provinces": True, "edition": "2016"}, {"offer_cards": True}]
    for i in range(count):
        state = GAME.new_state(3 + i % 3, seed=i, options=options[i % 3])
        found.append(advance(state, 7 + 23 * i % 150, seed=i))
    return [s for s in found if not s.is_over()]


def bot(iterations: int = 60) -> ISMCTSBot:
    return ISMCTSBot(Budget(iterations=iterations))


@pytest.mark.parametrize("state", positions(12), ids=lambda s: f"{s.phase}-r{s.round}")
def test_returns_a_legal_action_and_is_deterministic(state: State) -> None:
    for seat in state.to_move():
        view = SeatView.of(state, seat)
        first = bot().choose(view, Rng(5))
        assert first in view.legal_actions
        assert bot().choose(view, Rng(5)) == first


@pytest.mark.parametrize("state", positions(9), ids=lambda s: f"{s.phase}-r{s.round}")
def test_choice_does_not_depend_on_hidden_information(state: State) -> None:
    """Same observation, same seed: the same action, whatever the hidden cards are."""
    for seat in state.to_move():
        choices = set()
        for k in range(4):
            truth = state.resample(seat, Rng(1000 + k))  # another true state, same information
            view = SeatView.of(truth, seat)
            assert view.observation == state.observation(seat)
            choices.add(bot(40).choose(view, Rng(7)))
        assert len(choices) == 1


def test_single_legal_action_is_returned_without_search() -> None:
    state = GAME.new_state(4, seed=3)
    while len(state.legal_actions(state.to_move()[0])) != 1:
        advance(state, 1, seed=state.round * 100 + len(state.history))
    seat = state.to_move()[0]
    searcher = bot()
    assert searcher.choose(SeatView.of(state, seat), Rng(1)) == state.legal_actions(seat)[0]
    assert searcher.last_iterations == 0


def test_time_budget_stops() -> None:
    state = GAME.new_state(4, seed=8)
    searcher = ISMCTSBot(Budget(seconds=0.05))
    searcher.choose(SeatView.of(state, state.to_move()[0]), Rng(2))
    assert searcher.last_iterations >= 1


def test_beats_random_players() -> None:
    """A fixed-seed sample: 60 iterations a move already wins most four-player games."""
    wins = 0.0
    games = 4
    for g in range(games):
        state = GAME.new_state(4, seed=500 + g)
        me = g % 4
        searcher, rand = bot(60), RandomBot()
        rngs = [Rng(g * 10 + s) for s in range(4)]
        while not state.is_over():
            seat = state.to_move()[0]
            chooser = searcher if seat == me else rand
            state.apply(seat, chooser.choose(SeatView.of(state, seat), rngs[seat]))
        winners = state.winners()
        wins += 1 / len(winners) if me in winners else 0
    assert wins >= 3


def test_rank_rewards_blend_place_and_victory() -> None:
    rewards = rank_rewards([(30,), (20,), (20,), (5,)], [0])
    assert rewards[0] == 1.0
    assert rewards[1] == rewards[2] == pytest.approx(0.5 * (1.5 / 3))
    assert rewards[3] == 0.0
    shared = rank_rewards([(9,), (9,)], [0, 1])
    assert shared == [0.5, 0.5]


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("1s", Budget(seconds=1.0)),
        ("250ms", Budget(seconds=0.25)),
        ("2000", Budget(iterations=2000)),
    ],
)
def test_budgets(text: str, budget: Budget) -> None:
    assert parse_budget(text) == budget
    assert isinstance(make_bot(f"ismcts:{text}", GAME), ISMCTSBot)


@pytest.mark.parametrize("spec", ["ismcts:fast", "ismcts:0s", "ismcts:1.5", "random:1s"])
def test_bad_budgets_are_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, GAME)


@pytest.mark.parametrize("state", positions(6), ids=lambda s: f"{s.phase}-r{s.round}")
def test_policy_mode_is_blind_to_hidden_information(state: State) -> None:
    """The bot as built for play (heuristic rollouts, opponents by policy) obeys the contract."""
    for seat in state.to_move():
        choices = set()
        for k in range(3):
            truth = state.resample(seat, Rng(2000 + k))
            searcher = make_bot("ismcts:30", GAME)
            assert isinstance(searcher, ISMCTSBot) and searcher.model_opponents
            choices.add(searcher.choose(SeatView.of(truth, seat), Rng(9)))
        assert len(choices) == 1
        assert choices.pop() in state.legal_actions(seat)
