"""Karnak's games as OpenSpiel (pyspiel) Python games: ``karnak_amunre``, ``karnak_aton`` and
``karnak_egyptia``.

    >>> from karnak.envs import register_openspiel
    >>> import pyspiel                                               # doctest: +SKIP
    >>> register_openspiel()                                         # doctest: +SKIP
    ['karnak_amunre', 'karnak_aton', 'karnak_egyptia']
    >>> game = pyspiel.load_game("karnak_aton(rewards=score)")       # doctest: +SKIP

Everything is a translation of :class:`~karnak.envs.idgame.IdState`, so OpenSpiel, PettingZoo
and Gymnasium see the same ids, masks, tensors and rewards.

**Type.** Sequential, imperfect information, no chance nodes (``max_chance_outcomes`` is 0):
the engine draws its chance from the Karnak seed, which is part of the state, so every id's
outcome is fixed by the state: OpenSpiel's ``ChanceMode.DETERMINISTIC``, though the deal stays
hidden. Under ``seed=-1`` (the default) each new game is dealt from a fresh seed, the only
draw ``new_initial_state()`` makes; under a fixed seed every game starts the same. (Karnak
does not declare ``SAMPLED_STOCHASTIC``: pyspiel serialises such a game only with its C++
generator's state, which a Python game cannot give, pyspiel 2.0.) For explicit chance nodes,
see :mod:`karnak.envs.openspiel_chance`. Zero-sum at a table of two or more, general-sum
alone; the ``"score"`` scheme pays as it changes (``RewardModel.REWARDS``), every other only
at the end (``TERMINAL``, which OpenSpiel's MCTS requires). See :mod:`karnak.core.description`.

**Parameters.** ``players``, ``rewards`` (``default``, ``win``, ``score``, ``rank``,
``final_score``, ``status`` or ``status:TARGET``), ``seed`` and the game's own options
(Amun-Re's ``edition``, ``expert_provinces``, ``offer_cards``; Egyptia's ``cards``, its list
written with ``;`` in a game string, since a comma separates parameters:
``karnak_egyptia(cards=A2;B2)``). ``rewards=default`` is OpenSpiel's terminal default:
``win``, or alone ``final_score`` (the final score mapped onto [-1, 1] by the game's score
bounds); ``status`` pays +1 for reaching one of the game's named score targets (Egyptia's solo
builder statuses: ``status:Master``; ``status`` alone aims at the game's default one) or a
number of points (``status:55``), -1 otherwise. ``game.get_parameters()`` and the game string
give every parameter as given, the others at their defaults, and ``rewards`` as the scheme
played (``final_score``, ``status:Standard``; never ``default``). ``seed=-1`` gives each new
game a fresh Karnak seed from the game object's :class:`Dealer` (which deals the same sequence
in every freshly loaded game); a seed from 0 to 2**31 - 1 deals every new game from that
seed. A fresh seed is drawn when a state is first used, not when it is
made, so OpenSpiel's clones and deserialisations (which start from ``new_initial_state()``
and overwrite it) do not use up seeds (but each ``state.information_state_tensor()`` call
through C++ does: pyspiel observes a throwaway initial state to learn the tensor's shape).
``state.karnak_seed()`` says which seed a game was dealt from; ``state.id_state()`` gives the
:class:`IdState` (and through it the Karnak state).

**Returns and rewards.** The returns are each seat's standing (the final utilities at the
end); a reward is the change of the standing by the last id. OpenSpiel wants the returns to be
the sum of the rewards at every step, so the returns are 0 before the first id and the first
id's reward also pays the standing a game starts with (a solo Egyptia builder starts with
points).

**Serialisation.** OpenSpiel stores a Python state as the pickle of its attributes. Ours pickle
as the game's parameters, the Karnak seed and the ids chosen (the whole game, replayed on
load), or, for a world made by ``resample_from_infostate`` (which no seed replays), the Karnak
state's JSON, and in both cases how many games the game object had dealt (its RNG state, see
:class:`Dealer`): a game that has dealt fewer moves on to that count when a state is
deserialised into it, so ``pyspiel.serialize_game_and_state`` and
``deserialize_game_and_state`` (and ``pickle``, of a state or of a game) give a game and state
that play and deal on exactly as the originals, under any seed. ``game.serialize()`` alone
(pyspiel's C++) carries the parameters only: a game deserialised from it deals from the start.

**Observers.** The tensors are the games' own layouts (``Game.information_state_layout`` for a
perfect-recall observer, ``Game.observation_layout`` otherwise), exposed slice by slice in the
observer's ``dict``, followed by ``"spelled"``: the counts of the ids the seat has chosen so far
of a move it is spelling (see :mod:`karnak.core.action_ids`). Only the seat's own private view
exists (``PrivateInfoType.SINGLE_PLAYER`` with public information).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from karnak.core.description import GameDescription, check_rewards, terminal_rewards
from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.core.registry import available_games, get_game
from karnak.core.rng import Rng
from karnak.core.tensors import FloatVector, TensorLayout
from karnak.envs.idgame import TERMINAL, IdGame, IdState
from karnak.envs.idgame import default_players as default_players  # the other forms' too

#: What every game's pyspiel short name starts with (``karnak_aton``).
SHORT_PREFIX = "karnak_"


def short_name(name: str) -> str:
    """The pyspiel short name of the Karnak game ``name`` (any game registered now, including
    one installed after this module was imported)."""
    return SHORT_PREFIX + name


#: The parameters every game takes besides its own options.
COMMON_PARAMETERS = ("players", "rewards", "seed")
#: The ``rewards`` value that means the table's default scheme: OpenSpiel's is terminal
#: (:func:`karnak.core.description.terminal_rewards`: "win", or "final_score" alone), since
#: OpenSpiel's MCTS wants every reward at the end. A game reads back the scheme it plays.
DEFAULT_REWARDS = "default"
#: Seeds drawn for ``seed=-1`` stay below this, so any of them can be given back as a
#: ``seed=`` parameter (OpenSpiel's integer parameters are 32-bit).
SEED_LIMIT = 2**31
#: What separates the items of a list option in a game string (a comma separates parameters).
LIST_SEPARATOR = ";"
_GAME_RNG_SEED = 0

if int(pyspiel.PlayerId.TERMINAL) != TERMINAL:  # pragma: no cover - a pyspiel change
    raise ImportError("pyspiel's terminal player id is not karnak.envs.idgame.TERMINAL")

#: An id-level game's identity: name, players, rewards (checked, never the default's
#: placeholder) and resolved options.
Key = tuple[str, int, str | None, tuple[tuple[str, Any], ...]]
_IDGAMES: dict[Key, IdGame] = {}


# --------------------------------------------------------------------- parameters
def _parameter_value(value: Any) -> bool | int | float | str:
    """An option's value as an OpenSpiel parameter: bool, int, float or text. Text that reads
    as a whole number (Amun-Re's ``edition="2003"``) becomes that number, because a game
    string (``edition=2003``) parses back as one; a comma becomes ``;``, because commas
    separate a game string's parameters (Egyptia's ``cards=A2;B2``)."""
    if isinstance(value, (bool, int, float)):
        return value
    text = "" if value is None else str(value)
    if text.isdigit():
        return int(text)
    return text.replace(",", LIST_SEPARATOR)


def _option_value(default: Any, value: Any) -> Any:
    """An OpenSpiel parameter back as the Karnak option whose default is ``default``."""
    if isinstance(default, str) and not isinstance(value, bool):
        return str(value).replace(LIST_SEPARATOR, ",")
    return value


def parameter_specification(game: Game) -> dict[str, bool | int | float | str]:
    """The parameters of ``game`` with their defaults (their types fix the accepted types)."""
    spec: dict[str, bool | int | float | str] = {
        "players": default_players(game),
        "rewards": DEFAULT_REWARDS,
        "seed": -1,
    }
    for option in game.options:
        if option.name in spec:
            raise ValueError(f"{game.title}'s option {option.name!r} hides a common parameter")
        spec[option.name] = _parameter_value(option.default)
    return spec


def _key(game: Game, params: Mapping[str, Any]) -> Key:
    """The identity of the id-level game named by ``params`` (checked), for the cache."""
    spec = parameter_specification(game)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise InvalidOptionError(
            f"{short_name(game.name)} has no parameter(s) {', '.join(unknown)}; "
            f"parameters: {', '.join(spec)}"
        )
    players = params.get("players", spec["players"])
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidOptionError(f"players must be a whole number, not {players!r}")
    rewards = params.get("rewards", DEFAULT_REWARDS)
    if not isinstance(rewards, str):
        raise InvalidOptionError(f"rewards must be text (win, score, rank, ...), not {rewards!r}")
    options = {
        o.name: _option_value(o.default, params[o.name]) for o in game.options if o.name in params
    }
    resolved = game.resolve_options(options)
    game.check_player_count(players)
    scheme = check_rewards(
        terminal_rewards(players) if rewards == DEFAULT_REWARDS else rewards,
        players,
        game,
        resolved,
    )
    return (game.name, players, scheme, tuple(sorted(resolved.items())))


def _idgame(key: Key) -> IdGame:
    """The id-level game of ``key``, made once per process (pickled states name it by key)."""
    idgame = _IDGAMES.get(key)
    if idgame is None:
        name, players, rewards, options = key
        idgame = _IDGAMES[key] = IdGame(name, players, rewards=rewards, options=dict(options))
    return idgame


def _seed_parameter(params: Mapping[str, Any]) -> int:
    seed = params.get("seed", -1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -1 <= seed < SEED_LIMIT:
        raise InvalidOptionError(
            f"seed must be -1 (a fresh seed for each game) or a whole number from 0 to "
            f"{SEED_LIMIT - 1}, not {seed!r}"
        )
    return seed


# --------------------------------------------------------------------- the game's dealer
class Dealer:
    """Where a ``seed=-1`` game object gets a fresh Karnak seed for each new game: the
    ``k``-th game it deals (from 0) takes the ``k``-th draw of ``Rng(0)`` below
    :data:`SEED_LIMIT`, so its whole state is ``dealt``, the number of games dealt so far.

    This is what OpenSpiel calls a game's RNG state (``GetRNGState``), which pyspiel cannot
    ask of a Python game: every serialised state carries it instead, and a state
    deserialised into a game that has dealt fewer games moves that game's dealer on to it
    (:meth:`catch_up`), so ``deserialize_game_and_state`` gives a game that deals on exactly
    as the original would have. A dealer never goes back (a game object never deals one
    game twice), except by :meth:`restore`."""

    __slots__ = ("_rng", "dealt")

    def __init__(self, dealt: int = 0):
        self._rng = Rng(_GAME_RNG_SEED)
        self.dealt = 0
        self.catch_up(dealt)

    def next_seed(self) -> int:
        self.dealt += 1
        return self._rng.below(SEED_LIMIT)

    def catch_up(self, dealt: int) -> None:
        """Move on to ``dealt`` games dealt, if this dealer has dealt fewer."""
        if dealt < 0:
            raise ValueError(f"a dealer cannot have dealt {dealt} games")
        while self.dealt < dealt:
            self.next_seed()

    def restore(self, dealt: int) -> None:
        """Be at ``dealt`` games dealt, back or on (``set_rng_state``)."""
        if dealt < self.dealt:
            self._rng, self.dealt = Rng(_GAME_RNG_SEED), 0
        self.catch_up(dealt)


# --------------------------------------------------------------------- the state's world
class _World:
    """The :class:`IdState` behind one pyspiel state, with its seed and last rewards.

    A pyspiel state keeps only this one attribute, because OpenSpiel clones a Python state by
    deep-copying its attributes and serialises it by pickling them: ``__deepcopy__`` is
    :meth:`IdState.clone`, and ``__reduce__`` names the game, the seed and the ids, and how
    many games the game object had dealt (see :class:`Dealer`).

    The world is built when first used, and a fresh seed (``seed=-1``) drawn then: OpenSpiel
    makes a throwaway initial state for every clone and every deserialisation. Under a fixed
    seed it is built as a copy of the game's ``start`` (a tenth of the cost of dealing anew:
    OpenSpiel also makes and observes a fresh initial state to learn a tensor's shape on every
    ``state.information_state_tensor()`` call through C++).
    """

    __slots__ = (
        "_id_state",
        "_player",
        "_seed",
        "_start",
        "dealer",
        "dealt",
        "key",
        "replayable",
        "rewards",
        "standing",
    )

    def __init__(
        self,
        key: Key,
        seed: int | None,
        dealer: Dealer | None = None,
        start: IdState | None = None,
    ):
        self.key = key
        self._seed = seed
        #: The game object's dealer: it gives the seed (when ``seed`` is None), and how many
        #: games it has dealt goes with the world when it is serialised.
        self.dealer = dealer
        #: A deserialised world's count of games dealt, until its game catches up on it.
        self.dealt: int | None = None
        self._start = start
        self._id_state: IdState | None = None
        #: The seat to move, kept between ids: OpenSpiel asks for it several times a step.
        self._player: int | None = None
        #: Whether the seed and the ids replay this world (not so for a resampled one).
        self.replayable = True
        #: Each seat's standing now, and its change by the last id (OpenSpiel's rewards).
        self.standing: list[float] | None = None
        self.rewards: list[float] | None = None

    @property
    def seed(self) -> int:
        if self._seed is None:
            assert self.dealer is not None
            self._seed = self.dealer.next_seed()
        return self._seed

    @property
    def id_state(self) -> IdState:
        state = self._id_state
        if state is None:
            start = self._start
            state = start.clone() if start is not None else _idgame(self.key).new_state(self.seed)
            self._id_state = state
        return state

    def untouched_start(self) -> IdState | None:
        """The game's first state (a fixed seed), while this world is that and not yet built."""
        return self._start if self._id_state is None else None

    def current_player(self) -> int:
        player = self._player
        if player is None:
            player = self._player = self.id_state.current_player()
        return player

    def legal_ids(self, player: int) -> list[int]:
        if player != self.current_player() or player == TERMINAL:
            return []
        state = self.id_state
        return state.idgame.speller.legal_ids(state.state, player, state.prefix)

    def current_standing(self) -> list[float]:
        if self.standing is None:
            self.standing = self.id_state.standing()
        return self.standing

    def apply(self, action_id: int) -> None:
        """Choose ``action_id``; the rewards become the change of the standing, the first id
        also paying the standing a game starts with (a solo Egyptia builder starts with
        points), so that the rewards add up to the returns, as OpenSpiel requires."""
        state = self.id_state
        before = self.current_standing() if state.length else [0.0] * state.idgame.players
        self._player = None
        state.apply_id(action_id)
        after = self.standing = state.standing()
        self.rewards = [a - b for a, b in zip(after, before, strict=True)]

    def _copy_fields(self, other: _World) -> _World:
        other._player = self._player
        other.replayable = self.replayable
        other.standing = None if self.standing is None else list(self.standing)
        other.rewards = None if self.rewards is None else list(self.rewards)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _World:
        other = _World(self.key, self.seed, self.dealer, self._start)
        if self._id_state is not None:
            other._id_state = self._id_state.clone()
        return self._copy_fields(other)

    def resampled(self, seat: int, rng: Rng) -> _World:
        other = _World(self.key, self.seed, self.dealer)
        other._id_state = self.id_state.resample(seat, rng)
        other.replayable = False
        other.standing = None
        other.rewards = None if self.rewards is None else list(self.rewards)
        return other

    def games_dealt(self) -> int | None:
        """How many games this world's game object had dealt (None: not known)."""
        return self.dealer.dealt if self.dealer is not None else self.dealt

    def __reduce__(self) -> tuple[Callable[..., _World], tuple[Any, ...]]:
        seed = self.seed  # first: it may deal this world's game
        if self.replayable:
            ids = [] if self._id_state is None else list(self._id_state.ids)
            return _replayed, (self.key, seed, ids, self.rewards, self.games_dealt())
        state = self.id_state
        return _restored, (
            self.key,
            seed,
            state.state.to_json(),
            state.length,
            state.prefix,
            state.truncated,
            self.rewards,
            self.games_dealt(),
        )


def _replayed(
    key: Key, seed: int, ids: list[int], rewards: list[float] | None, dealt: int | None = None
) -> _World:
    """A world rebuilt from its seed and ids (what a pickled replayable world names)."""
    world = _World(key, seed, None)
    state = world.id_state
    for action_id in ids:
        state.apply_id(action_id)
    world.rewards = rewards
    world.dealt = dealt
    return world


def _restored(
    key: Key,
    seed: int,
    data: Mapping[str, Any],
    length: int,
    prefix: tuple[int, ...],
    truncated: bool,
    rewards: list[float] | None,
    dealt: int | None = None,
) -> _World:
    """A resampled world rebuilt from its Karnak state's JSON."""
    idgame = _idgame(key)
    world = _World(key, seed, None)
    state = world._id_state = IdState(idgame, idgame.game.state_from_json(data))
    state.length, state.prefix, state.truncated = int(length), tuple(prefix), truncated
    world.replayable = False
    world.rewards = rewards
    world.dealt = dealt
    return world


def _rng_from(sampler: Any) -> Rng:
    """A Karnak generator seeded from OpenSpiel's probability sampler (a callable giving
    floats in [0, 1), such as ``pyspiel.UniformProbabilitySampler``), two draws of 32 bits."""
    high, low = (int(float(sampler()) * 2**32) & 0xFFFFFFFF for _ in range(2))
    return Rng((high << 32) | low)


# --------------------------------------------------------------------- pyspiel classes
def _game_type(
    game: Game, params: Mapping[str, Any], description: GameDescription, *, sampled: bool = False
) -> Any:
    """The pyspiel type: the registered one (the defaults), or a game's own (its utility and
    its reward model). The chance mode is ``DETERMINISTIC`` (no chance nodes; see the
    module's text); ``sampled=True`` says ``SAMPLED_STOCHASTIC``, which pyspiel cannot
    serialise for a Python game."""
    kinds = pyspiel.GameType
    utility, reward_model = description.utility, description.reward_model
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"Karnak {game.title}",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=kinds.ChanceMode.SAMPLED_STOCHASTIC
        if sampled
        else kinds.ChanceMode.DETERMINISTIC,
        information=kinds.Information.IMPERFECT_INFORMATION,
        utility=kinds.Utility.ZERO_SUM if utility == "zero_sum" else kinds.Utility.GENERAL_SUM,
        reward_model=(
            kinds.RewardModel.REWARDS if reward_model == "rewards" else kinds.RewardModel.TERMINAL
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


def _registered_type(game: Game) -> Any:
    spec = parameter_specification(game)
    players = default_players(game)
    return _game_type(game, spec, game.describe(players, rewards=terminal_rewards(players)))


class KarnakGame(pyspiel.Game):  # type: ignore[misc]
    """One Karnak game at one table size, reward scheme and options, for OpenSpiel (a
    subclass per game, from :func:`game_class`, names the game)."""

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
        # Every parameter as given, the others at their defaults, and the rewards as the
        # scheme played (never the default's placeholder), so the game reads back as played.
        full = {**spec, **{name: _parameter_value(value) for name, value in given.items()}}
        full["rewards"] = d.rewards
        super().__init__(
            _game_type(game, spec, d),
            pyspiel.GameInfo(
                num_distinct_actions=d.num_distinct_actions,
                max_chance_outcomes=0,
                num_players=d.players,
                min_utility=d.min_utility,
                max_utility=d.max_utility,
                utility_sum=d.utility_sum,
                max_game_length=d.max_game_length,
            ),
            full,
        )
        #: Where ``seed=-1`` games get their seeds (unused under a fixed seed).
        self.dealer = Dealer()
        #: A fixed seed's first state, copied for each new game.
        self.start = self.idgame.new_state(self.seed) if self.seed >= 0 else None

    def get_rng_state(self) -> str:
        """How many games this game object has dealt (``seed=-1``), as text: what OpenSpiel
        calls the game's RNG state. pyspiel never asks a Python game for it (every state
        serialises it instead, see :class:`Dealer`); it is here for callers of its own."""
        return str(self.dealer.dealt)

    def set_rng_state(self, rng_state: str) -> None:
        """Deal on as a game object that has dealt ``int(rng_state)`` games."""
        self.dealer.restore(int(rng_state))

    def __reduce__(self) -> tuple[Callable[..., KarnakGame], tuple[str, str]]:
        """Pickled as its game string and its dealer (pyspiel's own pickling would name the
        game's class, which is made at run time)."""
        return _unpickled_game, (str(self), self.get_rng_state())

    def adopt(self, world: _World) -> None:
        """Take in a world deserialised into a state of this game: its game object's dealer
        had dealt ``world.dealt`` games, and this one moves on to that (see :class:`Dealer`)."""
        if world.dealt is not None and self.seed < 0:
            self.dealer.catch_up(world.dealt)
        world.dealt = None
        if world.dealer is None and self.seed < 0:
            world.dealer = self.dealer

    def new_initial_state(self, *args: Any) -> KarnakState:
        if args:
            raise ValueError(f"{short_name(self.karnak_game.name)} starts only from its seed")
        if self.start is not None:
            return KarnakState(self, _World(self.key, self.seed, None, self.start))
        return KarnakState(self, _World(self.key, None, self.dealer))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> KarnakObserver:
        return KarnakObserver(self, perfect_recall=observes_with_recall(iig_obs_type, params))


def observes_with_recall(iig_obs_type: Any, params: Mapping[str, Any] | None) -> bool:
    """Whether an observer OpenSpiel asks for (``make_py_observer``'s arguments) has perfect
    recall; ValueError for one Karnak does not give: parameters, or any view but one seat's
    (public information and the seat's own private information). Every form of the games
    asks the same."""
    if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes params alone positionally
        iig_obs_type, params = None, iig_obs_type
    if params:
        raise ValueError(f"Karnak's observers take no parameters, not {dict(params)}")
    if iig_obs_type is None:
        return False
    if (
        iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        or not iig_obs_type.public_info
    ):
        raise ValueError(
            "Karnak observes a game only as one seat sees it (public information and "
            "the seat's own private information), not as "
            f"{iig_obs_type.private_info} with public_info={iig_obs_type.public_info}"
        )
    return bool(iig_obs_type.perfect_recall)


class KarnakState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state over one :class:`IdState` (see the module's text)."""

    def __init__(self, game: KarnakGame, world: _World):
        super().__init__(game)
        self._world = world

    def __setattr__(self, name: str, value: Any) -> None:
        """pyspiel deserialises a state by setting its pickled attributes on a new initial
        state: a world set so brings its game object's count of games dealt to this game."""
        super().__setattr__(name, value)
        if name == "_world" and value.dealt is not None:
            self.get_game().adopt(value)

    # --- Karnak's own ------------------------------------------------------------
    def id_state(self) -> IdState:
        """The id-level state under this one (the Karnak state is its ``.state``)."""
        return self._world.id_state

    def karnak_seed(self) -> int:
        """The Karnak seed this game was dealt from."""
        return self._world.seed

    # --- the OpenSpiel API -------------------------------------------------------
    def current_player(self) -> int:
        return self._world.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._world.legal_ids(player)

    def _apply_action(self, action: int) -> None:
        self._world.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._world.id_state.idgame.id_name(int(action))

    def is_terminal(self) -> bool:
        return self._world.id_state.is_terminal()

    def returns(self) -> list[float]:
        """Each seat's standing (see :mod:`karnak.core.description`): the final utilities at
        the end, the running score difference under ``"score"``; 0 before the first id,
        since OpenSpiel's returns are the rewards paid so far (see ``_World.apply``)."""
        world = self._world
        if not world.id_state.length:
            return [0.0] * world.id_state.idgame.players
        return list(world.current_standing())

    def rewards(self) -> list[float]:
        """The change of each seat's standing by the last id (0 before any)."""
        rewards = self._world.rewards
        return [0.0] * self.num_players() if rewards is None else list(rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KarnakState:
        """A world ``player_id`` cannot tell from this one, drawn with randomness from
        ``probability_sampler`` (see :meth:`IdState.resample`). Its OpenSpiel history starts
        empty: the ids that led here include what the seat never saw."""
        world = self._world.resampled(int(player_id), _rng_from(probability_sampler))
        game = self.get_game()
        return KarnakState(game, world)

    def __str__(self) -> str:
        """The whole state, hidden parts too (OpenSpiel compares clones and deserialised
        states by it): the seed and the ids, which determine it, then the full log."""
        world = self._world
        state = world.id_state
        name = state.idgame.description.name
        header = (
            f"karnak_{name} seed={world.seed}{'' if world.replayable else ' (resampled)'} "
            f"ids={state.length} to_move={state.current_player()} "
            f"spelled={list(state.prefix)}{' truncated' if state.truncated else ''}"
        )
        ids = (
            "ids: " + " ".join(str(i) for i in state.ids)
            if world.replayable
            else "ids: not kept (a resampled world: the seat never saw some of them)"
        )
        return "\n".join([header, ids, *state.state.log_lines(everything=True)])


class KarnakObserver:
    """A seat's view as OpenSpiel's Python observer: ``tensor`` (the game's layout, then
    ``"spelled"``), ``dict`` (every named slice, in order) and strings."""

    def __init__(self, game: KarnakGame, *, perfect_recall: bool):
        karnak_game, players, options = game.karnak_game, game.idgame.players, game.idgame.options
        self.perfect_recall = perfect_recall
        self.layout: TensorLayout = (
            karnak_game.information_state_layout(players, options)
            if perfect_recall
            else karnak_game.observation_layout(players, options)
        )
        if "spelled" in self.layout:
            raise ValueError(f"{karnak_game.title}'s layout has its own 'spelled' part")
        size = self.layout.size
        self._spelling_index = game.idgame.spelling_index
        spelled_size = game.idgame.spelled_size
        self.tensor: FloatVector = np.zeros(size + spelled_size, dtype=np.float32)
        self.dict: dict[str, FloatVector] = self.layout.named(self.tensor[:size])
        self._spelled = self.tensor[size:]
        if spelled_size:  # a game whose moves are all one id has no spelled part
            self.dict["spelled"] = self._spelled
        #: Each seat's tensor of a fixed seed's first state, since pyspiel observes a new
        #: initial state to learn the shape at every C++ tensor call.
        self._start: IdState | None = None
        self._start_tensors: dict[int, FloatVector] = {}

    def set_from(self, state: KarnakState, player: int) -> None:
        start = state._world.untouched_start()
        if start is None:
            self._fill(state.id_state(), player)
            return
        if start is not self._start:
            self._start, self._start_tensors = start, {}
        known = self._start_tensors.get(player)
        if known is None:
            self._fill(start, player)
            self._start_tensors[player] = self.tensor.copy()
        else:
            self.tensor[:] = known

    def _fill(self, id_state: IdState, player: int) -> None:
        size = self.layout.size
        self.tensor[:size] = (
            id_state.state.information_state_tensor(player)
            if self.perfect_recall
            else id_state.state.observation_tensor(player)
        )
        spelled = self._spelled
        spelled.fill(0.0)
        if id_state.prefix and player == id_state.current_player():
            for action_id in id_state.prefix:
                spelled[self._spelling_index[action_id]] += 1.0

    def string_from(self, state: KarnakState, player: int) -> str:
        id_state = state.id_state()
        if self.perfect_recall:
            return id_state.information_state_string(player)
        return id_state.observation_string(player)


def _unpickled_game(text: str, rng_state: str) -> KarnakGame:
    """A pickled game: loaded from its string (the games registered first), its dealer set."""
    register()
    game = pyspiel.load_game(text)
    if not isinstance(game, KarnakGame):  # pragma: no cover - a pyspiel change
        raise TypeError(f"{text} did not load as a Karnak game")
    game.set_rng_state(rng_state)
    return game


# --------------------------------------------------------------------- registration
def game_class(name: str) -> type[KarnakGame]:
    """The pyspiel game class of the Karnak game ``name`` (what :func:`register` registers).

    A class, not a closure: pyspiel keeps its creator until the process ends, after the
    interpreter has stopped, and releasing the last reference to a plain function then
    aborts the process; a class is never released at that point."""
    game = get_game(name)
    cls = _CLASSES.get(game.name)
    if cls is None:
        title = "".join(part.capitalize() for part in game.name.split("_"))
        cls = _CLASSES[game.name] = type(
            f"Karnak{title}Game",
            (KarnakGame,),
            {"karnak_name": game.name, "__doc__": f"{game.title} for OpenSpiel."},
        )
    return cls


_CLASSES: dict[str, type[KarnakGame]] = {}


def register() -> list[str]:
    """Register every Karnak game with pyspiel (again is harmless); the short names."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in available_games():
        short = short_name(name)
        if short not in registered:
            pyspiel.register_game(_registered_type(get_game(name)), game_class(name))
        names.append(short)
    return names
