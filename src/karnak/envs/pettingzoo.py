"""PettingZoo environments of Karnak's games: an AEC env (one seat at a time) and a Parallel
env (every seat that must commit at once).

Both follow the conventions of PettingZoo's classic board games, so code written for chess or
Texas hold'em runs unchanged:

- Agents are ``"seat_0"``, ``"seat_1"``, ... (the engine's seats, in order).
- Each agent observes ``{"observation": float32 vector, "action_mask": int8 vector}``: the
  vector of :meth:`IdState.observation <karnak.envs.idgame.IdState.observation>` (the seat's
  tensor, then the ids it has spelled so far of its current move) and 1 for each id it may
  choose now (all 0 when it is not to choose). The observation Box carries each entry's
  bounds, declared part by part with the tensor layouts (sound bounds from the rules).
- The action is one integer id of the game's :class:`~karnak.core.action_ids.ActionSpace`.
  A move of several ids (an Amun-Re offering with cards, an Egyptia payment) takes several
  steps of the same agent.
- Rewards are the change of every seat's standing at every step (see
  :mod:`karnak.core.description`), counted from 0 at the start, so each agent's rewards add
  up to its final utility (the first step's reward includes any points a seat starts with,
  as in Egyptia's solo score).
- The game ends with every agent terminated, or, if it reaches the space's
  ``max_game_length`` ids, with every agent truncated.

**Illegal actions** follow the ``illegal`` option (:mod:`karnak.envs.illegal`). With
``"raise"``, the default of the classes built directly, an illegal id raises
:class:`~karnak.core.action_ids.ActionIdError` and changes nothing: the mask tells a learner
every legal id, so an illegal one is a bug in the caller. With ``"penalty"``, what the
versioned envs use (``karnak.envs.aton_v1.env()``, :mod:`karnak.envs.versions`) so that
PettingZoo's checkers, which sample blind to the mask, pass as shipped, the game ends at
once as in PettingZoo's classic envs: nothing is played, every agent is terminated, the
offender's rewards add up to the bottom of the declared range (-1 under ``"win"``), every
other agent's to 0, and each agent's info says why (``info["illegal_actions"]``).

**Seeding.** ``reset(seed=s)`` plays the game dealt from seed ``s`` (the engine's own seed:
``karnak replay`` and the other adapters give the same game). ``reset()`` without a seed
draws the next game's seed from a generator seeded by the last seed given (from the
operating system if none was), so a run of resets after one seeded reset is reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from karnak.core.action_ids import ActionIdError, Spelling
from karnak.core.description import standing
from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.core.state import State
from karnak.envs.idgame import IdGame, IdState
from karnak.envs.illegal import INFO_KEY, check_policy, checked_id, offence, results
from karnak.envs.versions import env_version

__all__ = ["KarnakAECEnv", "KarnakParallelEnv", "agent_name", "seat_of"]

Observation = dict[str, npt.NDArray[Any]]
RENDER_MODES = ("human", "ansi")


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    """The seat of the agent named ``agent`` ("seat_2" -> 2)."""
    prefix, _, number = agent.partition("_")
    if prefix != "seat" or not number.isdigit():
        raise KeyError(f"no agent {agent!r}: agents are named seat_0, seat_1, ...")
    return int(number)


def observation_space(idgame: IdGame) -> gymnasium.spaces.Dict:
    """The classic Dict space of one agent: the float vector within its declared bounds
    (:meth:`IdGame.observation_bounds <karnak.envs.idgame.IdGame.observation_bounds>`) and
    the int8 mask."""
    low, high = idgame.observation_bounds()
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(low, high, (idgame.observation_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (idgame.num_actions,), np.int8),
        }
    )


def game_seed(np_random: np.random.Generator) -> int:
    """A game seed drawn from ``np_random`` (for a reset without a seed)."""
    return int(np_random.integers(0, 2**63 - 1))


class _Base:
    """What both environments share: the game, the agents, their spaces, seeding, render."""

    metadata: dict[str, Any]
    base_metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game,
        players: int | None,
        rewards: str | None,
        observation: str,
        render_mode: str | None,
        game_options: Mapping[str, Any],
        illegal: str = "raise",
    ):
        self.idgame = IdGame(
            game, players, rewards=rewards, observation=observation, options=game_options
        )
        #: What an illegal id does: ``"raise"`` or ``"penalty"`` (:mod:`karnak.envs.illegal`).
        self.illegal = check_policy(illegal)
        #: The agents whose illegal ids ended the game (under the penalty), with the id and
        #: why: ``{"seat_1": {"action": 31, "reason": "..."}}``; empty otherwise.
        self.illegal_actions: dict[str, dict[str, Any]] = {}
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidOptionError(
                f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents: list[str] = [agent_name(s) for s in range(self.idgame.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {a: observation_space(self.idgame) for a in self.possible_agents}
        self._action_spaces = {
            a: gymnasium.spaces.Discrete(self.idgame.num_actions) for a in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        #: The engine seed of the game being played.
        self.current_seed: int | None = None
        # each environment class's metadata, named for this game
        self.metadata = {**self.metadata, "name": env_version(self.idgame.game).name}
        self.agents: list[str] = []

    # --- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_spaces[agent]

    def _seat_of(self, agent: str) -> int:
        seat = self._seats.get(agent)
        if seat is None:
            raise KeyError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return seat

    def _next_seed(self, seed: int | None) -> int:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            return int(seed)
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return game_seed(self._np_random)

    def _render_text(self, state: State, seat: int, spelled: str) -> str:
        d = self.idgame.description
        head = f"{d.title}, seed {self.current_seed}, "
        head += "game over" if state.is_over() else f"the view of {agent_name(seat)}"
        if self.illegal_actions:
            head += f", ended on an illegal id of {', '.join(self.illegal_actions)}"
        scores = ", ".join(f"{agent_name(s)} {p}" for s, p in enumerate(state.scores()))
        return f"{head}\n{state.observation_string(seat)}\n{spelled}\nscores: {scores}"


class KarnakAECEnv(_Base, AECEnv[str, Observation, int]):  # type: ignore[misc]
    """A Karnak game as a PettingZoo AEC environment (see the module's text).

    ``env.id_state`` is the :class:`~karnak.envs.idgame.IdState` being played (the whole
    truth, hidden cards included: for tests and analysis, not for an agent).
    """

    metadata: dict[str, Any] = {
        **_Base.base_metadata,
        "name": "karnak_v0",
        # PettingZoo's aec_to_parallel needs every agent to act once per cycle, in order;
        # Karnak's turn order varies, so use KarnakParallelEnv instead.
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        rewards: str | None = None,
        observation: str = "information_state",
        render_mode: str | None = None,
        illegal: str = "raise",
        **game_options: Any,
    ):
        _Base.__init__(
            self, game, players, rewards, observation, render_mode, game_options, illegal
        )
        self._id_state: IdState | None = None
        self._standing: list[float] = []

    @property
    def id_state(self) -> IdState:
        if self._id_state is None:
            raise RuntimeError("call reset() before playing")
        return self._id_state

    # --- the loop ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.current_seed = self._next_seed(seed)
        self.start_from(self.idgame.new_state(self.current_seed))

    def start_from(self, id_state: IdState) -> None:
        """Play on from ``id_state`` (a prepared position, a world from
        :meth:`IdState.resample <karnak.envs.idgame.IdState.resample>`): every agent live,
        rewards counted from 0 again. ``reset`` is this with a fresh game."""
        theirs = id_state.idgame
        if theirs is not self.idgame and (
            theirs.description != self.idgame.description
            or theirs.observation_kind != self.idgame.observation_kind
        ):
            raise InvalidOptionError("start_from needs a state of this env's game and options")
        self._id_state = id_state
        self.illegal_actions = {}
        self.agents = list(self.possible_agents)
        # From 0, so each agent's rewards add up to its final utility (see the module).
        self._standing = [0.0] * self.idgame.players
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._end_if_over()
        if not id_state.is_terminal():
            self.agent_selection = agent_name(id_state.current_player())
        else:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Observation:
        seat = self._seat_of(agent)
        state = self.id_state
        if self.illegal_actions:  # the game ended on an illegal id: nobody may choose
            mask = np.zeros(self.idgame.num_actions, dtype=np.int8)
        else:  # a fresh bool array each call, so its int8 view is the caller's own
            mask = state.mask(seat).view(np.int8)
        return {"observation": state.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action_id = checked_id(self.idgame.space, agent, action)
        state = self.id_state
        try:
            state.apply_id(action_id)  # ActionIdError, the state unchanged, if illegal
        except ActionIdError:
            if self.illegal == "raise":
                raise
            self._end_on_illegal({agent: offence(self.idgame.space, agent, action_id)})
            return
        self._cumulative_rewards[agent] = 0.0
        if state.prefix and not state.truncated:  # half way through a spelling: nothing
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)  # was played, nor changed
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()
            return
        after = state.standing()
        self.rewards = {a: after[s] - self._standing[s] for s, a in enumerate(self.possible_agents)}
        self._standing = after
        self._end_if_over()
        if not state.is_terminal():
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_on_illegal(self, offenders: dict[str, dict[str, Any]]) -> None:
        """The penalty (:mod:`karnak.envs.illegal`): nothing played, every agent
        terminated, each paid what brings its sum to its result."""
        self.illegal_actions = offenders
        final = results(self.idgame.description, [self._seats[a] for a in offenders])
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.rewards = {a: final[s] - self._standing[s] for s, a in enumerate(self.possible_agents)}
        self._standing = final
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: {INFO_KEY: dict(offenders)} for a in self.agents}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_if_over(self) -> None:
        state = self.id_state
        if state.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        elif state.state.is_over():
            self.terminations = dict.fromkeys(self.agents, True)

    # --- people ------------------------------------------------------------------------
    def render(self) -> str | None:
        """The view of the agent to move (its observation string: nothing hidden from it),
        and the scores; ``"ansi"`` returns it, ``"human"`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to show")
            return None
        state = self.id_state
        seat = seat_of(self.agent_selection) if self.agents else 0
        text = self._render_text(state.state, seat, state.spelled_string(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


class KarnakParallelEnv(_Base, ParallelEnv[str, Observation, int]):  # type: ignore[misc]
    """A Karnak game as a PettingZoo Parallel environment.

    **The contract.** At every step the *acting* agents are the seats the engine waits for
    (:meth:`State.to_move <karnak.core.state.State.to_move>`): at a sealed step (Aton's
    lay-out, Amun-Re's offering, an Egyptia round) every seat that must still commit, and in
    a phase played in turn the one seat whose turn it is. Only acting agents have a non-zero
    ``action_mask``.

    - ``step(actions)`` needs an id for every acting agent (a KeyError names the missing
      ones). An action given for an agent that is not acting is ignored, whatever it is, so
      generic code may send one for every live agent.
    - Each acting agent's id is one step of its own spelling. An agent whose move takes
      several ids (an offering with cards) stays acting over several steps, while the seats
      that have committed wait with an all-zero mask; nobody sees another's partial
      spelling or sealed commitment before the reveal.
    - Every id is checked before any is applied: an illegal one raises ActionIdError and
      the step changes nothing (``illegal="raise"``), or, under ``illegal="penalty"``,
      ends the game with nothing of the step played, every agent that chose an illegal id
      an offender (:mod:`karnak.envs.illegal`). Completed moves are then played lowest
      seat first (the order of :class:`~karnak.envs.idgame.IdState`; at a sealed step the
      order cannot matter, since no seat sees another's commitment). A move the rules play
      in the open during a sealed step (selling a card in Amun-Re's offering phase) is
      seen by the others from the next step on, as in the engine.
    - Rewards, terminations and truncations are as in :class:`KarnakAECEnv`; when the game
      ends every agent is terminated (or truncated) and ``agents`` empties.
    """

    metadata: dict[str, Any] = {**_Base.base_metadata, "name": "karnak_v0"}

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        rewards: str | None = None,
        observation: str = "information_state",
        render_mode: str | None = None,
        illegal: str = "raise",
        **game_options: Any,
    ):
        _Base.__init__(
            self, game, players, rewards, observation, render_mode, game_options, illegal
        )
        self._state: State | None = None
        #: Per seat, what it has spelled so far of its current move.
        self.prefixes: list[Spelling] = [() for _ in self.possible_agents]
        #: Ids chosen since the start, all seats together (the length cap counts these).
        self.id_count = 0
        self.truncated = False
        self._standing: list[float] = []

    @property
    def game_state(self) -> State:
        """The Karnak state being played (the whole truth: for tests and analysis)."""
        if self._state is None:
            raise RuntimeError("call reset() before playing")
        return self._state

    # --- who acts, what it sees ----------------------------------------------------------
    def is_over(self) -> bool:
        """Whether the game has ended: played out, cut off, or ended on an illegal id."""
        return self.truncated or bool(self.illegal_actions) or self.game_state.is_over()

    def acting(self) -> tuple[int, ...]:
        """The seats that must choose an id at this step (none once the game is over)."""
        return () if self.is_over() else tuple(self.game_state.to_move())

    def legal_ids(self, seat: int) -> list[int]:
        if seat not in self.acting():
            return []
        return self.idgame.speller.legal_ids(self.game_state, seat, self.prefixes[seat])

    def observe(self, agent: str) -> Observation:
        return self._observe(self._seat_of(agent), self.acting())

    def _observe(self, seat: int, acting: tuple[int, ...]) -> Observation:
        idgame = self.idgame
        state = self.game_state
        vector = idgame.vector(state, seat, self.prefixes[seat])
        if seat in acting:
            mask = idgame.speller.mask(state, seat, self.prefixes[seat]).view(np.int8)
        else:
            mask = np.zeros(idgame.num_actions, dtype=np.int8)
        return {"observation": vector, "action_mask": mask}

    def _observations(self) -> dict[str, Observation]:
        acting = self.acting()
        return {a: self._observe(self._seats[a], acting) for a in self.agents}

    # --- the loop ----------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.current_seed = self._next_seed(seed)
        return self.start_from(self.idgame.new_state(self.current_seed).state)

    def start_from(
        self, state: State, prefixes: Sequence[Spelling] | None = None, id_count: int = 0
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Play on from ``state`` (a prepared position, a resampled world), with each seat's
        spelling so far (none by default) and ``id_count`` ids already chosen; every agent
        live, rewards counted from 0 again. ``reset`` is this with a fresh game."""
        if state.game.name != self.idgame.game.name or len(state.players) != self.idgame.players:
            raise InvalidOptionError("start_from needs a state of this env's game and table")
        self._state = state
        self.prefixes = (
            [() for _ in self.possible_agents]
            if prefixes is None
            else [tuple(int(i) for i in p) for p in prefixes]
        )
        if len(self.prefixes) != self.idgame.players:
            raise InvalidOptionError("start_from needs one spelling per seat")
        self.id_count = id_count
        self.truncated = False
        self.illegal_actions = {}
        self.agents = list(self.possible_agents)
        self._standing = [0.0] * self.idgame.players
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise ActionIdError("the game is over: call reset() to play another")
        state = self.game_state
        acting = self.acting()
        missing = [agent_name(s) for s in acting if agent_name(s) not in actions]
        if missing:
            raise KeyError(f"no action for {', '.join(missing)}, who must act at this step")
        speller = self.idgame.speller
        chosen: list[tuple[int, Spelling, Any]] = []
        offenders: dict[str, dict[str, Any]] = {}
        for seat in acting:  # check every id before playing any
            agent = agent_name(seat)
            action_id = checked_id(self.idgame.space, agent, actions[agent])
            try:
                prefix, move = speller.choose(state, seat, self.prefixes[seat], action_id)
            except ActionIdError as error:
                if self.illegal == "raise":
                    raise ActionIdError(f"{agent}: {error}") from None
                offenders[agent] = offence(self.idgame.space, agent, action_id)
                continue
            chosen.append((seat, prefix, move))
        if offenders:
            return self._end_on_illegal(offenders)
        played = 0
        for seat, prefix, move in sorted(chosen, key=lambda c: c[0]):
            self.prefixes[seat] = prefix
            if move is None:
                continue
            if played:
                # Checked against the state after the moves before it: at a sealed step no
                # seat's move may change what another may do (that would reveal it), and
                # this says so loudly if a game ever broke that.
                state.apply(seat, move)
            else:
                state.apply_unchecked(seat, move)
            played += 1
        self.id_count += len(chosen)
        if self.id_count >= self.idgame.max_game_length and not state.is_over():
            self.truncated = True
        after = standing(state, self.idgame.description.rewards)
        rewards = {a: after[s] - self._standing[s] for s, a in enumerate(self.possible_agents)}
        self._standing = after
        observations = self._observations()
        over = state.is_over()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, self.truncated and not over)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        rewards = {a: rewards[a] for a in self.agents}
        if self.render_mode == "human":
            self.render()
        if self.is_over():
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _end_on_illegal(
        self, offenders: dict[str, dict[str, Any]]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """The penalty (:mod:`karnak.envs.illegal`): no id of this step is played, every
        agent is terminated and paid what brings its sum to its result."""
        self.illegal_actions = offenders
        final = results(self.idgame.description, [self._seats[a] for a in offenders])
        rewards = {a: final[self._seats[a]] - self._standing[self._seats[a]] for a in self.agents}
        self._standing = final
        observations = self._observations()  # every mask all 0: nobody acts any more
        terminations = dict.fromkeys(self.agents, True)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {INFO_KEY: dict(offenders)} for a in self.agents}
        if self.render_mode == "human":
            self.render()
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    # --- people ------------------------------------------------------------------------
    def render(self) -> str | None:
        """The view of the lowest acting seat (seat 0 once over) and the scores; ``"ansi"``
        returns it, ``"human"`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to show")
            return None
        acting = self.acting()
        seat = acting[0] if acting else 0
        prefix = self.prefixes[seat]
        spelled = ", ".join(self.idgame.id_name(i) for i in prefix) or "nothing"
        text = self._render_text(self.game_state, seat, f"spelled so far: {spelled}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""
