"""OpenSpiel's IS-MCTS as a Karnak bot (``openspiel-ismcts:1s``, ``openspiel-ismcts:500``): an
outside, generic search to measure Karnak's own bots against (issue 35).

**What it sees.** The bot never touches the true state. For each move it samples one world
from its seat's information set (``view.infoset.sample(rng)``), wraps that world in Karnak's
OpenSpiel adapter (:mod:`karnak.envs.openspiel`) and lets OpenSpiel's
:class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` search from it. The sampled world only
serves as a root that OpenSpiel can hold: IS-MCTS resamples a fresh world from the root's
information state on every simulation (``resample_from_infostate``), so the hidden part of
the sample does not steer the search, and the true hidden cards never reach it.

**Spelling.** A Karnak move may be spelled as several OpenSpiel ids. The bot runs one search
per id until the move is spelled, applying each chosen id to its wrapped world. An iteration
budget is simulations per id decision. A time budget is shared: each id search may use the
time left for the move divided by the ids still to come at most (the move's spelling length
is not known in advance, so the bot assumes at most ``SPELLING_GUESS`` ids and never fewer than
one still to come), and stops at its deadline (after at least ``MIN_SIMULATIONS``).

The bot's numpy ``RandomState`` (OpenSpiel's randomness, rollouts included) is seeded from the
arena's generator, so an iteration budget plays the same for a seed. Uses ``uct_c=2`` (as
OpenSpiel's examples) and the max-visit-count final policy.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.rng import Rng
from karnak.envs.idgame import IdState
from karnak.envs.openspiel import KarnakGame, KarnakState, _World, game_class
from karnak.envs.openspiel import register as register_games

__all__ = ["OpenSpielISMCTSBot", "register"]

#: OpenSpiel's examples' exploration constant.
UCT_C = 2.0
#: How many ids a time budget assumes a move may take when it splits the move's time.
SPELLING_GUESS = 2
#: The fewest simulations an id search runs, whatever its budget: OpenSpiel's first simulation
#: only expands the root, and its final policy needs a visited child.
MIN_SIMULATIONS = 2
#: The default budget when the spec gives none.
DEFAULT_BUDGET = Budget(iterations=200)


class _TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS with our own search loop: the same steps (a fresh root, one
    resampled world per simulation, the final policy), stopping after ``max_simulations``,
    at ``deadline`` or when ``stop`` says so, whichever comes first (at least
    ``MIN_SIMULATIONS``)."""

    #: When the search must stop (None: run ``max_simulations``, an iteration budget).
    deadline: float | None = None
    #: Asked between simulations; True ends the search (a server ending a game).
    stop: Callable[[], bool] | None = None
    #: Simulations run by the last search.
    simulations: int = 0

    def resample_from_infostate(self, state: Any) -> Any:
        """A world from the root's information state, drawn with a sampler seeded from the
        bot's own RandomState (OpenSpiel's default sampler is seeded from the clock, which
        would make an iteration budget play differently each run)."""
        seed = int(self._random_state.randint(2**31))
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        return state.resample_from_infostate(state.current_player(), sampler)

    def _done(self, simulations: int) -> bool:
        if simulations < MIN_SIMULATIONS:
            return False
        if simulations >= self._max_simulations:
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        return self.stop is not None and self.stop()

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        self.simulations = 0
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        while not self._done(self.simulations):
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
        return list(self.get_final_policy(state, self._root_node))


class OpenSpielISMCTSBot(Bot):
    """Plays a Karnak seat with OpenSpiel's IS-MCTS (see the module's text)."""

    name = "openspiel-ismcts"

    def __init__(self, game: Game, budget: Budget):
        self.game = game
        self.budget = budget
        #: Simulations run in the last move (for measurements).
        self.simulations = 0
        #: Asked between simulations; True ends the search (the server's Searching protocol,
        #: karnak.server.bot_limits, which also caps this bot's budget).
        self.stop: Callable[[], bool] | None = None

    def label(self) -> str:
        return f"{self.name}:{self.budget}".replace(" iterations", "")

    def _spiel_game(self, world: Any) -> KarnakGame:
        """The adapter's game for the sampled world's table and options (fixed seed: the seed
        plays no part, the world is given)."""
        register_games()
        params: dict[str, Any] = {"players": len(world.players), "seed": 0}
        params.update(world.options)
        return game_class(self.game.name)(params)

    def choose(self, view: SeatView, rng: Rng) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        world = view.infoset.sample(rng)
        spiel = self._spiel_game(world)
        wrapped = _World(spiel.key, 0, None)
        wrapped._id_state = IdState(spiel.idgame, world.clone(log=False))
        wrapped.replayable = False
        state = KarnakState(spiel, wrapped)
        random_state = np.random.RandomState(rng.below(2**31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        iterations = self.budget.iterations
        bot = _TimedISMCTS(
            spiel,
            evaluator,
            uct_c=UCT_C,
            max_simulations=iterations if iterations is not None else 2**62,
            random_state=random_state,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.stop = self.stop
        ids = self._spell(bot, state, view.seat)
        speller = spiel.idgame.speller
        action = speller.action_of(world, view.seat, ids)
        return _matching(action, view.legal_actions)

    def _spell(self, bot: _TimedISMCTS, state: Any, seat: int) -> list[int]:
        """Search id after id until the seat's move is spelled; the ids chosen."""
        start = time.perf_counter()
        ids: list[int] = []
        self.simulations = 0
        while not state.is_terminal() and state.current_player() == seat:
            id_state = state.id_state()
            if ids and not id_state.prefix:
                break  # the move is spelled; the seat moves again
            if self.budget.seconds is not None:
                left = self.budget.seconds - (time.perf_counter() - start)
                share = left / max(1, SPELLING_GUESS - len(ids))
                bot.deadline = time.perf_counter() + max(share, 0.0)
            action_id = int(bot.step(state))
            self.simulations += bot.simulations
            ids.append(action_id)
            state.apply_action(action_id)
        return ids


def _matching(action: Action, legal: Any) -> Action:
    """The legal action equal to ``action`` (the object from ``view.legal_actions``)."""
    for candidate in legal:
        if candidate == action:
            return candidate  # type: ignore[no-any-return]
    raise RuntimeError(f"OpenSpiel's IS-MCTS spelled {action}, which is not legal here")


def make_openspiel_ismcts(game: Game, budget: Budget | None) -> Bot:
    return OpenSpielISMCTSBot(game, budget or DEFAULT_BUDGET)


def _has_openspiel_form(game: Game) -> bool:
    try:
        game_class(game.name)
    except Exception:
        return False
    return True


def register() -> None:
    """Offer ``openspiel-ismcts`` (the ``karnak.bots`` entry point)."""
    register_bot(
        "openspiel-ismcts",
        make_openspiel_ismcts,
        help="OpenSpiel's IS-MCTS through the OpenSpiel adapter (budget: :1s, :500)",
        takes_budget=True,
        available=_has_openspiel_form,
    )
