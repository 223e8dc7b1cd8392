"""Train a policy with sb3-contrib's MaskablePPO and export it for NumPy play.

What ``karnak train GAME`` runs (:mod:`karnak.cli.train_cmd`), and the recipe behind the
policy Aton ships (``karnak/games/aton/research/policy.npz``):

- **Environment.** The Gymnasium env of :mod:`karnak.envs.gymnasium` (the learner at one
  seat, Karnak's bots at the others, reward ``"win"``: +1 a win, -1 a loss, paid at the end),
  with the learner's seat drawn anew each episode (:class:`SeatRotatingEnv`: a policy that
  plays every colour, as the arena seats it), the observation the seat's vector alone and
  the mask handed to MaskablePPO through ``action_masks()``.
- **Learner.** ``MaskablePPO("MlpPolicy")``: two tanh layers (``--hidden``, 64 each by
  default) for the policy and two for the value, sb3-contrib's other defaults, on the CPU.
- **Export.** The policy half of the network (the layers and the action head) as an
  ``.npz`` of plain arrays (:mod:`karnak.bots.learned`), which plays without torch.
- **Evaluation.** Every ``eval_every`` steps and at the end, the exported policy plays
  ``eval_games`` arena games (:func:`karnak.bots.arena.run_arena`, seats rotated) against
  each evaluation opponent; win rates with Wilson 95% intervals go to ``curve.csv``.
- **Record.** ``training.json`` beside the model: the command line, the game and its
  rules and env versions, every seed, the steps, the wall-clock time, the machine and the
  packages' versions, and the evaluations.

torch and sb3-contrib are the ``train`` extra (``pip install 'karnak[train]'``), never needed
to *play* the exported policy; :func:`require_train_extra` says so when they are missing.
"""

from __future__ import annotations

import csv
import datetime
import importlib.metadata
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from karnak.core.errors import KarnakError
from karnak.core.registry import get_game
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.idgame import default_players
from karnak.envs.versions import env_version

__all__ = [
    "SeatRotatingEnv",
    "TrainConfig",
    "TrainExtraMissingError",
    "export_policy",
    "require_train_extra",
    "train",
]

#: The packages of the ``train`` extra, by import name.
TRAIN_PACKAGES = ("torch", "sb3_contrib")
INSTALL_HINT = "pip install 'karnak[train]'  (sb3-contrib and torch; a CPU build of torch will do)"
#: The name the policy being evaluated is seated under in the arena.
EVALUATED = "trained-policy"


class TrainExtraMissingError(KarnakError, ImportError):
    """torch or sb3-contrib is not installed."""


def require_train_extra() -> None:
    """TrainExtraMissingError naming the missing packages and the install command."""
    missing = []
    for name in TRAIN_PACKAGES:
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise TrainExtraMissingError(
            f"training needs {' and '.join(missing)}, which this Python lacks: {INSTALL_HINT}. "
            "Playing a trained policy needs neither (the `policy` bot runs on NumPy)."
        )


class SeatRotatingEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """The Gymnasium env with the learner's seat drawn each episode; observations are the
    seat's vector, and ``action_masks()`` gives MaskablePPO the mask."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, game: str, players: int, opponents: str, observation: str):
        self.envs = [
            KarnakGymEnv(
                game,
                seat=seat,
                opponents=opponents,
                players=players,
                rewards="win",
                observation=observation,
            )
            for seat in range(players)
        ]
        self.current = self.envs[0]
        idgame = self.current.idgame
        low, high = idgame.observation_bounds()
        self.observation_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(idgame.num_actions)
        self._mask = np.zeros(idgame.num_actions, dtype=np.bool_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.current = self.envs[int(self.np_random.integers(len(self.envs)))]
        game_seed = int(self.np_random.integers(2**31))
        obs, info = self.current.reset(seed=game_seed)
        self._mask = np.asarray(obs["action_mask"], dtype=np.bool_)
        return obs["observation"], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.current.step(int(action))
        self._mask = np.asarray(obs["action_mask"], dtype=np.bool_)
        return obs["observation"], float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self._mask.copy()


@dataclass
class TrainConfig:
    game: str
    timesteps: int = 200_000
    seed: int = 0
    opponents: str = "random"
    players: int | None = None
    observation: str = "information_state"
    hidden: tuple[int, ...] = (64, 64)
    learning_rate: float = 3e-4
    n_steps: int = 2048
    batch_size: int = 256
    ent_coef: float = 0.01
    gamma: float = 0.995
    eval_every: int = 25_000
    eval_games: int = 40
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    command: str = field(default_factory=lambda: " ".join(sys.argv))


def export_policy(model: Any, path: Path, meta: dict[str, Any]) -> Any:
    """Write the policy half of a MaskablePPO ``model`` (MlpPolicy, no shared layers) as a
    NumPy ``.npz`` (:func:`karnak.bots.learned.load_policy` reads it); the loaded policy."""
    import torch

    from karnak.bots.learned import MlpPolicy, load_policy

    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    activations = {
        type(m).__name__
        for m in policy.mlp_extractor.policy_net
        if not isinstance(m, torch.nn.Linear)
    }
    if activations - {"Tanh", "ReLU"} or len(activations) > 1:
        raise ValueError(f"cannot export activations {sorted(activations)}")
    layers.append(policy.action_net)
    weights = [layer.weight.detach().cpu().numpy().astype(np.float32) for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in layers]
    meta = {**meta, "activation": "relu" if activations == {"ReLU"} else "tanh"}
    MlpPolicy(weights, biases, meta).save(path)
    return load_policy(path)


def _versions() -> dict[str, str]:
    found = {}
    for name in ("karnak", "torch", "sb3-contrib", "stable-baselines3", "gymnasium", "numpy"):
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def _machine() -> dict[str, Any]:
    import karnak.native

    processor = platform.processor() or platform.machine()
    try:  # Linux names the model
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    processor = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "processor": processor,
        "cpus": os.cpu_count(),
        "engines": karnak.native.engines(),
    }


def evaluate(
    policy_path: Path, game_name: str, players: int, opponents: Sequence[str], games: int, seed: int
) -> list[dict[str, Any]]:
    """The exported policy against each opponent in the arena (seats rotated)."""
    from karnak.bots.arena import run_arena, wilson_interval
    from karnak.bots.learned import register_policy_bot

    register_policy_bot(EVALUATED, policy_path)
    game = get_game(game_name)
    rows = []
    for opponent in opponents:
        specs = [EVALUATED] + [opponent] * (players - 1)
        result = run_arena(game, specs, games, seed, {})
        row = result.row(EVALUATED)
        low, high = wilson_interval(row.wins, row.games)
        rows.append(
            {
                "opponent": opponent,
                "games": row.games,
                "wins": row.wins,
                "win_rate": row.win_rate,
                "ci_low": low,
                "ci_high": high,
            }
        )
    return rows


def train(config: TrainConfig, out: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train, export ``policy.npz``, evaluate and write ``training.json`` (and the sb3 model
    ``model.zip``, ``curve.csv``) under ``out``; the record written."""
    require_train_extra()
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    game = get_game(config.game)
    players = config.players or default_players(game)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    torch.set_num_threads(1)
    env = SeatRotatingEnv(game.name, players, config.opponents, config.observation)
    env.reset(seed=config.seed)
    idgame = env.current.idgame
    version = env_version(game)
    meta: dict[str, Any] = {
        "game": game.name,
        "players": players,
        "observation": idgame.observation_kind,
        "input_size": idgame.observation_size,
        "actions": idgame.num_actions,
        "rules_version": game.version,
        "env": version.name,
        "learner": "sb3-contrib MaskablePPO, MlpPolicy",
        "opponents": config.opponents,
        "seed": config.seed,
        "timesteps": config.timesteps,
        "command": config.command,
    }
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=config.learning_rate,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        ent_coef=config.ent_coef,
        gamma=config.gamma,
        policy_kwargs={"net_arch": {"pi": list(config.hidden), "vf": list(config.hidden)}},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    curve_path = out / "curve.csv"
    fields = ["timesteps", "seconds", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high"]
    with curve_path.open("w", newline="") as handle:
        csv.DictWriter(handle, fieldnames=fields, lineterminator="\n").writeheader()
    started = time.perf_counter()
    evaluations: list[dict[str, Any]] = []
    policy_path = out / "policy.npz"

    def checkpoint(steps: int) -> None:
        export_policy(model, policy_path, meta)
        rows = evaluate(
            policy_path, game.name, players, config.eval_opponents, config.eval_games, 10**6
        )
        seconds = time.perf_counter() - started
        with curve_path.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
            for row in rows:
                writer.writerow({"timesteps": steps, "seconds": round(seconds, 1), **row})
        evaluations.append({"timesteps": steps, "seconds": seconds, "results": rows})
        summary = ", ".join(
            f"{r['opponent']} {r['win_rate']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
            for r in rows
        )
        log(f"{steps:>9} steps  {seconds:7.0f} s  win rate vs {summary}")

    class Periodic(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.next = config.eval_every

        def _on_step(self) -> bool:
            # The last evaluation comes after learn(): PPO updates once more after the
            # last rollout, so the policy exported at the end is the final one.
            if self.next <= self.num_timesteps < config.timesteps:
                self.next += config.eval_every
                checkpoint(self.num_timesteps)
            return True

    checkpoint(0)
    model.learn(total_timesteps=config.timesteps, callback=Periodic())
    trained = time.perf_counter() - started
    model.save(out / "model.zip")
    checkpoint(int(model.num_timesteps))
    record = {
        "command": config.command,
        "game": game.name,
        "title": game.title,
        "players": players,
        "rules_version": game.version,
        "env": version.name,
        "config": {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in config.__dict__.items()
        },
        "seeds": {
            "torch_and_sb3": config.seed,
            "episodes": "drawn from the env's generator, seeded with the same seed",
            "evaluation": "arena seeds 1000000 onwards",
        },
        "timesteps": int(model.num_timesteps),
        "seconds": trained,
        "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": _machine(),
        "versions": _versions(),
        "policy": {"file": policy_path.name, "bytes": policy_path.stat().st_size, **meta},
        "evaluations": evaluations,
    }
    (out / "training.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record
