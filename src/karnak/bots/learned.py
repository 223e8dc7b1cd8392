"""Learned policies played with NumPy alone: an exported network and the bot that plays it.

A policy trained outside Karnak (``karnak train GAME``: sb3-contrib's MaskablePPO on the
Gymnasium env, which needs torch) is exported as a small ``.npz`` of plain arrays, so that
playing it needs nothing but NumPy:

- ``weight_0``, ``bias_0``, ``weight_1``, ... : the layers of a multi-layer perceptron,
  ``h = act(W h + b)`` after every layer but the last, whose output is one logit per action
  id (``W`` is ``(out, in)``, as torch stores it);
- ``meta``: one JSON string: the game, the table size, the observation kind
  (``information_state`` or ``observation``), the input and output sizes the network was
  trained for, the activation, and how it was trained (:data:`META_KEYS`).

:class:`PolicyBot` plays such a policy through a seat's view only: it builds the seat's
vector with the same code as the environments (:meth:`karnak.envs.idgame.IdGame.vector`:
the seat's tensor, then the counts of the ids it has spelled so far of a move), masks the ids
that spell no legal move, and takes the most probable id (``sample=True``: one drawn from the
masked softmax with the bot's seeded generator), id after id until a move is spelled.

A policy is bound to the layout it was trained on: when the game's vector no longer has the
size the network expects (a tensor layout changed), :class:`PolicyMismatchError` says so and
names the command that trains it again, instead of playing nonsense.

Where a game ships a policy (``research/policy.npz`` in its package, beside its tensors),
the bot spec ``policy`` plays it (Aton's: :mod:`karnak.games.aton.research`).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.core.errors import KarnakError

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.game import Game
    from karnak.core.rng import Rng
    from karnak.core.state import State
    from karnak.envs.idgame import IdGame

__all__ = [
    "MlpPolicy",
    "PolicyBot",
    "PolicyMismatchError",
    "load_policy",
    "policy_folder",
    "read_layers",
    "register_policy_bot",
    "save_layers",
    "shipped_policy_path",
]

Array = npt.NDArray[np.float32]

#: What ``meta`` holds (more keys may follow: how the policy was trained).
META_KEYS = ("game", "players", "observation", "input_size", "actions", "activation")
ACTIVATIONS = ("tanh", "relu")
#: The file a game's package ships its policy in, under its ``research`` package.
POLICY_FILE = "policy.npz"


class PolicyMismatchError(KarnakError, ValueError):
    """A policy that does not fit the game it is asked to play (sizes, table, kind)."""


class MlpPolicy:
    """A multi-layer perceptron from a seat's vector to one logit per action id."""

    def __init__(
        self,
        weights: Sequence[Array],
        biases: Sequence[Array],
        meta: Mapping[str, Any],
    ):
        missing = [key for key in META_KEYS if key not in meta]
        if missing:
            raise ValueError(f"a policy's meta lacks {', '.join(missing)}")
        if meta["activation"] not in ACTIVATIONS:
            raise ValueError(f"unknown activation {meta['activation']!r}")
        if not weights or len(weights) != len(biases):
            raise ValueError("a policy has one bias per weight matrix, and at least one layer")
        size = int(meta["input_size"])
        for w, b in zip(weights, biases, strict=True):
            if w.ndim != 2 or b.shape != (w.shape[0],) or w.shape[1] != size:
                raise ValueError("the layers' shapes do not chain")
            size = w.shape[0]
        if size != int(meta["actions"]):
            raise ValueError(f"the last layer gives {size} logits, not {meta['actions']}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.meta = dict(meta)
        self.input_size = int(meta["input_size"])
        self.actions = int(meta["actions"])
        self._act: Callable[[Array], Array] = _tanh if meta["activation"] == "tanh" else _relu

    @property
    def parameters(self) -> int:
        return sum(w.size + b.size for w, b in zip(self.weights, self.biases, strict=True))

    def logits(self, vector: npt.ArrayLike) -> Array:
        """One logit per action id (mask them yourself)."""
        h = np.asarray(vector, dtype=np.float32)
        if h.shape != (self.input_size,):
            raise PolicyMismatchError(
                f"the policy takes a vector of {self.input_size}, not of shape {h.shape}"
            )
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = w @ h + b
            if i < last:
                h = self._act(h)
        return h.astype(np.float32, copy=False)

    def probabilities(self, vector: npt.ArrayLike, legal: Sequence[int]) -> Array:
        """The masked softmax: the probability of each id of ``legal``, in its order."""
        chosen = self.logits(vector)[np.asarray(legal, dtype=np.intp)].astype(np.float64)
        chosen -= chosen.max()
        p: npt.NDArray[np.float64] = np.exp(chosen)
        result: Array = (p / p.sum()).astype(np.float32)
        return result

    def check(self, idgame: IdGame) -> None:
        """PolicyMismatchError unless this policy was trained for ``idgame``'s vectors."""
        meta = self.meta
        game = idgame.game.name
        retrain = (
            f"the policy must be trained again for the current layout: karnak train {game} "
            "(pip install 'karnak[train]'; see docs/research.md, Baselines)"
        )
        if meta["game"] != game:
            raise PolicyMismatchError(f"this policy plays {meta['game']}, not {game}")
        if int(meta["players"]) != idgame.players:
            raise PolicyMismatchError(
                f"this {game} policy plays tables of {meta['players']}, not {idgame.players}"
            )
        if meta["observation"] != idgame.observation_kind:
            raise PolicyMismatchError(
                f"this policy reads the {meta['observation']} vector, not the "
                f"{idgame.observation_kind}; {retrain}"
            )
        if self.input_size != idgame.observation_size or self.actions != idgame.num_actions:
            raise PolicyMismatchError(
                f"this {game} policy was trained on vectors of {self.input_size} floats and "
                f"{self.actions} action ids, and the game now has {idgame.observation_size} "
                f"and {idgame.num_actions}; {retrain}"
            )

    def save(self, path: Path) -> None:
        save_layers(path, self.weights, self.biases, self.meta)


def _relu(h: Array) -> Array:
    return np.maximum(h, np.float32(0.0))


def _tanh(h: Array) -> Array:
    return np.tanh(h)


def save_layers(
    path: str | Path, weights: Sequence[Array], biases: Sequence[Array], meta: Mapping[str, Any]
) -> None:
    """A perceptron as plain arrays: ``weight_i``, ``bias_i`` and ``meta`` (one JSON string),
    the format of exported policies and of the search's judges (no pickles)."""
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(dict(meta), sort_keys=True))}
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"weight_{i}"] = w
        arrays[f"bias_{i}"] = b
    with Path(path).open("wb") as handle:
        np.savez_compressed(handle, **arrays)


def read_layers(path: str | Path) -> tuple[list[Array], list[Array], dict[str, Any]]:
    """What :func:`save_layers` wrote: the weights, biases and meta."""
    with np.load(Path(path), allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        layers = sum(1 for name in data.files if name.startswith("weight_"))
        weights = [data[f"weight_{i}"] for i in range(layers)]
        biases = [data[f"bias_{i}"] for i in range(layers)]
    return weights, biases, meta


def load_policy(path: str | Path) -> MlpPolicy:
    """The policy exported at ``path`` (no pickles are read)."""
    weights, biases, meta = read_layers(path)
    return MlpPolicy(weights, biases, meta)


def _cached_policy(path: str) -> MlpPolicy:
    """The policy at ``path``, loaded once a process while the file stays the same."""
    found = Path(path).stat()
    return _load_once(path, found.st_mtime_ns, found.st_size)


@lru_cache(maxsize=8)
def _load_once(path: str, mtime_ns: int, size: int) -> MlpPolicy:
    return load_policy(path)


def policy_folder(game: Game) -> Path:
    """The folder of ``game``'s ``research`` package (in the package that holds its rules,
    :attr:`~karnak.core.plugin.GamePlugin.rules`), where a shipped policy lies."""
    from karnak.core.registry import plugin_for

    rules_module = plugin_for(game).rules.partition(":")[0]
    package = f"{rules_module.rpartition('.')[0]}.research"
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PolicyMismatchError(f"{game.title} has no research package ({package})")
    return Path(next(iter(spec.submodule_search_locations)))


def shipped_policy_path(game: Game) -> Path | None:
    """The policy ``game``'s package ships (``research/policy.npz``), or None."""
    try:
        path = policy_folder(game) / POLICY_FILE
    except (PolicyMismatchError, ModuleNotFoundError):
        return None
    return path if path.is_file() else None


_ID_GAMES: dict[tuple[int, int, str, str], IdGame] = {}


def _id_game(game: Game, players: int, options: Mapping[str, Any], kind: str) -> IdGame:
    """The id layer of ``game`` at this table (made once a process: the same object the
    environments build, so the same vector)."""
    from karnak.envs.idgame import IdGame

    key = (id(game), players, json.dumps(dict(options), sort_keys=True, default=str), kind)
    found = _ID_GAMES.get(key)
    if found is None or found.game is not game:
        found = IdGame(game, players, observation=kind, options=options)
        _ID_GAMES[key] = found
    return found


def _seat_state(view: SeatView) -> State:
    """The state behind ``view``'s information set, read here only through the tensor of
    the view's own seat (the tensors are built from what the seat may see: each game's
    non-interference tests, and this module's, check it)."""
    return view.infoset._state


class PolicyBot(Bot):
    """Plays a :class:`MlpPolicy` from its seat's view (see the module's text)."""

    name = "policy"

    def __init__(self, policy: MlpPolicy, *, sample: bool = False, name: str = "policy"):
        self.policy = policy
        self.sample = sample
        self.name = name

    def choose(self, view: SeatView, rng: Rng) -> Action:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        state = _seat_state(view)
        kind = str(self.policy.meta["observation"])
        idgame = _id_game(view.game, len(state.players), state.options, kind)
        self.policy.check(idgame)
        spellings = idgame.speller.spellings(actions)
        candidates = [
            (spelling, action) for spelling, action in zip(spellings, actions, strict=True)
        ]
        prefix: tuple[int, ...] = ()
        while True:
            depth = len(prefix)
            following: dict[int, list[tuple[tuple[int, ...], Action]]] = {}
            for spelling, action in candidates:
                if len(spelling) > depth and spelling[:depth] == prefix:
                    following.setdefault(spelling[depth], []).append((spelling, action))
            legal = sorted(following)
            if not legal:  # a game whose moves spell nothing: play the first legal move
                return actions[0]
            chosen = (
                legal[0] if len(legal) == 1 else self._pick(idgame, state, view, prefix, legal, rng)
            )
            prefix = (*prefix, chosen)
            for spelling, action in following[chosen]:
                if spelling == prefix:
                    return action
            candidates = following[chosen]

    def _pick(
        self,
        idgame: IdGame,
        state: State,
        view: SeatView,
        prefix: tuple[int, ...],
        legal: list[int],
        rng: Rng,
    ) -> int:
        vector = idgame.vector(state, view.seat, prefix)
        if not self.sample:
            logits = self.policy.logits(vector)
            return legal[int(np.argmax(logits[np.asarray(legal, dtype=np.intp)]))]
        p = self.policy.probabilities(vector, legal)
        draw = rng.random()
        total = 0.0
        for action_id, probability in zip(legal, p, strict=True):
            total += float(probability)
            if draw < total:
                return action_id
        return legal[-1]


def register_policy_bot(name: str, path: str | Path, *, sample: bool = False) -> None:
    """Make the policy exported at ``path`` a bot spec ``name`` (for the games it plays)."""
    resolved = str(Path(path).resolve())
    policy = _cached_policy(resolved)  # read now: a missing or bad file fails here

    def make(game: Game, budget: Budget | None) -> Bot:
        return PolicyBot(_cached_policy(resolved), sample=sample, name=name)

    register_bot(
        name,
        make,
        help=f"the learned policy {Path(path).name} ({policy.meta['game']})",
        available=lambda game: game.name == policy.meta["game"],
    )


def _make_shipped(game: Game, budget: Budget | None) -> Bot:
    path = shipped_policy_path(game)
    if path is None:
        raise PolicyMismatchError(f"{game.title} ships no learned policy")
    return PolicyBot(_cached_policy(str(path)))


register_bot(
    "policy",
    _make_shipped,
    help="the game's shipped learned policy (MaskablePPO, played with NumPy; the most "
    "probable legal move)",
    available=lambda game: shipped_policy_path(game) is not None,
)
