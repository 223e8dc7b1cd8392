"""Many Gymnasium envs of one Karnak game as one ``gymnasium.vector.VectorEnv``, in this
process or in worker processes.

:class:`KarnakVectorEnv` keeps ``num_envs`` copies of :class:`~karnak.envs.gymnasium.KarnakGymEnv`
(the learner at ``seat``, Karnak's bots at the other seats) and answers Gymnasium's vector
API exactly as ``gymnasium.vector.SyncVectorEnv`` and ``gymnasium.vector.AsyncVectorEnv``
over the same env do, so code written for either runs unchanged, and the same seeds and
actions give the same arrays (tested against ``AsyncVectorEnv``):

- ``observation_space`` is the batched Dict (``"observation"`` ``(n, obs)`` float32,
  ``"action_mask"`` ``(n, A)`` int8); ``single_observation_space`` and
  ``single_action_space`` are one env's; actions are ``(n,)`` ids.
- ``step`` returns ``(observations, rewards, terminations, truncations, infos)``; ``rewards``
  is float64 ``(n,)``; ``infos`` holds ``"action_mask"`` (and ``"seed"``) stacked, each with
  its ``"_action_mask"`` presence array, as Gymnasium's vector envs stack infos.
- **Automatic reset**, in the mode ``metadata["autoreset_mode"]`` declares (the
  ``autoreset_mode`` argument): ``"next-step"`` (Gymnasium's default: the step after an
  episode ends resets that env, its action ignored, reward 0) or ``"same-step"`` (the env
  resets at once; the last observation and info go in ``infos["final_obs"]`` and
  ``infos["final_info"]``).
- **Seeds**: ``reset(seed=s)`` seeds env ``i`` with ``s + i`` (a list gives each its own);
  each env draws its later games' seeds from its own generator, as the single env does.

``workers=k`` (default 0: this process) steps the envs in ``k`` processes, each a contiguous
slice of the envs, at the same time; the arrays are the same as in one process. Call
:meth:`~KarnakVectorEnv.close` to stop them.

For self-play without bots (every seat's decisions to the caller, every seat's rewards),
:class:`~karnak.envs.batch.BatchStepper` is the array API; its ``workers`` mode uses the
same worker processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from karnak.core.errors import InvalidOptionError
from karnak.envs.batch import slices
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.workers import Workers

__all__ = ["AUTORESET_MODES", "KarnakVectorEnv"]

AUTORESET_MODES = {"next-step": AutoresetMode.NEXT_STEP, "same-step": AutoresetMode.SAME_STEP}

#: One env's answer to a step: observation, reward, terminated, truncated, info, and for a
#: same-step reset the last observation and info of the episode that ended.
EnvStep = tuple[Any, float, bool, bool, dict[str, Any], tuple[Any, dict[str, Any]] | None]


class _Envs:
    """Some of the vector env's envs (all of them here, or one slice in a worker), stepped
    with Gymnasium's automatic reset."""

    def __init__(self, settings: dict[str, Any], count: int, mode: str):
        self.envs = [KarnakGymEnv(**settings) for _ in range(count)]
        self.mode = AUTORESET_MODES[mode]
        self.autoreset = [False] * count

    def reset(
        self, seeds: Sequence[int | None], options: dict[str, Any] | None
    ) -> list[tuple[Any, dict[str, Any]]]:
        self.autoreset = [False] * len(self.envs)
        return [
            env.reset(seed=seed, options=options)
            for env, seed in zip(self.envs, seeds, strict=True)
        ]

    def step(self, actions: npt.NDArray[np.integer[Any]]) -> list[EnvStep]:
        answers: list[EnvStep] = []
        for index, env in enumerate(self.envs):
            final: tuple[Any, dict[str, Any]] | None = None
            if self.mode == AutoresetMode.NEXT_STEP and self.autoreset[index]:
                observation, info = env.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                observation, step_reward, terminated, truncated, info = env.step(actions[index])
                reward = float(step_reward)
                if self.mode == AutoresetMode.SAME_STEP and (terminated or truncated):
                    final = (observation, info)
                    observation, info = env.reset()
            self.autoreset[index] = terminated or truncated
            answers.append((observation, reward, terminated, truncated, info, final))
        return answers


class KarnakVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` :class:`~karnak.envs.gymnasium.KarnakGymEnv` as one vector env (see the
    module's text). The keyword arguments are the single env's."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        workers: int = 0,
        autoreset_mode: str = "next-step",
        seat: int = 0,
        opponents: str | Sequence[str | None] = "random",
        players: int | None = None,
        rewards: str | None = None,
        observation: str = "information_state",
        think_time: str | float | None = None,
        **game_options: Any,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidOptionError(f"num_envs must be at least 1, not {num_envs!r}")
        if isinstance(workers, bool) or not isinstance(workers, int):
            raise InvalidOptionError(f"workers must be a whole number, not {workers!r}")
        if not 0 <= workers <= num_envs:
            raise InvalidOptionError(f"workers must be from 0 to num_envs ({num_envs})")
        if autoreset_mode not in AUTORESET_MODES:
            raise InvalidOptionError(
                f"autoreset_mode must be one of {', '.join(AUTORESET_MODES)}, not "
                f"{autoreset_mode!r}"
            )
        if not isinstance(game, str):
            raise InvalidOptionError("game must be a game's name (worker processes look it up)")
        settings: dict[str, Any] = {
            "game": game,
            "seat": seat,
            "opponents": opponents if isinstance(opponents, str) else list(opponents),
            "players": players,
            "rewards": rewards,
            "observation": observation,
            "think_time": think_time,
            **game_options,
        }
        single = KarnakGymEnv(**settings)  # the spaces, and bad settings refused here
        self.num_envs = num_envs
        self.workers = workers
        self.autoreset_mode = AUTORESET_MODES[autoreset_mode]
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._slices = slices(num_envs, workers or 1)
        self._local: _Envs | None = None
        self._pool: Workers | None = None
        if workers:
            self._pool = Workers(
                _Envs, [(settings, len(part), autoreset_mode) for part in self._slices]
            )
        else:
            self._local = _Envs(settings, num_envs, autoreset_mode)

    @property
    def envs(self) -> list[KarnakGymEnv]:
        """The envs (in this process only; empty with workers)."""
        return [] if self._local is None else self._local.envs

    def _call(self, method: str, payloads: list[tuple[Any, ...]]) -> list[Any]:
        if self._pool is not None:
            answers = self._pool.call(method, payloads)
        else:
            assert self._local is not None
            answers = [getattr(self._local, method)(*payloads[0])]
        return [answer for part in answers for answer in part]

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reset every env: ``seed`` an int (env ``i`` gets ``seed + i``), a list of one
        seed (or None) per env, or None."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset needs one seed per env ({self.num_envs}), not {len(seeds)}")
        answers = self._call(
            "reset", [(seeds[part.start : part.stop], options) for part in self._slices]
        )
        infos: dict[str, Any] = {}
        for index, (_, info) in enumerate(answers):
            infos = self._add_info(infos, info, index)
        observations = [observation for observation, _ in answers]
        return self._stack(observations), infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {chosen.shape}")
        answers: list[EnvStep] = self._call(
            "step", [(chosen[part.start : part.stop],) for part in self._slices]
        )
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        observations = []
        for index, (observation, reward, terminated, truncated, info, final) in enumerate(answers):
            rewards[index], terminations[index], truncations[index] = reward, terminated, truncated
            if final is not None:
                infos = self._add_info(
                    infos, {"final_obs": final[0], "final_info": final[1]}, index
                )
            infos = self._add_info(infos, info, index)
            observations.append(observation)
        return self._stack(observations), rewards, terminations, truncations, infos

    def _stack(self, observations: list[Any]) -> dict[str, Any]:
        """The envs' observations stacked into new arrays (the caller's own)."""
        space = self.single_observation_space
        out: Any = create_empty_array(space, self.num_envs)
        stacked: dict[str, Any] = cast(dict[str, Any], concatenate(space, observations, out))
        return stacked

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.close()

    def __repr__(self) -> str:
        where = f"{self.workers} workers" if self.workers else "one process"
        return f"<KarnakVectorEnv num_envs={self.num_envs}, {where}>"
