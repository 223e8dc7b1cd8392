"""The generic ISMCTS bot: legal, deterministic by iterations, blind to hidden information."""

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from karnak.bots import BotSpecError, Budget, SeatView, make_bot, parse_budget
from karnak.bots.ismcts import ISMCTSBot
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, State, get_game
from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.knowledge import rank_rewards
from karnak.games.amunre.rules.actions import Sell
from support.example_game import NAME, installed

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


# ---------------------------------------------------------------- sealed stretches


def one_decision_each(state: State) -> State:
    """The same sealed step with nothing to do before the commitment: both Aton seats have
    exchanged their cards already, and no Amun-Re seat holds a card it could sell."""
    if state.game.name == "aton":
        state.exchanged = [True, True]  # type: ignore[attr-defined]
    else:
        state.hand = [[0] * len(hand) for hand in state.hand]  # type: ignore[attr-defined]
    return state


def sealed_positions() -> list[State]:
    """Aton's allocations and Amun-Re's offerings and province picks (expert), where each
    seat decides once in the sealed step and the game then goes on in turns."""
    found: list[State] = []
    specs = [
        ("aton", 2, {}),
        ("amunre", 3, {}),
        ("amunre", 4, {"expert_provinces": True, "edition": "2016"}),
        ("amunre", 5, {}),
    ]
    for name, players, options in specs:
        game = get_game(name)
        for seed in range(3):
            state = game.new_state(players, seed=seed, options=options)
            rng = Rng(100 + seed)
            keep = (seed, seed + 2)  # which sealed steps of the game to keep
            index = 0
            while not state.is_over() and index <= keep[-1]:
                if state.is_simultaneous():
                    if index in keep:
                        found.append(one_decision_each(state.clone()))
                    index += 1
                seat = state.to_move()[0]
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.below(len(actions))])
    return found


#: (position, seat) -> (the move, a digest of the root's visits per move) that
#: ``ISMCTSBot(Budget(iterations=100))`` chose with ``Rng(11 + position)``, recorded by
#: running the search as it was before sealed stretches were walked in passes (a sealed
#: step was then one node keyed by every move until the state stopped being simultaneous).
BEFORE = {
    (0, 0): ("allocate 4 1 2 4", "8b456834aa"),
    (0, 1): ("allocate 1 2 4 4", "7151340fa3"),
    (1, 0): ("allocate 1 1 2 3", "0755b817fb"),
    (1, 1): ("allocate 2 1 1 2", "acafa80745"),
    (2, 1): ("allocate 3 4 3 3", "bc10c1f653"),
    (3, 1): ("allocate 1 4 3 4", "7532592375"),
    (4, 1): ("allocate 1 2 2 4", "f42f48b301"),
    (5, 1): ("allocate 1 4 3 1", "135d1e2560"),
    (6, 0): ("offer 3", "dafa7d4466"),
    (6, 1): ("offer 1", "c65d0b711e"),
    (6, 2): ("offer theft", ""),
    (7, 2): ("offer theft", ""),
    (8, 1): ("offer 7", "1920928091"),
    (8, 2): ("offer theft", ""),
    (9, 0): ("offer 3", "171aa2fd20"),
    (9, 1): ("offer 4", "4bc7a71963"),
    (9, 2): ("offer 2", "9deec6b3da"),
    (10, 2): ("offer 1", "d389d64e81"),
    (11, 1): ("offer 2", "e16937f92e"),
    (11, 2): ("offer theft", "64411d30b0"),
    (12, 0): ("pick MEMPHIS", "c2511f7298"),
    (12, 1): ("pick EDFU", "bf9d56a737"),
    (12, 2): ("pick DAKHLA", "4e548dcbc6"),
    (12, 3): ("pick THEBES", "f6cb799538"),
    (13, 2): ("pick DAKHLA", "506a96d5cb"),
    (13, 3): ("pick THEBES", "617308b246"),
    (14, 0): ("pick EDFU", "5fbb563892"),
    (14, 1): ("pick KHARGA", "07884d66bd"),
    (14, 2): ("pick MENDES", "17019f437e"),
    (14, 3): ("pick BUTO", "e01368bb20"),
    (15, 2): ("pick MENDES", "d6f48ec944"),
    (15, 3): ("pick DAMANHUR", "a6c9eb7209"),
    (16, 2): ("pick MEMPHIS", "b7d5e076b4"),
    (16, 3): ("pick EDFU", "f8ffe117e5"),
    (17, 3): ("pick EDFU", "566a0b4268"),
    (18, 0): ("offer 3", "a7f71d6502"),
    (18, 1): ("offer 2", "0afa1961bd"),
    (18, 2): ("offer 1", "4acf2bb922"),
    (18, 3): ("offer 5", "bff4c2f618"),
    (18, 4): ("offer theft", "b9c70d2546"),
    (19, 2): ("offer 4", "b956d62086"),
    (19, 3): ("offer 6", "0e3ea63889"),
    (19, 4): ("offer 10", "dc4aa0b34b"),
    (20, 1): ("offer 1", "0e8f45d1a7"),
    (20, 2): ("offer theft", ""),
    (20, 3): ("offer 6", "f28f58974a"),
    (20, 4): ("offer theft", "d75e853afd"),
    (21, 3): ("offer 4", "7f96bd51cf"),
    (21, 4): ("offer 2", "3a7a360cb2"),
    (22, 2): ("offer 16", "ac29ba8e7d"),
    (22, 3): ("offer 2", "d99ab05231"),
    (22, 4): ("offer 14", "f7a1776318"),
    (23, 3): ("offer 3", "69c55835fb"),
    (23, 4): ("offer 6", "dd15e94193"),
}


def visits_digest(visits: dict[Action, int]) -> str:
    """A short digest of the root's visits ("" where a single legal move needed no search)."""
    if not visits:
        return ""
    text = repr(sorted((action.to_text(), count) for action, count in visits.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def test_a_sealed_step_of_single_decisions_is_searched_as_before() -> None:
    """Where every seat decides once in the sealed step, the passes change nothing: the same
    move from the same root statistics as the search before them, at every position."""
    phases: set[str] = set()
    seen = {}
    for i, state in enumerate(sealed_positions()):
        phases.add(f"{state.game.name}:{state.phase}")  # type: ignore[attr-defined]
        for seat in state.to_move():
            searcher = bot(100)
            choice = searcher.choose(SeatView.of(state, seat), Rng(11 + i))
            assert sum(searcher.last_visits.values()) == searcher.last_iterations
            seen[(i, seat)] = (choice.to_text(), visits_digest(searcher.last_visits))
    assert phases == {"aton:allocate", "amunre:offering", "amunre:pick"}
    assert seen == BEFORE


@pytest.fixture(scope="module")
def goofspiel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Game]:
    with installed(Path(tmp_path_factory.mktemp("site"))):
        yield get_game(NAME)


def test_the_root_holds_only_the_decision_at_hand_when_sealed_rounds_follow(
    goofspiel: Game,
) -> None:
    """Goofspiel's rounds of sealed bids follow one another, so the whole game is one sealed
    stretch; every later bid must be judged at a node of its own, not counted at the root."""
    for seed in range(4):
        state = goofspiel.new_state(2, seed=seed)
        rng = Rng(seed)
        for _ in range(2 * (seed % 3)):  # a few rounds in
            seat = state.to_move()[0]
            state.apply(seat, state.legal_actions(seat)[rng.below(len(state.legal_actions(seat)))])
        for seat in state.to_move():
            searcher = bot(80)
            view = SeatView.of(state, seat)
            searcher.choose(view, Rng(seed))
            assert searcher.last_iterations > 0
            # one decision at the root an iteration, not one for every round still to come
            assert sum(searcher.last_visits.values()) == searcher.last_iterations
            assert set(searcher.last_visits) == set(view.legal_actions)


def test_the_root_holds_only_the_decision_at_hand_in_egyptia() -> None:
    """Egyptia is sealed from start to end, and a builder decides several times a round."""
    egyptia = get_game("egyptia")
    for players in (1, 2):
        state = egyptia.new_state(players, seed=players)
        rng = Rng(players)
        for step in range(12):
            seat = state.to_move()[0]
            view = SeatView.of(state, seat)
            if step % 4 == 0 and len(view.legal_actions) > 1:
                searcher = bot(40)
                searcher.choose(view, Rng(step))
                assert sum(searcher.last_visits.values()) == searcher.last_iterations
                assert set(searcher.last_visits) <= set(view.legal_actions)
            state.apply(seat, view.legal_actions[rng.below(len(view.legal_actions))])
