"""Self-play trajectories: seeded games played by policies and bots, as NumPy arrays.

:func:`sample` plays ``games`` games of one game at one table size and records every step
(every id chosen) as the adapters see it: the seat to move, its observation vector, its
mask, the id chosen, and every seat's reward for the step. The games run in this process,
in a pool of processes (``jobs``), or as Ray tasks (``ray``: a local Ray or a cluster,
through :mod:`karnak.bots.arena_ray`); the arrays are the same for the same arguments
whichever runs them.

**Players.** ``players`` holds one entry per seat: a bot spec (``"heuristic"``,
``"ismcts:200"``, as ``karnak arena`` reads them) or a :data:`Policy`, a picklable callable
``policy(observation, mask, rng) -> id`` (a module-level function, or an object with
``__call__``: a NumPy network, say; the workers unpickle it). A policy must choose an id
its mask allows; a bot's move is recorded as the ids that spell it, one step each. With
``rotate`` (the default) game ``i`` seats entry ``(s + i) % n`` in seat ``s``, as the arena
does, so every entry plays every seat.

**What is seeded.** Game ``i`` plays engine seed ``seed + i`` (the game ``karnak replay``,
the PettingZoo env's ``reset(seed=...)`` and the arena deal from it). Each seat's
generator comes from that seed and the seat alone (:func:`karnak.bots.arena.bot_rngs`, as
in the arena and ``karnak simulate``); a policy gets a NumPy generator seeded from its
seat's. So a game's steps depend on nothing but its seed, the entries and their order:
not on the process or the Ray worker that played it, nor on how the games were chunked.
Games are returned in seed order. (Bots with a time budget depend on the machine.)

**The layer.** Every step goes through :class:`~karnak.envs.idgame.IdState`, the ground of
the PettingZoo, Gymnasium and OpenSpiel adapters: the vectors, masks and rewards are the
PettingZoo AEC env's for the same ids (a test replays a trajectory there), rewards being
the change of each seat's standing (:mod:`karnak.core.description`), counted from 0 at the
start, so each game's rewards add up to its :attr:`Trajectories.returns`.
"""

from __future__ import annotations

import json
import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from karnak.bots.arena import bot_rngs, normalise_spec
from karnak.bots.base import Bot, SeatView, make_bot
from karnak.core.action_ids import BoolVector
from karnak.core.errors import InvalidOptionError, KarnakError
from karnak.core.game import Game
from karnak.core.registry import get_game
from karnak.core.tensors import FloatVector
from karnak.envs.idgame import IdGame, IdState

__all__ = ["Policy", "SelfPlayError", "Trajectories", "random_policy", "sample"]

#: A policy: ``policy(observation, mask, rng)`` returns the id to choose, one its ``mask``
#: allows. ``observation`` is the seat's vector, ``mask`` a boolean vector of the ids,
#: ``rng`` the seat's NumPy generator (seeded from the game's seed and the seat).
Policy = Callable[[FloatVector, BoolVector, np.random.Generator], int | np.integer[Any]]

#: A game of a run: its index and its seed.
Planned = tuple[int, int]


class SelfPlayError(KarnakError, RuntimeError):
    """A game of a sampling run failed (the message names its seed and seating)."""


def random_policy(observation: FloatVector, mask: BoolVector, rng: np.random.Generator) -> int:
    """A legal id drawn uniformly (a baseline, and a policy for tests)."""
    return int(rng.choice(np.flatnonzero(mask)))


# ---------------------------------------------------------------------- the arrays
@dataclass(frozen=True, eq=False)
class Trajectories:
    """The steps of several games, one row per id chosen, and one row per game.

    Steps of game ``g`` are rows ``starts[g]`` to ``starts[g] + length[g]``, in the order
    they were played; games are in seed order.
    """

    #: The game's name, the table size, the observation kind and the reward scheme.
    game: str
    players: int
    observation_kind: str
    rewards: str
    #: The entries as given (a bot spec, or a policy's name), by position.
    entries: tuple[str, ...]
    # --- per step ---
    #: The game each step belongs to (its position in this object, 0-based).
    episode: npt.NDArray[np.int32]
    #: The seat that chose, and the position of its entry in ``entries``.
    seat: npt.NDArray[np.int16]
    entry: npt.NDArray[np.int16]
    #: The seat's vector and mask before it chose (shape ``(steps, size)``).
    observation: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    #: The id chosen.
    action: npt.NDArray[np.int32]
    #: Every seat's reward for the step (shape ``(steps, players)``).
    reward: npt.NDArray[np.float32]
    # --- per game ---
    seed: npt.NDArray[np.int64]
    #: The entry in each seat (shape ``(games, players)``).
    seating: npt.NDArray[np.int16]
    #: Each seat's final utility (the sum of its rewards).
    returns: npt.NDArray[np.float32]
    length: npt.NDArray[np.int32]
    truncated: npt.NDArray[np.bool_]

    @property
    def steps(self) -> int:
        return int(self.action.shape[0])

    @property
    def games(self) -> int:
        return int(self.seed.shape[0])

    @property
    def starts(self) -> npt.NDArray[np.int64]:
        """The first step of each game."""
        return np.concatenate(([0], np.cumsum(self.length, dtype=np.int64)[:-1]))

    def arrays(self) -> dict[str, Any]:
        """Every array by its field name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _META}

    def same_as(self, other: Trajectories) -> bool:
        """Whether both hold the same games, step for step (every array equal)."""
        mine, theirs = self.arrays(), other.arrays()
        return self.meta() == other.meta() and all(
            mine[name].dtype == theirs[name].dtype and np.array_equal(mine[name], theirs[name])
            for name in mine
        )

    def meta(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "observation_kind": self.observation_kind,
            "rewards": self.rewards,
            "entries": list(self.entries),
        }

    @staticmethod
    def concatenate(parts: Sequence[Trajectories]) -> Trajectories:
        """The games of ``parts`` one after another (``episode`` renumbered)."""
        if not parts:
            raise ValueError("nothing to concatenate")
        first = parts[0]
        if any(part.meta() != first.meta() for part in parts):
            raise ValueError("only trajectories of one game, table and entries concatenate")
        arrays: dict[str, Any] = {
            name: np.concatenate([part.arrays()[name] for part in parts]) for name in first.arrays()
        }
        offsets = np.cumsum([0] + [part.games for part in parts[:-1]])
        arrays["episode"] = np.concatenate(
            [part.episode + offset for part, offset in zip(parts, offsets, strict=True)]
        ).astype(np.int32)
        return _trajectories(first.meta_args(), arrays)

    def meta_args(self) -> dict[str, Any]:
        return {**self.meta(), "entries": self.entries}

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write a compressed ``.npz`` shard (the arrays, and the settings as JSON)."""
        target = Path(path)
        with target.open("wb") as file:
            np.savez_compressed(file, meta=np.array(json.dumps(self.meta())), **self.arrays())
        return target

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Trajectories:
        """A shard written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays: dict[str, Any] = {name: data[name] for name in data.files if name != "meta"}
        meta["entries"] = tuple(meta["entries"])
        return _trajectories(meta, arrays)

    def __repr__(self) -> str:
        return (
            f"<Trajectories {self.game} players={self.players} games={self.games} "
            f"steps={self.steps}>"
        )


_META = frozenset({"game", "players", "observation_kind", "rewards", "entries"})


def _trajectories(meta: dict[str, Any], arrays: dict[str, Any]) -> Trajectories:
    return Trajectories(**meta, **arrays)


# ---------------------------------------------------------------------- playing
@dataclass(frozen=True)
class _Run:
    """What every worker needs to play any game of a run (pickled once per worker/task)."""

    game: Game
    entries: tuple[str | Policy, ...]
    labels: tuple[str, ...]
    rewards: str | None
    observation: str
    options: dict[str, Any]
    rotate: bool

    def idgame(self) -> IdGame:
        return IdGame(
            self.game,
            len(self.entries),
            rewards=self.rewards,
            observation=self.observation,
            options=self.options,
        )


class _Recorder:
    """One game's steps, gathered in lists and made arrays at the end."""

    def __init__(self, state: IdState, seats: tuple[int, ...]):
        self.state = state
        self.seats = seats
        self.before = [0.0] * len(seats)
        self.seat: list[int] = []
        self.observations: list[FloatVector] = []
        self.masks: list[BoolVector] = []
        self.actions: list[int] = []
        self.rewards: list[list[float]] = []

    def look(self, seat: int) -> tuple[FloatVector, BoolVector]:
        return self.state.observation(seat), self.state.mask(seat)

    def step(self, seat: int, observation: FloatVector, mask: BoolVector, action_id: int) -> None:
        self.state.apply_id(action_id)
        after = self.state.standing()
        self.rewards.append([a - b for a, b in zip(after, self.before, strict=True)])
        self.before = after
        self.seat.append(seat)
        self.observations.append(observation)
        self.masks.append(mask)
        self.actions.append(action_id)


def play_trajectory(run: _Run, idgame: IdGame, index: int, seed: int) -> Trajectories:
    """Game ``index`` of ``run`` (engine seed ``seed``), recorded step by step."""
    n = idgame.players
    order = tuple(range(n))
    # As the arena seats its specs (karnak.bots.arena.seating): entry (s + i) % n in seat s.
    seats = tuple((s + index) % n for s in order) if run.rotate else order
    rngs = bot_rngs(seed, n)
    bots: dict[int, Bot] = {}
    policies: dict[int, tuple[Policy, np.random.Generator]] = {}
    for seat, position in enumerate(seats):
        entry = run.entries[position]
        if isinstance(entry, str):
            bots[seat] = make_bot(entry, idgame.game)
        else:
            policies[seat] = (entry, np.random.default_rng(rngs[seat].next_u64()))
    state = idgame.new_state(seed)
    recorder = _Recorder(state, seats)
    spell = idgame.space.spell
    while not state.is_terminal():
        seat = state.current_player()
        if seat in policies:
            policy, generator = policies[seat]
            observation, mask = recorder.look(seat)
            chosen = policy(observation, mask, generator)
            action_id = int(chosen)
            if not 0 <= action_id < mask.shape[0] or not mask[action_id]:
                raise SelfPlayError(
                    f"the policy {run.labels[seats[seat]]} in seat {seat} chose id {chosen!r}, "
                    f"which its mask does not allow"
                )
            recorder.step(seat, observation, mask, action_id)
        else:
            move = bots[seat].choose(SeatView.of(state.state, seat), rngs[seat])
            for action_id in spell(move):
                observation, mask = recorder.look(seat)
                recorder.step(seat, observation, mask, action_id)
    steps = len(recorder.actions)
    size, ids = idgame.observation_size, idgame.num_actions
    return Trajectories(
        game=idgame.game.name,
        players=n,
        observation_kind=idgame.observation_kind,
        rewards=idgame.description.rewards,
        entries=run.labels,
        episode=np.zeros(steps, dtype=np.int32),
        seat=np.array(recorder.seat, dtype=np.int16),
        entry=np.array([seats[s] for s in recorder.seat], dtype=np.int16),
        observation=(
            np.stack(recorder.observations).astype(np.float32, copy=False)
            if steps
            else np.zeros((0, size), dtype=np.float32)
        ),
        mask=np.stack(recorder.masks) if steps else np.zeros((0, ids), dtype=np.bool_),
        action=np.array(recorder.actions, dtype=np.int32),
        reward=np.array(recorder.rewards, dtype=np.float32).reshape(steps, n),
        seed=np.array([seed], dtype=np.int64),
        seating=np.array([seats], dtype=np.int16),
        returns=np.array([recorder.before], dtype=np.float32),
        length=np.array([steps], dtype=np.int32),
        truncated=np.array([state.truncated], dtype=np.bool_),
    )


def _play_chunk(run: _Run, chunk: list[Planned]) -> list[Trajectories] | SelfPlayError:
    """One task or pool job: the games of ``chunk`` in order; a failure is returned (Ray
    would wrap it) with its seed."""
    idgame = run.idgame()
    played = []
    for index, seed in chunk:
        try:
            played.append(play_trajectory(run, idgame, index, seed))
        except SelfPlayError as exc:
            return SelfPlayError(f"the game with seed {seed} failed: {exc}")
        except Exception as exc:
            frames = traceback.extract_tb(exc.__traceback__)
            where = (
                f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})"
                if frames
                else ""
            )
            return SelfPlayError(
                f"the game with seed {seed} failed: {type(exc).__name__}: {exc}{where}"
            )
    return played


def _label(entry: str | Policy) -> str:
    if isinstance(entry, str):
        return normalise_spec(entry)
    name = getattr(entry, "__name__", None) or type(entry).__name__
    return f"policy:{name}"


# ---------------------------------------------------------------------- the sampler
def sample(
    game: str | Game,
    players: Sequence[str | Policy],
    games: int,
    seed: int = 0,
    *,
    rewards: str | None = None,
    observation: str = "information_state",
    options: Mapping[str, Any] | None = None,
    rotate: bool = True,
    jobs: int = 1,
    ray: str | None = None,
    num_cpus: int | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Trajectories:
    """Play ``games`` seeded games (seeds ``seed`` to ``seed + games - 1``) and return their
    steps (see the module's text).

    ``players``: one bot spec or :data:`Policy` per seat (their number is the table size).
    ``rewards``, ``observation`` and ``options`` are the adapters' (the PettingZoo env's
    keywords). Where the games are played: here (``jobs=1``), in ``jobs`` processes, or,
    with ``ray``, as Ray tasks: ``"local"`` starts a local Ray with ``num_cpus`` CPUs
    (default: this machine's), another value is a cluster's address (``"auto"``,
    ``"ray://host:10001"``); a Ray already initialised in this process is used as it is.
    ``chunk`` games go to each task (default: about four tasks per CPU). ``progress`` is
    called here with the number of games finished so far. The result does not depend on
    any of these.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOptionError(f"games must be at least 1, not {games!r}")
    if jobs < 1:
        raise InvalidOptionError(f"jobs must be at least 1, not {jobs}")
    if not players:
        raise InvalidOptionError("players names one bot spec or policy per seat")
    resolved = get_game(game) if isinstance(game, str) else game
    entries: list[str | Policy] = []
    for entry in players:
        if isinstance(entry, str):
            entries.append(normalise_spec(entry))
        elif callable(entry):
            entries.append(entry)
        else:
            raise InvalidOptionError(f"a player is a bot spec or a policy, not {entry!r}")
    run = _Run(
        game=resolved,
        entries=tuple(entries),
        labels=tuple(_label(e) for e in entries),
        rewards=rewards,
        observation=observation,
        options=dict(options or {}),
        rotate=rotate,
    )
    idgame = run.idgame()  # a bad table size, option or scheme fails here
    run = replace(run, options=dict(idgame.options))
    for entry in dict.fromkeys(e for e in entries if isinstance(e, str)):
        make_bot(entry, resolved)  # a bad spec fails here, not in a worker
    plan: list[Planned] = [(i, seed + i) for i in range(games)]

    if ray is not None:
        from karnak.bots.arena_ray import (
            chunk_size,
            chunked,
            cluster_cpus,
            ray_session,
            run_chunks,
        )

        with ray_session(ray, num_cpus) as session:
            size = chunk_size(games, cluster_cpus(session), chunk)
            played = run_chunks(session, _play_chunk, run, chunked(plan, size), progress)
    elif jobs == 1:
        played = []
        for index, game_seed in plan:
            result = _play_chunk(run, [(index, game_seed)])
            if isinstance(result, SelfPlayError):
                raise result
            played += result
            if progress is not None:
                progress(len(played))
    else:
        played = _run_pool(run, plan, min(jobs, games), chunk, progress)
    return Trajectories.concatenate(played)


# What a pool process plays: set once per process by the pool's initializer.
_WORKER: _Run | None = None


def _init_worker(run: _Run) -> None:
    global _WORKER
    _WORKER = run


def _worker_chunk(chunk: list[Planned]) -> list[Trajectories] | SelfPlayError:
    assert _WORKER is not None, "the sampler's worker was not initialised"
    return _play_chunk(_WORKER, chunk)


def _run_pool(
    run: _Run,
    plan: list[Planned],
    jobs: int,
    chunk: int | None,
    progress: Callable[[int], None] | None,
) -> list[Trajectories]:
    """The plan over ``jobs`` processes, in chunks; the first failure (or an interruption)
    cancels the chunks not started and is re-raised."""
    size = chunk if chunk is not None else max(1, len(plan) // (jobs * 4))
    if size < 1:
        raise InvalidOptionError(f"chunk must be at least 1, not {size}")
    chunks = [plan[i : i + size] for i in range(0, len(plan), size)]
    executor = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(run,))
    results: dict[int, list[Trajectories]] = {}
    try:
        futures: dict[Future[list[Trajectories] | SelfPlayError], int] = {
            executor.submit(_worker_chunk, part): i for i, part in enumerate(chunks)
        }
        pending = set(futures)
        done_games = 0
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                value = future.result()
                if isinstance(value, SelfPlayError):
                    raise value
                results[futures[future]] = value
                done_games += len(value)
                if progress is not None:
                    progress(done_games)
    except BaseException:
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True)
    return [t for i in range(len(chunks)) for t in results[i]]
