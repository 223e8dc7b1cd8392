"""Many games stepped together, with stacked NumPy arrays in and out (in the style of Pgx).

Self-play and policy-gradient code wants a batch: ``n`` games, one array of actions, one
array of observations back. :class:`BatchStepper` keeps ``n``
:class:`~karnak.envs.idgame.IdState` and returns, after :meth:`~BatchStepper.reset` and every
:meth:`~BatchStepper.step`, a :class:`Batch` of arrays whose first axis is the game:

===================== ================= ==========================================
``current_player``    (n,) int32        the seat to choose in each game
``observation``       (n, obs) float32  that seat's vector (tensor + its spelling)
``legal_action_mask`` (n, A) bool       the ids that seat may choose
``rewards``           (n, players) f32  every seat's standing change over the step
``terminated``        (n,) bool         the game ended at this step
``truncated``         (n,) bool         the game was cut off at this step
``illegal``           (n,) bool         the game was ended by an illegal id (penalty)
===================== ================= ==========================================

The games run in this process, one after another (``workers=0``, the default), or in
``workers`` processes, each stepping a contiguous slice of the games at the same time
(``workers=2``: games 0 .. n/2-1 in one, the rest in the other). Both modes give the same
arrays for the same seed and actions (tested); the multi-process mode pays a pipe round trip
a step, so it helps once a step of the games costs more than that (tens of games).

**Automatic reset.** A game that ends at a step reports its last rewards and
``terminated`` (or ``truncated``) in that step's arrays, and its slot already holds the
first position of a fresh game: ``current_player``, ``observation`` and
``legal_action_mask`` of that row are the new game's (as Gymnasium's vector envs do in
their "same step" mode). So every row always has a seat to move and a legal id.

**Illegal ids** follow ``illegal`` (:mod:`karnak.envs.illegal`): under ``"raise"`` (the
default) an id outside a row's mask raises ActionIdError naming the slot and no game moves;
under ``"penalty"`` that row's game ends without playing the id (the offender's rewards add
up to the bottom of the declared range, the others' to 0; ``terminated`` and ``illegal``
set), and its slot deals a fresh game as after any end, while the other rows play on. An id
outside the action space raises under either policy.

**Seeds.** Slot ``i``'s ``k``-th game (``k`` from 0) is dealt from seed
``seed + i + k * n``: no two games of a stepper share a seed, and each slot's run of games
depends only on ``seed``, ``i`` and the actions given to that slot, so a run replays
exactly. ``seeds`` gives each slot's current game seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.envs.idgame import IdGame, IdState
from karnak.envs.illegal import check_policy, results

if TYPE_CHECKING:
    from karnak.envs.workers import Workers

__all__ = ["Batch", "BatchStepper"]

#: What one slice of slots returns for a reset or a step: current player, observation, mask,
#: rewards, terminated, truncated, illegal (arrays over its slots), its slots' seeds and game
#: counts.
SliceAnswer = tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    list[int],
    list[int],
]


@dataclass(frozen=True)
class Batch:
    """What a batch of games shows after a reset or a step (see the module's table)."""

    current_player: npt.NDArray[np.int32]
    observation: npt.NDArray[np.float32]
    legal_action_mask: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    illegal: npt.NDArray[np.bool_]


class _Slots:
    """The games of some of a stepper's slots (all of them in this process, or one slice in
    a worker): slot numbers are the stepper's, so seeds do not depend on the slicing."""

    def __init__(self, idgame: IdGame, slots: range, n: int, seed: int):
        self.idgame = idgame
        self.slots = slots
        self.n = n
        self.seed = seed
        self.seeds: list[int] = [0] * len(slots)
        self.games_started: list[int] = [0] * len(slots)
        self.states: list[IdState] = []
        self._standings: list[list[float]] = []

    def _deal(self, index: int) -> IdState:
        """The next game of the slice's ``index``-th slot (seed ``seed + slot + k * n``)."""
        k = self.games_started[index]
        self.games_started[index] = k + 1
        seed = self.seed + self.slots[index] + k * self.n
        self.seeds[index] = seed
        # From 0, so each seat's rewards over a game add up to its final utility.
        self._standings[index] = [0.0] * self.idgame.players
        return self.idgame.new_state(seed)

    def reset(self) -> SliceAnswer:
        count, players = len(self.slots), self.idgame.players
        self.seeds = [0] * count
        self.games_started = [0] * count
        self._standings = [[0.0] * players for _ in range(count)]
        self.states = [self._deal(index) for index in range(count)]
        zeros = np.zeros(count, dtype=np.bool_)
        rewards = np.zeros((count, players), dtype=np.float32)
        return self._show(rewards, zeros, zeros.copy(), zeros.copy())

    def step(
        self, chosen: npt.NDArray[np.integer[Any]], offended: npt.NDArray[np.bool_]
    ) -> SliceAnswer:
        """Play each slot's id of ``chosen`` (already checked against the masks shown); a
        slot whose id ``offended`` (illegal, under the penalty) ends its game instead."""
        count, players = len(self.slots), self.idgame.players
        rewards = np.zeros((count, players), dtype=np.float32)
        terminated = np.zeros(count, dtype=np.bool_)
        truncated = np.zeros(count, dtype=np.bool_)
        for index, state in enumerate(self.states):
            if offended[index]:
                ended = results(self.idgame.description, [state.current_player()])
                before = self._standings[index]
                rewards[index] = [a - b for a, b in zip(ended, before, strict=True)]
                terminated[index] = True
                self.states[index] = self._deal(index)
                continue
            state.apply_id(int(chosen[index]))
            after = state.standing()
            before = self._standings[index]
            if after != before:
                rewards[index] = [a - b for a, b in zip(after, before, strict=True)]
                self._standings[index] = after
            if state.is_terminal():
                truncated[index] = state.truncated
                terminated[index] = not state.truncated
                self.states[index] = self._deal(index)
        return self._show(rewards, terminated, truncated, offended.copy())

    def _show(
        self,
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        illegal: npt.NDArray[np.bool_],
    ) -> SliceAnswer:
        count, idgame = len(self.slots), self.idgame
        current = np.empty(count, dtype=np.int32)
        observation = np.empty((count, idgame.observation_size), dtype=np.float32)
        mask = np.empty((count, idgame.num_actions), dtype=np.bool_)
        for index, state in enumerate(self.states):
            seat = state.current_player()
            current[index] = seat
            state.observation(seat, out=observation[index])
            mask[index] = state.mask()
        return (
            current,
            observation,
            mask,
            rewards,
            terminated,
            truncated,
            illegal,
            list(self.seeds),
            list(self.games_started),
        )


def _slice_in_worker(
    game: str,
    players: int,
    rewards: str,
    observation: str,
    options: dict[str, Any],
    slots: range,
    n: int,
    seed: int,
) -> _Slots:
    """A worker's slice (built in the worker process from picklable settings)."""
    idgame = IdGame(game, players, rewards=rewards, observation=observation, options=options)
    return _Slots(idgame, slots, n, seed)


def slices(n: int, parts: int) -> list[range]:
    """``range(n)`` cut into ``parts`` contiguous slices, the first ones a game longer."""
    size, extra = divmod(n, parts)
    cuts, start = [], 0
    for part in range(parts):
        stop = start + size + (part < extra)
        cuts.append(range(start, stop))
        start = stop
    return cuts


class BatchStepper:
    """``n`` games of one kind stepped together (see the module's text).

    ``workers`` (default 0: in this process) steps the games in that many processes, each a
    contiguous slice of the slots; call :meth:`close` (or use the stepper as a context
    manager) to stop them. In that mode ``states`` is empty: the games live in the workers.
    """

    def __init__(
        self,
        game: str | Game,
        n: int,
        players: int | None = None,
        rewards: str | None = None,
        observation: str = "information_state",
        seed: int = 0,
        workers: int = 0,
        illegal: str = "raise",
        **game_options: Any,
    ):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidOptionError(f"n (the number of games) must be at least 1, not {n!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= n:
            raise InvalidOptionError(
                f"workers must be from 0 (this process) to n ({n}), not {workers!r}"
            )
        self.idgame = IdGame(
            game, players, rewards=rewards, observation=observation, options=game_options
        )
        self.n = n
        self.seed = int(seed)
        self.workers = workers
        #: What an id outside a row's mask does: ``"raise"`` or ``"penalty"``.
        self.illegal = check_policy(illegal)
        self._local = _Slots(self.idgame, range(n), n, self.seed)
        self._pool: Workers | None = None
        if workers:
            from karnak.envs.workers import Workers

            settings = (
                self.idgame.game.name,
                self.idgame.players,
                self.idgame.description.rewards,
                self.idgame.observation_kind,
                dict(self.idgame.options),
            )
            self._pool = Workers(
                _slice_in_worker,
                [(*settings, part, n, self.seed) for part in slices(n, workers)],
            )
        #: Each slot's current game seed.
        self.seeds: list[int] = []
        #: How many games each slot has started.
        self.games_started: list[int] = []
        self._last: Batch | None = None

    @property
    def states(self) -> list[IdState]:
        """The games being played (in this process only; empty with workers)."""
        return self._local.states

    @property
    def num_actions(self) -> int:
        return self.idgame.num_actions

    @property
    def observation_size(self) -> int:
        return self.idgame.observation_size

    def reset(self) -> Batch:
        """Start every slot afresh: slot ``i`` plays seed ``seed + i`` (its game 0)."""
        if self._pool is None:
            return self._gather([self._local.reset()])
        return self._gather(self._pool.call("reset", [()] * len(self._pool)))

    def step(self, actions: npt.ArrayLike) -> Batch:
        """Every game's seat to move chooses its id of ``actions`` (shape ``(n,)``).

        All the ids are checked first: one outside the action space raises ActionIdError
        naming its slot, and no game moves; so does an illegal one under ``"raise"``, while
        under ``"penalty"`` its game ends (see the module's text)."""
        last = self._last
        if last is None:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or chosen.dtype.kind not in "iu":
            raise ActionIdError(
                f"actions must be {self.n} integer ids (shape ({self.n},)), "
                f"not {chosen.dtype} of shape {chosen.shape}"
            )
        size = self.idgame.num_actions
        outside = (chosen < 0) | (chosen >= size)
        if outside.any():
            slot = int(np.flatnonzero(outside)[0])
            raise ActionIdError(
                f"game {slot}: id {int(chosen[slot])} is out of range (0 to {size - 1}); "
                "the step was not played"
            )
        offended = ~last.legal_action_mask[np.arange(self.n), chosen]
        if offended.any() and self.illegal == "raise":
            slot = int(np.flatnonzero(offended)[0])
            action_id = int(chosen[slot])
            raise ActionIdError(
                f"game {slot}: id {action_id} ({self.idgame.id_name(action_id)}) is not legal "
                f"for seat {int(last.current_player[slot])}; the step was not played"
            )
        if self._pool is None:
            return self._gather([self._local.step(chosen, offended)])
        parts = slices(self.n, len(self._pool))
        return self._gather(
            self._pool.call(
                "step",
                [
                    (chosen[part.start : part.stop], offended[part.start : part.stop])
                    for part in parts
                ],
            )
        )

    def _gather(self, answers: list[SliceAnswer]) -> Batch:
        if len(answers) == 1:
            (
                current,
                observation,
                mask,
                rewards,
                terminated,
                truncated,
                illegal,
                seeds,
                started,
            ) = answers[0]
        else:
            columns = list(zip(*answers, strict=True))
            current, observation, mask, rewards, terminated, truncated, illegal = (
                np.concatenate(column) for column in columns[:7]
            )
            seeds = [seed for part in columns[7] for seed in part]
            started = [count for part in columns[8] for count in part]
        self.seeds, self.games_started = seeds, started
        self._last = Batch(current, observation, mask, rewards, terminated, truncated, illegal)
        return self._last

    def close(self) -> None:
        """Stop the worker processes, if any (idempotent)."""
        if self._pool is not None:
            self._pool.close()

    def __enter__(self) -> BatchStepper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
