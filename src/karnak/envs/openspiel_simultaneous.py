"""Karnak's games as OpenSpiel simultaneous-move games: ``karnak_aton_simultaneous``,
``karnak_amunre_simultaneous`` and ``karnak_egyptia_simultaneous``.

    >>> from karnak.envs.openspiel_simultaneous import register
    >>> import pyspiel                                                      # doctest: +SKIP
    >>> register()                                                          # doctest: +SKIP
    ['karnak_amunre_simultaneous', 'karnak_aton_simultaneous', 'karnak_egyptia_simultaneous']
    >>> game = pyspiel.load_game("karnak_aton_simultaneous(seed=3)")        # doctest: +SKIP
    >>> turns = pyspiel.load_game_as_turn_based("karnak_aton_simultaneous") # doctest: +SKIP

The sequential games of :mod:`karnak.envs.openspiel` play a sealed step (Aton's card
lay-out, Amun-Re's offering, Egyptia's round) one seat after another; here every node is a
*joint* node (``Dynamics.SIMULTANEOUS``, ``apply_actions``) where each seat chooses one id:

- **Who chooses.** The seats the engine waits for (``State.to_move()``: several at a sealed
  step, one in a phase played in turn) choose among their legal ids; every other seat has
  one legal id, :attr:`KarnakSimultaneousGame.noop` (``num_distinct_actions - 1``, "wait").
  pyspiel would take an empty list too (the seat passes 0, and ``load_game_as_turn_based``
  skips it), but "wait" gives every seat a list to choose from at every joint node, as
  generic agents expect; the turn-based conversion then asks a waiting seat for its "wait"
  as well. ``state.legal_actions()`` at a joint node gives the flat joint actions, as
  OpenSpiel's C++ games do.
- **Spelled moves.** A move spelled in several ids (an Amun-Re offering with cards, an
  Egyptia payment; :mod:`karnak.core.action_ids`) takes several joint nodes: at each, a seat
  still spelling chooses its next id, and a seat that has finished its move (the engine no
  longer waits for it) chooses "wait". A seat's unfinished spelling is its own: no other
  seat's observation or information state shows it, and a finished move is hidden by the
  engine until the reveal. The ids (and their numbers) are those of the sequential game,
  plus "wait".
- **What each seat sees** is the sequential game's view (the game's tensor layouts and
  strings, then the counts of the ids the seat has spelled so far of its current move). A
  seat's view does not count joint nodes: at an Egyptia round, how many nodes the round
  takes tells how long the slowest builder spelled, which the other builders must not learn
  (so a seat that only waits may see the same information state at several nodes of one
  game; its only choice there is "wait").
- **Chance, rewards, parameters** are those of the sequential games: the same parameters
  (``players``, ``rewards``, ``seed``, the game's options), chance drawn by the engine from
  the Karnak seed, which is part of the state (``ChanceMode.DETERMINISTIC``; ``seed=-1``: a
  fresh seed per game; explicit chance nodes: :mod:`karnak.envs.openspiel_chance`), rewards
  as the change of each seat's standing by the last joint node. A game that reaches
  ``max_game_length`` joint nodes is cut off (truncated), as the sequential one is at that
  many ids (a joint node advances at least one seat by an id, so it never comes sooner).

Clones deep-copy the state; serialisation pickles the parameters, the seed and the joint
actions (replayed on load), or, for a resampled world, the Karnak state's JSON and the
seat's own unfinished spelling.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from karnak.core.action_ids import ActionIdError, Spelling
from karnak.core.description import standing
from karnak.core.game import Game
from karnak.core.registry import available_games, get_game
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.core.tensors import FloatVector, TensorLayout
from karnak.envs.idgame import IdGame
from karnak.envs.openspiel import (
    SEED_LIMIT,
    Key,
    _idgame,
    _key,
    _parameter_value,
    _rng_from,
    _seed_parameter,
    default_players,
    observes_with_recall,
    parameter_specification,
    short_name,
)

#: What a simultaneous game's short name ends with (``karnak_aton_simultaneous``).
SUFFIX = "_simultaneous"
#: The name of the one id of a seat with nothing to decide at a joint node.
NOOP_NAME = "wait"
_GAME_RNG_SEED = 0

SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def simultaneous_name(name: str) -> str:
    """The pyspiel short name of the Karnak game ``name``'s simultaneous form."""
    return short_name(name) + SUFFIX


def spelled_counts(idgame: IdGame, prefix: Spelling) -> FloatVector:
    """The counts of the ids of ``prefix`` (a seat's unfinished spelling), laid out as the
    ``spelled`` part of the id-level vector (:meth:`IdGame.vector`)."""
    index = idgame.spelling_index
    counts = np.zeros(idgame.spelled_size, dtype=np.float32)
    for action_id in prefix:
        place = index.get(action_id)
        if place is None:
            raise ActionIdError(
                f"{idgame.id_name(action_id)} stands in an unfinished spelling but is not "
                "among the action space's spelling_ids"
            )
        counts[place] += 1.0
    return counts


# --------------------------------------------------------------------- the state's world
class _JointWorld:
    """The Karnak state behind one simultaneous pyspiel state: each seat's unfinished
    spelling, the joint actions so far, and the last rewards.

    Built when first used (OpenSpiel makes a throwaway initial state for every clone and
    deserialisation), with a fresh seed then under ``seed=-1``.
    """

    __slots__ = (
        "_seed",
        "_seeds",
        "_state",
        "joint",
        "key",
        "nodes",
        "prefixes",
        "replayable",
        "rewards",
        "standing",
        "truncated",
    )

    def __init__(self, key: Key, seed: int | None, seeds: Rng | None = None):
        self.key = key
        self._seed = seed
        self._seeds = seeds
        self._state: State | None = None
        players = key[1]
        #: What each seat has spelled so far of its current move.
        self.prefixes: list[Spelling] = [()] * players
        #: Every joint action so far (with the seed, the whole game; empty when resampled).
        self.joint: list[list[int]] = []
        #: How many joint nodes have been played.
        self.nodes = 0
        self.truncated = False
        self.replayable = True
        self.standing: list[float] | None = None
        self.rewards: list[float] | None = None

    @property
    def idgame(self) -> IdGame:
        return _idgame(self.key)

    @property
    def seed(self) -> int:
        if self._seed is None:
            assert self._seeds is not None
            self._seed = self._seeds.below(SEED_LIMIT)
        return self._seed

    @property
    def state(self) -> State:
        state = self._state
        if state is None:
            idgame = self.idgame
            state = self._state = idgame.game.new_state(
                idgame.players, seed=self.seed, options=idgame.options
            )
        return state

    @property
    def noop(self) -> int:
        return self.idgame.num_actions

    # --- whose decision ---------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.truncated or self.state.is_over()

    def movers(self) -> tuple[int, ...]:
        return () if self.truncated else self.state.to_move()

    def legal_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` may choose at this joint node: its next ids if the engine waits
        for it, else only "wait" ([] once the game is over)."""
        if self.is_terminal():
            return []
        if seat in self.state.to_move():
            return self.idgame.speller.legal_ids(self.state, seat, self.prefixes[seat])
        return [self.noop]

    # --- a joint node -----------------------------------------------------------------
    def apply_joint(self, actions: Sequence[int]) -> None:
        """Every seat's id at once. All are checked before any is applied (an illegal joint
        action leaves the world as it was); then each seat, lowest first, adds its id to its
        spelling, and a finished spelling is played."""
        idgame, state = self.idgame, self.state
        players = idgame.players
        if self.is_terminal():
            raise ActionIdError("the game is over: no joint action can be chosen")
        if len(actions) != players:
            raise ActionIdError(f"a joint action has one id per seat ({players}), not {actions}")
        chosen = [int(a) for a in actions]
        movers = state.to_move()
        for seat, action_id in enumerate(chosen):
            legal = self.legal_ids(seat)
            if action_id not in legal:
                names = ", ".join(self.id_name(i) for i in legal)
                raise ActionIdError(
                    f"seat {seat}: {self.id_name(action_id)} ({action_id}) is not legal at "
                    f"this joint node; legal: {names}"
                )
        before = self.current_standing() if self.nodes else [0.0] * players
        for seat in movers:
            prefix, action = idgame.speller.choose(state, seat, self.prefixes[seat], chosen[seat])
            self.prefixes[seat] = prefix
            if action is not None:
                state.apply_unchecked(seat, action)
        # A seat that the engine stopped waiting for has no move to finish.
        waiting = set(state.to_move())
        self.prefixes = [p if s in waiting else () for s, p in enumerate(self.prefixes)]
        if self.replayable:
            self.joint.append(chosen)
        self.nodes += 1
        if self.nodes >= idgame.max_game_length and not state.is_over():
            self.truncated = True
        after = self.standing = standing(state, idgame.description.rewards)
        self.rewards = [a - b for a, b in zip(after, before, strict=True)]

    def current_standing(self) -> list[float]:
        if self.standing is None:
            self.standing = standing(self.state, self.idgame.description.rewards)
        return self.standing

    def id_name(self, action_id: int) -> str:
        if action_id == self.noop:
            return NOOP_NAME
        return self.idgame.id_name(action_id)

    # --- what a seat sees -------------------------------------------------------------
    def spelled_string(self, seat: int) -> str:
        prefix = self.prefixes[seat]
        if prefix:
            return "spelled so far: " + ", ".join(self.idgame.id_name(i) for i in prefix)
        return "spelled so far: nothing"

    # --- copies -------------------------------------------------------------------------
    def _copy_into(self, other: _JointWorld) -> _JointWorld:
        other.prefixes = list(self.prefixes)
        other.joint = [list(j) for j in self.joint]
        other.nodes = self.nodes
        other.truncated = self.truncated
        other.replayable = self.replayable
        other.standing = None if self.standing is None else list(self.standing)
        other.rewards = None if self.rewards is None else list(self.rewards)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _JointWorld:
        other = _JointWorld(self.key, self.seed)
        if self._state is not None:
            other._state = self._state.clone(log=True)
        return self._copy_into(other)

    def resampled(self, seat: int, rng: Rng) -> _JointWorld:
        """A world ``seat`` cannot tell from this one: hidden facts re-dealt by the engine,
        the seat's own unfinished spelling kept, every other seat's dropped (the seat never
        saw them, so the world starts those moves afresh)."""
        other = _JointWorld(self.key, self.seed)
        other._state = self.state.resample(seat, rng, history=True)
        other.prefixes = [p if s == seat else () for s, p in enumerate(self.prefixes)]
        other.nodes = self.nodes
        other.truncated = self.truncated
        other.replayable = False
        other.rewards = None if self.rewards is None else list(self.rewards)
        return other

    def __reduce__(self) -> tuple[Callable[..., _JointWorld], tuple[Any, ...]]:
        if self.replayable:
            joint = self.joint if self._state is not None else []
            return _replayed, (self.key, self.seed, [list(j) for j in joint], self.rewards)
        return _restored, (
            self.key,
            self.seed,
            self.state.to_json(),
            [list(p) for p in self.prefixes],
            self.nodes,
            self.truncated,
            self.rewards,
        )


def _replayed(
    key: Key, seed: int, joint: list[list[int]], rewards: list[float] | None
) -> _JointWorld:
    """A world rebuilt from its seed and joint actions (what a pickled world names)."""
    world = _JointWorld(key, seed)
    for actions in joint:
        world.apply_joint(actions)
    world.rewards = rewards
    return world


def _restored(
    key: Key,
    seed: int,
    data: Mapping[str, Any],
    prefixes: list[list[int]],
    nodes: int,
    truncated: bool,
    rewards: list[float] | None,
) -> _JointWorld:
    """A resampled world rebuilt from its Karnak state's JSON."""
    world = _JointWorld(key, seed)
    world._state = world.idgame.game.state_from_json(data)
    world.prefixes = [tuple(int(i) for i in p) for p in prefixes]
    world.nodes, world.truncated, world.replayable = int(nodes), bool(truncated), False
    world.rewards = rewards
    return world


# --------------------------------------------------------------------- pyspiel classes
def _game_type(game: Game, params: Mapping[str, Any], idgame: IdGame) -> Any:
    """The pyspiel type: as the sequential game's, ``DETERMINISTIC`` (the seed is part of
    the state, so no id is left to chance; pyspiel serialises a ``SAMPLED_STOCHASTIC`` game
    only with a C++ generator's state, which a Python game cannot give)."""
    kinds = pyspiel.GameType
    d = idgame.description
    return pyspiel.GameType(
        short_name=simultaneous_name(game.name),
        long_name=f"Karnak {game.title} (simultaneous moves)",
        dynamics=kinds.Dynamics.SIMULTANEOUS,
        chance_mode=kinds.ChanceMode.DETERMINISTIC,
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


class KarnakSimultaneousGame(pyspiel.Game):  # type: ignore[misc]
    """One Karnak game's simultaneous form at one table size, reward scheme and options
    (a subclass per game, from :func:`game_class`, names the game)."""

    karnak_name: str

    def __init__(self, params: Mapping[str, Any] | None = None):
        game = get_game(self.karnak_name)
        spec = parameter_specification(game)
        given = dict(params or {})
        self.key = _key(game, given)
        self.seed = _seed_parameter(given)
        self.idgame = _idgame(self.key)
        self.karnak_game = self.idgame.game
        d = self.idgame.description
        #: The one id of a seat that has nothing to decide at a joint node.
        self.noop = self.idgame.num_actions
        full = {**spec, **{name: _parameter_value(value) for name, value in given.items()}}
        super().__init__(
            _game_type(game, spec, self.idgame),
            pyspiel.GameInfo(
                num_distinct_actions=self.idgame.num_actions + 1,
                max_chance_outcomes=0,
                num_players=d.players,
                min_utility=d.min_utility,
                max_utility=d.max_utility,
                utility_sum=d.utility_sum,
                max_game_length=d.max_game_length,
            ),
            full,
        )
        self.seeds = Rng(_GAME_RNG_SEED)

    def new_initial_state(self, *args: Any) -> KarnakSimultaneousState:
        if args:
            raise ValueError(f"{simultaneous_name(self.karnak_name)} starts only from its seed")
        if self.seed >= 0:
            return KarnakSimultaneousState(self, _JointWorld(self.key, self.seed))
        return KarnakSimultaneousState(self, _JointWorld(self.key, None, self.seeds))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SimultaneousObserver:
        return SimultaneousObserver(self, perfect_recall=observes_with_recall(iig_obs_type, params))


class KarnakSimultaneousState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel simultaneous-move state over one Karnak state (see the module's text)."""

    def __init__(self, game: KarnakSimultaneousGame, world: _JointWorld):
        super().__init__(game)
        self._world = world

    # --- Karnak's own ------------------------------------------------------------
    def karnak_state(self) -> State:
        """The Karnak state under this one (seats' unfinished spellings are not in it)."""
        return self._world.state

    def karnak_seed(self) -> int:
        return self._world.seed

    def movers(self) -> tuple[int, ...]:
        """The seats with a real choice at this joint node (the others can only wait)."""
        return self._world.movers()

    def spelled(self, seat: int) -> Spelling:
        """What ``seat`` has spelled so far of its current move."""
        return self._world.prefixes[seat]

    # --- the OpenSpiel API -------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._world.is_terminal() else SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        """A seat's ids; for ``PlayerId.SIMULTANEOUS`` (``state.legal_actions()`` at a joint
        node), the flat joint actions, as OpenSpiel's C++ games give them."""
        if int(player) == SIMULTANEOUS:
            if self._world.is_terminal():
                return []
            return list(range(math.prod(len(ids) for ids in self._legal_lists())))
        return self._world.legal_ids(int(player))

    def _legal_lists(self) -> list[list[int]]:
        return [self._world.legal_ids(p) for p in range(self._world.idgame.players)]

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self._world.apply_joint(actions)

    def _apply_action(self, action: int) -> None:
        """A flat joint action (``state.apply_action`` at a joint node): each seat's index
        into its legal ids, seat 0 the least significant digit, as OpenSpiel numbers them."""
        flat = int(action)
        joint = []
        for ids in self._legal_lists():
            joint.append(ids[flat % len(ids)])
            flat //= len(ids)
        if flat:
            raise ActionIdError(f"{action} is not a flat joint action at this node")
        self._world.apply_joint(joint)

    def _action_to_string(self, player: int, action: int) -> str:
        if int(player) == SIMULTANEOUS:
            return f"joint action {action}"
        return self._world.id_name(int(action))

    def is_terminal(self) -> bool:
        return self._world.is_terminal()

    def returns(self) -> list[float]:
        world = self._world
        if not world.nodes:
            return [0.0] * world.idgame.players
        return list(world.current_standing())

    def rewards(self) -> list[float]:
        rewards = self._world.rewards
        return [0.0] * self._world.idgame.players if rewards is None else list(rewards)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> KarnakSimultaneousState:
        """A world ``player_id`` cannot tell from this one (see ``_JointWorld.resampled``)."""
        world = self._world.resampled(int(player_id), _rng_from(probability_sampler))
        return KarnakSimultaneousState(self.get_game(), world)

    def __str__(self) -> str:
        """The whole state, hidden parts too: the seed, the joint actions, every seat's
        unfinished spelling, then the full log."""
        world = self._world
        header = (
            f"{simultaneous_name(world.idgame.description.name)} seed={world.seed}"
            f"{'' if world.replayable else ' (resampled)'} nodes={world.nodes} "
            f"movers={list(world.movers())} spelled={[list(p) for p in world.prefixes]}"
            f"{' truncated' if world.truncated else ''}"
        )
        joint = (
            "joint: " + " | ".join(" ".join(map(str, j)) for j in world.joint)
            if world.replayable
            else "joint: not kept (a resampled world)"
        )
        return "\n".join([header, joint, *world.state.log_lines(everything=True)])


class SimultaneousObserver:
    """A seat's view: the game's layout (``tensor``, ``dict``) then ``"spelled"``, the counts
    of the ids the seat has spelled so far of its current move (never another seat's; none
    for a game whose moves are all one id), as the sequential game's observer lays it out."""

    def __init__(self, game: KarnakSimultaneousGame, *, perfect_recall: bool):
        karnak_game, idgame = game.karnak_game, game.idgame
        self.idgame = idgame
        self.perfect_recall = perfect_recall
        self.layout: TensorLayout = (
            karnak_game.information_state_layout(idgame.players, idgame.options)
            if perfect_recall
            else karnak_game.observation_layout(idgame.players, idgame.options)
        )
        size = self.layout.size
        self.tensor: FloatVector = np.zeros(size + idgame.spelled_size, dtype=np.float32)
        self.dict: dict[str, FloatVector] = self.layout.named(self.tensor[:size])
        if idgame.spelled_size:  # a game whose moves are all one id has no spelled part
            self.dict["spelled"] = self.tensor[size:]

    def set_from(self, state: KarnakSimultaneousState, player: int) -> None:
        world, size = state._world, self.layout.size
        seat = int(player)
        self.tensor[:size] = (
            world.state.information_state_tensor(seat)
            if self.perfect_recall
            else world.state.observation_tensor(seat)
        )
        self.tensor[size:] = spelled_counts(self.idgame, world.prefixes[seat])

    def string_from(self, state: KarnakSimultaneousState, player: int) -> str:
        world, seat = state._world, int(player)
        seen = (
            world.state.information_state_string(seat)
            if self.perfect_recall
            else world.state.observation_string(seat)
        )
        return seen + "\n" + world.spelled_string(seat)


# --------------------------------------------------------------------- registration
_CLASSES: dict[str, type[KarnakSimultaneousGame]] = {}


def game_class(name: str) -> type[KarnakSimultaneousGame]:
    """The pyspiel game class of ``name``'s simultaneous form (a class, not a closure: see
    :func:`karnak.envs.openspiel.game_class`)."""
    game = get_game(name)
    cls = _CLASSES.get(game.name)
    if cls is None:
        title = "".join(part.capitalize() for part in game.name.split("_"))
        cls = _CLASSES[game.name] = type(
            f"Karnak{title}SimultaneousGame",
            (KarnakSimultaneousGame,),
            {"karnak_name": game.name, "__doc__": f"{game.title}, simultaneous moves."},
        )
    return cls


def _registered_type(game: Game) -> Any:
    spec = parameter_specification(game)
    idgame = _idgame(_key(game, {"players": default_players(game)}))
    return _game_type(game, spec, idgame)


def register() -> list[str]:
    """Register every Karnak game's simultaneous form with pyspiel (again is harmless)."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in available_games():
        short = simultaneous_name(name)
        if short not in registered:
            pyspiel.register_game(_registered_type(get_game(name)), game_class(name))
        names.append(short)
    return names
