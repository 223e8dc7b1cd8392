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
===================== ================= ==========================================

The games run in this process, one after another (the engine is Python): the batch saves
the caller's loop and array stacking, not the engine's time.

**Automatic reset.** A game that ends at a step reports its last rewards and
``terminated`` (or ``truncated``) in that step's arrays, and its slot already holds the
first position of a fresh game: ``current_player``, ``observation`` and
``legal_action_mask`` of that row are the new game's (as Gymnasium's vector envs do in
their "same step" mode). So every row always has a seat to move and a legal id.

**Seeds.** Slot ``i``'s ``k``-th game (``k`` from 0) is dealt from seed
``seed + i + k * n``: no two games of a stepper share a seed, and each slot's run of games
depends only on ``seed``, ``i`` and the actions given to that slot, so a run replays
exactly. ``seeds`` gives each slot's current game seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.envs.idgame import IdGame, IdState

__all__ = ["Batch", "BatchStepper"]


@dataclass(frozen=True)
class Batch:
    """What a batch of games shows after a reset or a step (see the module's table)."""

    current_player: npt.NDArray[np.int32]
    observation: npt.NDArray[np.float32]
    legal_action_mask: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


class BatchStepper:
    """``n`` games of one kind stepped together (see the module's text)."""

    def __init__(
        self,
        game: str | Game,
        n: int,
        players: int | None = None,
        rewards: str | None = None,
        observation: str = "information_state",
        seed: int = 0,
        **game_options: Any,
    ):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidOptionError(f"n (the number of games) must be at least 1, not {n!r}")
        self.idgame = IdGame(
            game, players, rewards=rewards, observation=observation, options=game_options
        )
        self.n = n
        self.seed = int(seed)
        #: Each slot's current game seed.
        self.seeds: list[int] = []
        #: How many games each slot has started.
        self.games_started: list[int] = []
        self.states: list[IdState] = []
        self._standings: list[list[float]] = []
        self._last: Batch | None = None

    @property
    def num_actions(self) -> int:
        return self.idgame.num_actions

    @property
    def observation_size(self) -> int:
        return self.idgame.observation_size

    def _deal(self, slot: int) -> IdState:
        """Slot ``slot``'s next game (seed ``seed + slot + k * n`` for its ``k``-th)."""
        k = self.games_started[slot]
        self.games_started[slot] = k + 1
        seed = self.seed + slot + k * self.n
        self.seeds[slot] = seed
        # From 0, so each seat's rewards over a game add up to its final utility.
        self._standings[slot] = [0.0] * self.idgame.players
        return self.idgame.new_state(seed)

    def reset(self) -> Batch:
        """Start every slot afresh: slot ``i`` plays seed ``seed + i`` (its game 0)."""
        n, players = self.n, self.idgame.players
        self.seeds = [0] * n
        self.games_started = [0] * n
        self._standings = [[0.0] * players for _ in range(n)]
        self.states = [self._deal(slot) for slot in range(n)]
        zeros = np.zeros(n, dtype=np.bool_)
        return self._show(np.zeros((n, players), dtype=np.float32), zeros, zeros.copy())

    def step(self, actions: npt.ArrayLike) -> Batch:
        """Every game's seat to move chooses its id of ``actions`` (shape ``(n,)``).

        All the ids are checked first: an illegal one raises ActionIdError naming its slot,
        and no game moves."""
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
        bad = (chosen < 0) | (chosen >= size)
        if not bad.any():
            bad = ~last.legal_action_mask[np.arange(self.n), chosen]
        if bad.any():
            slot = int(np.flatnonzero(bad)[0])
            action_id = int(chosen[slot])
            name = self.idgame.id_name(action_id) if 0 <= action_id < size else "out of range"
            raise ActionIdError(
                f"game {slot}: id {action_id} ({name}) is not legal for seat "
                f"{int(last.current_player[slot])}; the step was not played"
            )
        players = self.idgame.players
        rewards = np.zeros((self.n, players), dtype=np.float32)
        terminated = np.zeros(self.n, dtype=np.bool_)
        truncated = np.zeros(self.n, dtype=np.bool_)
        for slot, state in enumerate(self.states):
            state.apply_id(int(chosen[slot]))
            after = state.standing()
            before = self._standings[slot]
            if after != before:
                rewards[slot] = [a - b for a, b in zip(after, before, strict=True)]
                self._standings[slot] = after
            if state.is_terminal():
                truncated[slot] = state.truncated
                terminated[slot] = not state.truncated
                self.states[slot] = self._deal(slot)
        return self._show(rewards, terminated, truncated)

    def _show(
        self,
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
    ) -> Batch:
        n, idgame = self.n, self.idgame
        current = np.empty(n, dtype=np.int32)
        observation = np.empty((n, idgame.observation_size), dtype=np.float32)
        mask = np.empty((n, idgame.num_actions), dtype=np.bool_)
        for slot, state in enumerate(self.states):
            seat = state.current_player()
            current[slot] = seat
            observation[slot] = state.observation(seat)
            mask[slot] = state.mask()
        self._last = Batch(current, observation, mask, rewards, terminated, truncated)
        return self._last
