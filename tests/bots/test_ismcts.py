"""The generic ISMCTS bot: legal, deterministic by iterations, blind to hidden information."""

import pytest

from karnak.bots import BotSpecError, Budget, SeatView, make_bot, parse_budget
from karnak.bots.ismcts import ISMCTSBot
from karnak.core.knowledge import rank_rewards
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, State, get_game
from karnak.core.actions import Action
from karnak.games.amunre.rules.actions import Sell

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


def last_move_policy(state: State, seat: int, rng: Rng) -> Action:
    return state.legal_actions(seat)[-1]


def flat_evaluator(state: State) -> list[float]:
    return [0.5] * len(state.players)


def sell_free_positions() -> list[State]:
    """Positions where the seat to move has several moves besides selling cards."""
    return [
        s
        for s in positions(24)
        if not s.is_simultaneous()
        and len([a for a in s.legal_actions(s.to_move()[0]) if not isinstance(a, Sell)]) > 2
    ]


@pytest.mark.parametrize("state", sell_free_positions()[:5], ids=lambda s: f"{s.phase}-r{s.round}")
def test_progressive_bias_settles_ties_for_the_policy_move(state: State) -> None:
    """When rollouts cannot tell moves apart, the policy's move wins, and only by the bias."""
    seat = state.to_move()[0]
    view = SeatView.of(state, seat)

    def searcher(prior: float) -> ISMCTSBot:
        # every move is tried once, then one more iteration: the bias decides which move
        return ISMCTSBot(
            Budget(iterations=len(view.legal_actions) + 1),
            policy=last_move_policy,
            evaluator=flat_evaluator,
            rollout_depth=0,
            prior=prior,
        )

    assert searcher(0.1).choose(view, Rng(3)) == view.legal_actions[-1]
    # with no bias every move ties, and the most visited of equals is not the policy's
    assert searcher(0.0).choose(view, Rng(3)) != view.legal_actions[-1]


@pytest.mark.parametrize("state", sell_free_positions()[:5], ids=lambda s: f"{s.phase}-r{s.round}")
def test_candidates_narrow_the_search_but_keep_the_policy_move(state: State) -> None:
    seat = state.to_move()[0]
    view = SeatView.of(state, seat)
    legal = view.legal_actions
    searcher = ISMCTSBot(
        Budget(iterations=100),
        policy=last_move_policy,
        evaluator=flat_evaluator,
        candidates=lambda s, seat, actions: [actions[0]],
    )
    assert searcher.choose(view, Rng(4)) in (legal[0], legal[-1])
    alone = ISMCTSBot(
        Budget(iterations=100),
        policy=lambda s, seat, rng: s.legal_actions(seat)[0],
        candidates=lambda s, seat, actions: [actions[0]],
    )
    assert alone.choose(view, Rng(4)) == legal[0]
    assert alone.last_iterations == 0  # one candidate: nothing to search


def test_amunre_search_never_sells_a_card() -> None:
    """Selling is legal at every decision; the search leaves it out (the heuristic never sells)."""
    checked = 0
    for state in positions(30):
        for seat in state.to_move():
            view = SeatView.of(state, seat)
            if not any(isinstance(a, Sell) for a in view.legal_actions):
                continue
            assert not isinstance(make_bot("ismcts:40", GAME).choose(view, Rng(1)), Sell)
            checked += 1
    assert checked >= 5
