"""Karnak's games with explicit chance nodes for OpenSpiel: ``karnak_aton_chance``,
``karnak_amunre_chance`` and ``karnak_egyptia_chance``.

    >>> from karnak.envs.openspiel_chance import register
    >>> import pyspiel                                                # doctest: +SKIP
    >>> register()                                                    # doctest: +SKIP
    ['karnak_amunre_chance', 'karnak_aton_chance', 'karnak_egyptia_chance']
    >>> state = pyspiel.load_game("karnak_egyptia_chance(players=1)").new_initial_state()
    >>> state.chance_outcomes()                     # doctest: +SKIP
    [(0, 0.333...), (1, 0.333...), (2, 0.333...)]

The sequential games of :mod:`karnak.envs.openspiel` draw their chance from the Karnak seed,
hidden inside the engine (no chance nodes). Here every draw the engine makes is a chance node
(``ChanceMode.EXPLICIT_STOCHASTIC``): what algorithms that weigh chance exactly need
(expectiminimax, CFR and its sampling variants, exact policy evaluation).

**How.** Every draw of the engine's generator (:class:`karnak.core.rng.Rng`) is a uniform
choice among ``n``: ``below(n)``, a die (``roll``), a ``choice``, and a shuffle, which is a
Fisher-Yates shuffle, one draw among ``i + 1`` for each position ``i`` from the last down to
1. A state here runs the engine's own transition (the rules untouched) with a scripted
generator, :class:`ScriptedRng`, that answers the draws with the chance outcomes chosen so
far; when the transition asks for one more, it stops, and the state is a chance node with
``n`` equally likely outcomes. Choosing one redoes the transition from a copy made before it
with one more outcome scripted, until it runs to its end. A node offers at most
``max_chance_outcomes`` outcomes, the largest draw of a deal; a larger draw later (Amun-Re at
five seats reshuffles more power cards than it dealt) is two nodes, its block of outcomes
(as likely as the block is large) and then the outcome within it. So the chance form is exact and
general: every outcome has probability ``1/n``, and its distribution is the sampled game's
(up to the sampled generator's own bias, below ``n / 2**64`` per draw). Choosing each
outcome as the seeded generator would (:func:`seeded_outcome`) plays exactly the engine's
game of that seed.

**Which games allow which algorithms.** Every node is small (``max_chance_outcomes`` is the
largest draw of a deal: a shuffled pile, deck or province row, or the largest die), but the
games have a great deal of chance in all: dealing Aton shuffles two piles of 36 cards (70
chance nodes), Amun-Re shuffles its power deck and provinces, Egyptia draws the Pharaoh's
cards (fixed by the ``cards`` option) and rolls six dice a round (4 to 20 sides). Algorithms
that walk every chance outcome of a whole game (exact best response, full-width CFR,
``expected_game_score``) cannot finish on any table; those that sample chance from the
explicit probabilities (outcome-sampling MCCFR) or expand it only within a short horizon
(depth-limited expectiminimax from a position where little chance is left) can. See
docs/research.md for the sizes.

**Limits.** The engine must run as pure Python: a compiled engine (:mod:`karnak.native`)
takes its generator as a compiled class that no scripted one can stand in for, so loading a
chance game in a process that uses the compiled engines raises
:class:`ChanceFormUnavailable` (``KARNAK_NATIVE=0`` makes a process pure Python). The deal is
scripted by lending the engine's state module a generator class for the length of the deal
(to the dealing thread only, under a lock). No ``seed`` parameter: the chance outcomes are
the game's chance.

**What a seat sees** at a chance node is the position before the pending move (the chance
outcomes drawn so far of a deal or shuffle are hidden; a move's effects are seen once the
transition has run); at a decision node it is the sequential game's view. Ids, rewards and
the other parameters are the sequential game's (the returns are 0 until the deal ends; its
last chance outcome pays the standing a game starts with).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any, Literal, TypeVar

import pyspiel

from karnak.core.action_ids import ActionIdError
from karnak.core.game import Game
from karnak.core.registry import available_games, get_game
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.envs.idgame import IdGame, IdState
from karnak.envs.openspiel import (
    KarnakObserver,
    Key,
    _idgame,
    _key,
    _parameter_value,
    _rng_from,
    default_players,
    observes_with_recall,
    parameter_specification,
    short_name,
)

T = TypeVar("T")

#: What a chance game's short name ends with (``karnak_aton_chance``).
SUFFIX = "_chance"
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: How a draw is made: ``"below"`` (below, a die, a choice) or ``"shuffle"`` (one position
#: of a Fisher-Yates shuffle). Both are uniform among ``n``; the seeded generator reduces its
#: 64 bits differently for each, which :func:`seeded_outcome` follows.
DrawKind = Literal["below", "shuffle"]
Draw = tuple[int, DrawKind]


def chance_name(name: str) -> str:
    """The pyspiel short name of the Karnak game ``name``'s explicit-chance form."""
    return short_name(name) + SUFFIX


class ChanceFormUnavailable(RuntimeError):
    """The engine cannot be run with a scripted generator (a compiled engine)."""


class NotEnumerable(RuntimeError):
    """The engine asked its generator for something that is not a choice among ``n``."""


class _NeedChance(Exception):
    """Raised inside a transition when it asks for a draw nobody has chosen yet."""

    def __init__(self, draw: Draw):
        super().__init__(draw)
        self.draw = draw


def seeded_outcome(rng: Rng, draw: Draw) -> int:
    """The outcome the seeded generator ``rng`` gives ``draw``, as the engine would draw it
    (``below`` for a below/die/choice, the shuffle's multiply-shift for a shuffle)."""
    n, kind = draw
    if kind == "shuffle":
        return (rng.next_u64() * n) >> 64
    return rng.below(n)


class ScriptedRng:
    """A stand-in for :class:`Rng` whose draws are the chance outcomes given
    (``outcomes``); one more draw raises :class:`_NeedChance` with its ``n`` and kind, or, with
    a ``source`` generator, is drawn from it as the engine would (recorded in ``draws``).

    ``state`` is 0 (what a state's JSON records of it); a copy is a generator with nothing
    scripted, so a cloned state asks again for any draw.
    """

    __slots__ = ("draws", "outcomes", "source", "state", "used")

    def __init__(self, outcomes: Sequence[int] = (), source: Rng | None = None):
        self.outcomes = list(outcomes)
        self.source = source
        self.used = 0
        self.state = 0
        #: Every draw made, with its outcome: ((n, kind), outcome).
        self.draws: list[tuple[Draw, int]] = []

    def _draw(self, n: int, kind: DrawKind) -> int:
        if n <= 0:
            raise ValueError("a draw needs at least one outcome")
        if self.used < len(self.outcomes):
            outcome = self.outcomes[self.used]
            if not 0 <= outcome < n:
                raise ActionIdError(f"chance outcome {outcome} is not among the {n} of this draw")
        elif self.source is not None:
            outcome = seeded_outcome(self.source, (n, kind))
            self.outcomes.append(outcome)
        else:
            raise _NeedChance((n, kind))
        self.used += 1
        self.draws.append(((n, kind), outcome))
        return outcome

    # --- what the engines call ---------------------------------------------------------
    def below(self, n: int) -> int:
        return self._draw(n, "below")

    def roll(self, sides: Sequence[int]) -> list[int]:
        if min(sides, default=1) <= 0:
            raise ValueError("roll() needs dice with at least one side")
        return [1 + self._draw(n, "below") for n in sides]

    def choice(self, items: Sequence[T]) -> T:
        return items[self._draw(len(items), "below")]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._draw(i + 1, "shuffle")
            items[i], items[j] = items[j], items[i]

    def copy(self) -> ScriptedRng:
        return ScriptedRng()

    def next_u64(self) -> int:
        raise NotEnumerable("the engine asked for 64 raw bits: not a choice among n")

    def random(self) -> float:
        raise NotEnumerable("the engine asked for a float: not a choice among n")

    def fork(self) -> Rng:
        raise NotEnumerable("the engine forked its generator: not a choice among n")


# --------------------------------------------------------------------- running the engine
_DEAL_LOCK = threading.Lock()
#: The module of each game's state class (where the deal makes its generator).
_STATE_MODULES: dict[str, str] = {}


def _deal(idgame: IdGame, rng: ScriptedRng) -> State:
    """A new Karnak state dealt with ``rng`` as its generator: the engine's state module is
    lent a class that hands out ``rng`` for the length of the deal (to this thread only;
    under a lock, then put back). ChanceFormUnavailable if the engine dealt from another
    generator (a compiled engine)."""
    game = idgame.game
    module_name = _STATE_MODULES.get(game.name)
    if module_name is None:
        probe = game.new_state(idgame.players, seed=0, options=idgame.options)
        module_name = _STATE_MODULES[game.name] = type(probe).__module__
    module = sys.modules[module_name]
    with _DEAL_LOCK:
        if getattr(module, "Rng", None) is not Rng:
            raise ChanceFormUnavailable(
                f"{module_name} does not make its generator as karnak.core.rng.Rng"
            )

        dealer = threading.get_ident()

        def lend(seed: int = 0) -> Rng | ScriptedRng:
            # Only this deal gets the stand-in: a state made meanwhile in another thread
            # gets a generator of its own seed, as ever.
            return rng if threading.get_ident() == dealer else Rng(seed)

        module.Rng = lend  # type: ignore[attr-defined]
        try:
            state = game.new_state(idgame.players, seed=0, options=idgame.options)
        finally:
            module.Rng = Rng  # type: ignore[attr-defined]
    if getattr(state, "rng", None) is not rng:
        raise ChanceFormUnavailable(
            f"{game.title}'s engine is compiled (karnak.native) and draws from its own "
            "generator, which no scripted one can stand in for: the explicit-chance form "
            "runs on the pure-Python engine (start the process with KARNAK_NATIVE=0)"
        )
    return state


def _with_rng(id_state: IdState, rng: ScriptedRng) -> IdState:
    id_state.state.rng = rng  # type: ignore[assignment]  # a stand-in (see ScriptedRng)
    return id_state


def recorded_deal(idgame: IdGame, seed: int) -> tuple[State, list[tuple[Draw, int]]]:
    """The engine's deal with every draw taken from ``Rng(seed)`` as the engine takes it,
    and the draws made (what the sampled game of that seed deals)."""
    rng = ScriptedRng(source=Rng(seed))
    state = _deal(idgame, rng)
    return state, list(rng.draws)


# --------------------------------------------------------------------- the state's world
class _ChanceWorld:
    """The Karnak state behind one explicit-chance pyspiel state.

    Between transitions it holds ``id_state``. While a transition waits for chance it holds
    ``base`` (the id-level state before the transition; None while dealing), ``pending``
    (the id being played; None while dealing), the ``outcomes`` chosen so far and ``need``,
    the draw asked for now.

    A chance node offers at most ``radix`` outcomes (the game's ``max_chance_outcomes``): a
    draw among more is two nodes, first its block of ``radix`` outcomes (each as likely as
    its size), then the outcome within the block (uniform), which is the same distribution.
    """

    __slots__ = (
        "actions",
        "base",
        "block",
        "id_state",
        "key",
        "need",
        "outcomes",
        "paid",
        "pending",
        "radix",
        "replayable",
        "rewards",
    )

    def __init__(self, key: Key, radix: int):
        if radix < 2:
            raise ValueError(f"a chance node needs room for two outcomes, not {radix}")
        self.key = key
        self.radix = radix
        #: The block chosen of a draw larger than ``radix`` (None: not chosen, or none).
        self.block: int | None = None
        self.id_state: IdState | None = None
        self.base: IdState | None = None
        self.pending: int | None = None
        self.outcomes: list[int] = []
        self.need: Draw | None = None
        #: Every action so far, decisions and chance outcomes (the whole game, replayed).
        self.actions: list[int] = []
        self.replayable = True
        #: The returns paid so far (each seat's standing after the last whole transition).
        self.paid = [0.0] * key[1]
        self.rewards: list[float] | None = None

    @property
    def idgame(self) -> IdGame:
        return _idgame(self.key)

    def start(self) -> _ChanceWorld:
        """Begin the deal (stops at its first draw)."""
        self._run()
        return self

    def _run(self) -> None:
        """Run the pending transition (or the deal) with the outcomes chosen so far."""
        rng = ScriptedRng(self.outcomes)
        try:
            if self.base is None:
                trial = IdState(self.idgame, _deal(self.idgame, rng))
            else:
                trial = _with_rng(self.base.clone(), rng)
                assert self.pending is not None
                trial.apply_id(self.pending)
        except _NeedChance as asked:
            self.need = asked.draw
            return
        self.id_state = _with_rng(trial, ScriptedRng())
        self.base, self.pending, self.outcomes, self.need = None, None, [], None

    # --- whose decision ---------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.need is not None

    def current_player(self) -> int:
        if self.need is not None:
            return CHANCE
        assert self.id_state is not None
        return self.id_state.current_player()

    def legal_actions(self, player: int) -> list[int]:
        if self.need is not None:
            return [k for k, _ in self.chance_outcomes()] if player == CHANCE else []
        assert self.id_state is not None
        if player != self.id_state.current_player() or player == TERMINAL:
            return []
        return self.id_state.legal_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """This node's outcomes and their probabilities (see the class's text)."""
        if self.need is None:
            return []
        n, radix = self.need[0], self.radix
        if n <= radix:
            return [(k, 1.0 / n) for k in range(n)]
        if self.block is None:
            sizes = [min(radix, n - start) for start in range(0, n, radix)]
            if len(sizes) > radix:
                raise NotEnumerable(f"a draw among {n} needs more than two nodes of {radix}")
            return [(b, size / n) for b, size in enumerate(sizes)]
        size = min(radix, n - self.block * radix)
        return [(k, 1.0 / size) for k in range(size)]

    def chance_actions(self, outcome: int) -> list[int]:
        """The chance actions that draw ``outcome`` of the pending draw (one, or a block and
        the outcome within it)."""
        assert self.need is not None and self.block is None
        n, radix = self.need[0], self.radix
        if not 0 <= outcome < n:
            raise ActionIdError(f"chance outcome {outcome} is not among the {n} of this draw")
        return [outcome] if n <= radix else [outcome // radix, outcome % radix]

    # --- applying ---------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if self.need is not None:
            choices = self.chance_outcomes()
            if not 0 <= action < len(choices):
                raise ActionIdError(f"chance action {action} is not among the {len(choices)}")
            if self.need[0] > self.radix and self.block is None:
                self.block = action
            else:
                self.outcomes.append(action + (self.block or 0) * self.radix)
                self.block = None
                self._run()
        else:
            state = self.id_state
            assert state is not None
            if state.is_terminal():
                raise ActionIdError("the game is over: no id can be chosen")
            before = _with_rng(state.clone(), ScriptedRng())
            try:
                state.apply_id(action)  # ActionIdError leaves the state unchanged
            except _NeedChance as asked:
                self.base, self.pending, self.outcomes = before, action, []
                self.need = asked.draw
                self.id_state = None
        if self.replayable:
            self.actions.append(action)
        if self.need is None:
            assert self.id_state is not None
            now = self.id_state.standing()
            self.rewards = [a - b for a, b in zip(now, self.paid, strict=True)]
            self.paid = now
        else:
            self.rewards = [0.0] * len(self.paid)

    # --- what a seat sees -------------------------------------------------------------
    def seen(self) -> IdState:
        """The id-level state a seat's view is taken from: the state now, or the one
        before the pending transition (a deal in progress shows nothing yet)."""
        if self.id_state is not None:
            return self.id_state
        if self.base is not None:
            return self.base
        raise ActionIdError("nothing is dealt yet: no seat has a view before the deal ends")

    # --- copies -------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> _ChanceWorld:
        other = _ChanceWorld(self.key, self.radix)
        other.block = self.block
        if self.id_state is not None:
            other.id_state = _with_rng(self.id_state.clone(), ScriptedRng())
        if self.base is not None:
            other.base = _with_rng(self.base.clone(), ScriptedRng())
        other.pending = self.pending
        other.outcomes = list(self.outcomes)
        other.need = self.need
        other.actions = list(self.actions)
        other.replayable = self.replayable
        other.paid = list(self.paid)
        other.rewards = None if self.rewards is None else list(self.rewards)
        return other

    def resampled(self, seat: int, rng: Rng) -> _ChanceWorld:
        if self.id_state is None:
            raise ActionIdError("a world is resampled at a decision node, not a chance node")
        other = _ChanceWorld(self.key, self.radix)
        other.id_state = _with_rng(self.id_state.resample(seat, rng), ScriptedRng())
        other.replayable = False
        other.paid = list(self.paid)
        other.rewards = None if self.rewards is None else list(self.rewards)
        return other

    def __reduce__(self) -> tuple[Callable[..., _ChanceWorld], tuple[Any, ...]]:
        if self.replayable:
            return _replayed, (self.key, self.radix, list(self.actions), self.rewards)
        state = self.seen()
        return _restored, (
            self.key,
            self.radix,
            state.state.to_json(),
            state.length,
            state.prefix,
            state.truncated,
            self.paid,
            self.rewards,
        )


def _replayed(
    key: Key, radix: int, actions: list[int], rewards: list[float] | None
) -> _ChanceWorld:
    world = _ChanceWorld(key, radix).start()
    for action in actions:
        world.apply(action)
    world.rewards = rewards
    return world


def _restored(
    key: Key,
    radix: int,
    data: Mapping[str, Any],
    length: int,
    prefix: tuple[int, ...],
    truncated: bool,
    paid: list[float],
    rewards: list[float] | None,
) -> _ChanceWorld:
    world = _ChanceWorld(key, radix)
    idgame = world.idgame
    state = IdState(idgame, idgame.game.state_from_json(data))
    state.length, state.prefix, state.truncated = int(length), tuple(prefix), truncated
    world.id_state = _with_rng(state, ScriptedRng())
    world.replayable, world.paid, world.rewards = False, list(paid), rewards
    return world


# --------------------------------------------------------------------- pyspiel classes
def chance_parameters(game: Game) -> dict[str, bool | int | float | str]:
    """The parameters of ``game``'s chance form: the sequential game's but ``seed``."""
    spec = parameter_specification(game)
    del spec["seed"]
    return spec


def _game_type(game: Game, params: Mapping[str, Any], idgame: IdGame) -> Any:
    kinds = pyspiel.GameType
    d = idgame.description
    return pyspiel.GameType(
        short_name=chance_name(game.name),
        long_name=f"Karnak {game.title} (explicit chance)",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=kinds.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kinds.Information.IMPERFECT_INFORMATION,
        utility=kinds.Utility.ZERO_SUM if d.utility == "zero_sum" else kinds.Utility.GENERAL_SUM,
        reward_model=(
            kinds.RewardModel.REWARDS if d.reward_model == "rewards" else kinds.RewardModel.TERMINAL
        ),
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(params),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


class KarnakChanceGame(pyspiel.Game):  # type: ignore[misc]
    """One Karnak game with explicit chance nodes (a subclass per game, from
    :func:`game_class`, names the game)."""

    karnak_name: str

    def __init__(self, params: Mapping[str, Any] | None = None):
        game = get_game(self.karnak_name)
        spec = chance_parameters(game)
        given = dict(params or {})
        if "seed" in given:
            raise ValueError(
                f"{chance_name(game.name)} has no seed: its chance nodes are the game's chance"
            )
        self.key = _key(game, given)
        self.idgame = _idgame(self.key)
        self.karnak_game = self.idgame.game
        d = self.idgame.description
        # A chance node has at most as many outcomes as the largest draw of a deal; a larger
        # draw later (a reshuffle of more cards than were dealt) takes two nodes.
        _, draws = recorded_deal(self.idgame, 0)
        self.deal_draws = len(draws)
        self.largest_draw = max((n for (n, _), _ in draws), default=2)
        full = {**spec, **{name: _parameter_value(value) for name, value in given.items()}}
        super().__init__(
            _game_type(game, spec, self.idgame),
            pyspiel.GameInfo(
                num_distinct_actions=self.idgame.num_actions,
                max_chance_outcomes=self.largest_draw,
                num_players=d.players,
                min_utility=d.min_utility,
                max_utility=d.max_utility,
                utility_sum=d.utility_sum,
                # A bound: the deal, then every id followed by at most a deal's draws (each
                # at most two nodes).
                max_game_length=2 * self.deal_draws + d.max_game_length * (1 + 2 * self.deal_draws),
            ),
            full,
        )

    def new_initial_state(self, *args: Any) -> KarnakChanceState:
        if args:
            raise ValueError(f"{chance_name(self.karnak_name)} starts only from its deal")
        return KarnakChanceState(self, _ChanceWorld(self.key, self.largest_draw).start())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ChanceObserver:
        return ChanceObserver(self, perfect_recall=observes_with_recall(iig_obs_type, params))


class KarnakChanceState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state with explicit chance nodes (see the module's text)."""

    def __init__(self, game: KarnakChanceGame, world: _ChanceWorld):
        super().__init__(game)
        self._world = world

    # --- Karnak's own ------------------------------------------------------------
    def id_state(self) -> IdState:
        """The id-level state a seat's view is taken from (before the pending move at a
        chance node)."""
        return self._world.seen()

    def pending_draw(self) -> Draw | None:
        """The draw a chance node asks for: its number of outcomes and its kind (None at a
        decision node, and after the block of a two-node draw is chosen)."""
        world = self._world
        return world.need if world.block is None else None

    # --- the OpenSpiel API -------------------------------------------------------
    def current_player(self) -> int:
        return self._world.current_player()

    def is_chance_node(self) -> bool:
        return self._world.is_chance()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._world.chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        return self._world.legal_actions(int(player))

    def draw_outcome(self, outcome: int) -> None:
        """Draw ``outcome`` of the pending draw (among ``pending_draw()[0]``), in one chance
        node or two (see :class:`_ChanceWorld`)."""
        for action in self._world.chance_actions(int(outcome)):
            self.apply_action(action)

    def _apply_action(self, action: int) -> None:
        self._world.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:  # the same text whenever asked (OpenSpiel asks after, too)
            return f"chance outcome {action}"
        return self._world.idgame.id_name(int(action))

    def is_terminal(self) -> bool:
        world = self._world
        return world.need is None and world.id_state is not None and world.id_state.is_terminal()

    def returns(self) -> list[float]:
        return list(self._world.paid)

    def rewards(self) -> list[float]:
        rewards = self._world.rewards
        return [0.0] * len(self._world.paid) if rewards is None else list(rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        world = self._world.resampled(int(player_id), _rng_from(probability_sampler))
        return KarnakChanceState(self.get_game(), world)

    def __str__(self) -> str:
        world = self._world
        name = chance_name(world.idgame.description.name)
        if world.need is not None:
            header = (
                f"{name} chance node: draw among {world.need[0]} ({world.need[1]}), "
                f"outcomes so far {world.outcomes}, pending id {world.pending}"
            )
        else:
            header = f"{name} to_move={world.current_player()}"
        actions = (
            "actions: " + " ".join(map(str, world.actions))
            if world.replayable
            else "actions: not kept (a resampled world)"
        )
        lines = [header, actions]
        if world.id_state is not None or world.base is not None:
            lines += world.seen().state.log_lines(everything=True)
        return "\n".join(lines)


class ChanceObserver(KarnakObserver):
    """The sequential game's observer, reading the position before the pending move at a
    chance node, and an all-zero view while the deal is being drawn."""

    def set_from(self, state: Any, player: int) -> None:
        world: _ChanceWorld = state._world
        if world.id_state is None and world.base is None:
            self.tensor.fill(0.0)
            return
        self._fill(world.seen(), int(player))

    def string_from(self, state: Any, player: int) -> str:
        world: _ChanceWorld = state._world
        if world.id_state is None and world.base is None:
            return "the deal is being drawn"
        seen = world.seen()
        if self.perfect_recall:
            return seen.information_state_string(int(player))
        return seen.observation_string(int(player))


# --------------------------------------------------------------------- registration
_CLASSES: dict[str, type[KarnakChanceGame]] = {}


def game_class(name: str) -> type[KarnakChanceGame]:
    """The pyspiel game class of ``name``'s chance form (a class, not a closure: see
    :func:`karnak.envs.openspiel.game_class`)."""
    game = get_game(name)
    cls = _CLASSES.get(game.name)
    if cls is None:
        title = "".join(part.capitalize() for part in game.name.split("_"))
        cls = _CLASSES[game.name] = type(
            f"Karnak{title}ChanceGame",
            (KarnakChanceGame,),
            {"karnak_name": game.name, "__doc__": f"{game.title}, explicit chance nodes."},
        )
    return cls


def _registered_type(game: Game) -> Any:
    spec = chance_parameters(game)
    idgame = _idgame(_key(game, {"players": default_players(game)}))
    return _game_type(game, spec, idgame)


def register() -> list[str]:
    """Register every Karnak game's explicit-chance form with pyspiel (again is harmless).
    Registering needs no pure-Python engine; loading a game does (ChanceFormUnavailable)."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in available_games():
        short = chance_name(name)
        if short not in registered:
            pyspiel.register_game(_registered_type(get_game(name)), game_class(name))
        names.append(short)
    return names
