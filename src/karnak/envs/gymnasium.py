"""A single-agent Gymnasium environment: the learner plays one seat, Karnak's bots the others.

Most reinforcement-learning code (Stable-Baselines3, CleanRL) trains one agent in a
``gymnasium.Env``. :class:`KarnakGymEnv` seats the learner at ``seat`` and Karnak's own bots
at the other seats; ``step(id)`` plays the learner's id, then lets the bots move until the
learner must choose again or the game ends.

- **Observation**: the Dict of :mod:`karnak.envs.pettingzoo` (``"observation"``, the seat's
  float32 vector, and ``"action_mask"``, int8), and the mask again in
  ``info["action_mask"]`` (where maskable learners such as sb3-contrib's look for it).
- **Reward**: the change of the learner's standing over the step, the bots' moves included
  (see :mod:`karnak.core.description`); its sum over an episode is the learner's final
  utility.
- **Action**: one id of the game's :class:`~karnak.core.action_ids.ActionSpace`. What an
  illegal id does is the ``illegal`` option (:mod:`karnak.envs.illegal`): ``"raise"``, the
  default of the class built directly, raises
  :class:`~karnak.core.action_ids.ActionIdError` and changes nothing (the mask says which
  ids are legal); ``"penalty"``, what the registered ids use (``gymnasium.make("karnak/
  Aton-v1")``, :mod:`karnak.envs.versions`) so that Gymnasium's ``check_env``, which samples
  blind to the mask, passes as shipped, ends the episode (``terminated``) with nothing
  played, a reward that brings the learner's return to the bottom of the declared range
  (-1 under ``"win"``), and ``info["illegal_actions"]`` saying why.
- **Opponents** choose Karnak moves from their own seat's view
  (:class:`~karnak.bots.base.SeatView`: nothing hidden from them), and the env spells each
  move in ids, so a game is the same id sequence whoever played it. ``opponents`` is one
  bot spec for every other seat, or a list: one spec per other seat in seat order, or one per
  seat with the learner's entry ignored. A spec is a bot name (``"random"``,
  ``"heuristic"``, ``"ismcts"``), a bot with its budget (``"ismcts:0.5s"``,
  ``"ismcts:200"``), or a level (``"easy"`` .. ``"expert"``, see
  :mod:`karnak.bots.levels`). A searching bot given without a budget thinks ``think_time``:
  a budget as bot specs write it (``"200"`` iterations, ``"0.5s"``) or a number of seconds
  (default :data:`DEFAULT_THINK_TIME` iterations: quick, and deterministic for a seed).
- **Seeding**: ``reset(seed=s)`` deals the game of engine seed ``s`` and gives the bots the
  generators ``karnak simulate`` gives them for that seed; ``reset()`` draws the next seed
  from the env's ``np_random``, so everything after one seeded reset is reproducible
  (with iteration budgets; a time budget depends on the machine's speed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from karnak.bots.base import Bot, SeatView, make_bot, split_style, takes_budget
from karnak.bots.levels import is_level, level_spec
from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.core.rng import Rng
from karnak.envs.idgame import IdGame, IdState
from karnak.envs.illegal import INFO_KEY, check_policy, checked_id, offence, results
from karnak.envs.pettingzoo import Observation, agent_name, game_seed, observation_space
from karnak.envs.versions import env_version

__all__ = ["DEFAULT_THINK_TIME", "KarnakGymEnv"]

#: A searching opponent's budget when none is given: 25 ISMCTS iterations a decision.
DEFAULT_THINK_TIME = "25"


def _bot_rngs(seed: int, seats: int) -> list[Rng]:
    from karnak.bots.arena import bot_rngs

    return bot_rngs(seed, seats)


class KarnakGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a Karnak game against bots (see the module's text)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str | Game,
        seat: int = 0,
        opponents: str | Sequence[str | None] = "random",
        players: int | None = None,
        rewards: str | None = None,
        observation: str = "information_state",
        think_time: str | float | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        **game_options: Any,
    ):
        self.idgame = IdGame(
            game, players, rewards=rewards, observation=observation, options=game_options
        )
        #: What an illegal id does: ``"raise"`` or ``"penalty"`` (:mod:`karnak.envs.illegal`).
        self.illegal = check_policy(illegal)
        #: ``{"seat_0": {"action": 31, "reason": "..."}}`` once the learner's illegal id has
        #: ended the episode (under the penalty); empty otherwise.
        self.illegal_actions: dict[str, dict[str, Any]] = {}
        players = self.idgame.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidOptionError(
                f"seat must be a seat of the table, 0 to {players - 1}, not {seat!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(
                f"render_mode must be human, ansi or None, not {render_mode!r}"
            )
        self.seat = seat
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": env_version(self.idgame.game).name}
        self.opponent_specs = self._resolve_opponents(opponents, self._budget(think_time))
        # Build each bot once now, so a bad spec fails here rather than at the first step.
        for spec in self.opponent_specs.values():
            make_bot(spec, self.idgame.game)
        self.observation_space = observation_space(self.idgame)
        self.action_space = gymnasium.spaces.Discrete(self.idgame.num_actions)
        self._id_state: IdState | None = None
        self._bots: dict[int, Bot] = {}
        self._rngs: list[Rng] = []
        self._standing = 0.0
        #: The engine seed of the game being played.
        self.current_seed: int | None = None

    # --- set-up ------------------------------------------------------------------------
    @staticmethod
    def _budget(think_time: str | float | None) -> str:
        if think_time is None:
            return DEFAULT_THINK_TIME
        if isinstance(think_time, bool):
            raise InvalidOptionError(f"think_time must be seconds or a budget, not {think_time!r}")
        if isinstance(think_time, int | float):
            if think_time <= 0:
                raise InvalidOptionError("think_time must be positive")
            return f"{think_time:g}s"
        return think_time

    def _resolve_opponents(
        self, opponents: str | Sequence[str | None], budget: str
    ) -> dict[int, str]:
        players = self.idgame.players
        others = [s for s in range(players) if s != self.seat]
        if isinstance(opponents, str):
            listed: list[str | None] = [opponents] * len(others)
        else:
            listed = list(opponents)
            if len(listed) == players:
                listed = [listed[s] for s in others]
            elif len(listed) != len(others):
                raise InvalidOptionError(
                    f"opponents is one bot spec, or a list of {len(others)} (one per other "
                    f"seat) or {players} (one per seat, the learner's ignored); got {len(listed)}"
                )
        specs: dict[int, str] = {}
        game = self.idgame.game
        for other, spec in zip(others, listed, strict=True):
            if not isinstance(spec, str):
                raise InvalidOptionError(
                    f"the opponent at seat {other} must be a bot spec, not {spec!r}"
                )
            spec = spec.strip().lower()
            if is_level(spec):
                spec = level_spec(spec, game, len(others))
            base, style = split_style(spec)  # "ismcts@style=3": the budget goes before it
            name, _, own_budget = base.partition(":")
            if not own_budget and takes_budget(name):
                spec = f"{name}:{budget}" + ("" if style is None else f"@style={style}")
            specs[other] = spec
        return specs

    @property
    def id_state(self) -> IdState:
        """The game being played (the whole truth: for tests and analysis)."""
        if self._id_state is None:
            raise RuntimeError("call reset() before playing")
        return self._id_state

    # --- the loop ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.current_seed = int(seed) if seed is not None else game_seed(self.np_random)
        self._id_state = self.idgame.new_state(self.current_seed)
        self.illegal_actions = {}
        self._bots = {
            s: make_bot(spec, self.idgame.game) for s, spec in self.opponent_specs.items()
        }
        self._rngs = _bot_rngs(self.current_seed, self.idgame.players)
        # From 0, not from the standing at the start, so the rewards add up to the final
        # utility even where a seat starts with points (Egyptia's solo score).
        self._standing = 0.0
        self._play_bots()
        return self._observe()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.id_state
        if state.is_terminal() or self.illegal_actions:
            raise ActionIdError("the episode is over: call reset() to play another")
        action_id = checked_id(self.idgame.space, agent_name(self.seat), action)
        try:
            state.apply_id(action_id)  # ActionIdError, state unchanged, if illegal
        except ActionIdError:
            if self.illegal == "raise":
                raise
            return self._end_on_illegal(action_id)
        self._play_bots()
        after = state.standing()[self.seat]
        reward = after - self._standing
        self._standing = after
        observation, info = self._observe()
        if self.render_mode == "human":
            self.render()
        terminated = state.state.is_over()
        truncated = state.truncated and not terminated
        return observation, reward, terminated, truncated, info

    def _end_on_illegal(
        self, action_id: int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """The penalty (:mod:`karnak.envs.illegal`): nothing played, the episode over, the
        return brought to the learner's result."""
        agent = agent_name(self.seat)
        self.illegal_actions = {agent: offence(self.idgame.space, agent, action_id)}
        final = results(self.idgame.description, [self.seat])[self.seat]
        reward = final - self._standing
        self._standing = final
        observation, info = self._observe()
        info[INFO_KEY] = dict(self.illegal_actions)
        if self.render_mode == "human":
            self.render()
        return observation, reward, True, False, info

    def _play_bots(self) -> None:
        """Let the bots move until the learner must choose or the game ends."""
        state = self.id_state
        while not state.is_terminal():
            seat = state.current_player()
            if seat == self.seat:
                return
            view = SeatView.of(state.state, seat)
            move = self._bots[seat].choose(view, self._rngs[seat])
            state.apply_move(move, view.legal_actions)  # its ids, as if chosen one by one

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        state = self.id_state
        mask = self.action_masks().view(np.int8)  # a fresh array: its view is ours
        observation: Observation = {
            "observation": state.observation(self.seat),
            "action_mask": mask,
        }
        return observation, {"action_mask": mask.copy(), "seed": self.current_seed}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal ids as booleans (the method sb3-contrib's MaskablePPO calls); none
        once an illegal id has ended the episode."""
        if self.illegal_actions:
            return np.zeros(self.idgame.num_actions, dtype=np.bool_)
        return self.id_state.mask(self.seat)

    # --- people ------------------------------------------------------------------------
    def render(self) -> str | None:
        """The learner's view (nothing hidden from it) and the scores."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to show")
            return None
        state = self.id_state
        scores = ", ".join(f"seat_{s} {p}" for s, p in enumerate(state.state.scores()))
        ended = ", ended on its illegal id" if self.illegal_actions else ""
        text = (
            f"{self.idgame.description.title}, seed {self.current_seed}, seat_{self.seat}{ended}\n"
            f"{state.observation_string(self.seat)}\nscores: {scores}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text
