"""Self-play with sb3-contrib's MaskablePPO over Karnak's PettingZoo AEC env.

The recipe of PettingZoo's own Stable-Baselines3 tutorial (action-masked PPO on a classic
board game), made self-play: the AEC env is seen from one learning seat as a Gymnasium env
(:class:`SelfPlayEnv`, the learner's seat drawn each game), and every other seat is played by
a frozen copy of the learner, refreshed after each rollout. Needs the ``train`` extra
(``pip install 'karnak[train]'``: torch and sb3-contrib); not run in CI, where torch is not
installed (a test runs it with a tiny budget where the extra is).

    python examples/selfplay_sb3.py --game aton --timesteps 50000 --out runs/selfplay_sb3

At the end the learner plays ``--eval-games`` games against the random bot (seats rotated,
greedy) through the arena, after exporting itself for NumPy play
(:func:`karnak.envs.training.export_policy`), so the policy can be seated anywhere a bot
can: ``python bench/baselines.py aton --policy runs/selfplay_sb3/policy.npz ...``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

import karnak.envs  # noqa: E402


class SelfPlayEnv(gymnasium.Env[Any, Any]):
    """One learning seat of the PettingZoo AEC env; ``opponent(obs, mask)`` plays the rest."""

    def __init__(self, game: str, players: int | None = None):
        options: dict[str, Any] = {"rewards": "win"}
        if players is not None:
            options["players"] = players
        self.aec = karnak.envs.pettingzoo_env(game, **options)
        self.aec.reset(seed=0)
        first = self.aec.agents[0]
        self.observation_space = self.aec.observation_space(first)["observation"]
        self.action_space = self.aec.action_space(first)
        self.opponent: Any = None  # set by the trainer: a frozen copy of the learner
        self.learner = first
        self._mask = np.ones(int(self.action_space.n), dtype=bool)

    def action_masks(self) -> Any:
        return self._mask

    def _opponent_move(self, obs: dict[str, Any]) -> int:
        mask = obs["action_mask"].astype(bool)
        if self.opponent is None:
            return int(self.np_random.choice(np.flatnonzero(mask)))
        action, _ = self.opponent.predict(obs["observation"], action_masks=mask)
        return int(action)

    def _advance(self) -> tuple[Any, float, bool]:
        """Play the other seats until the learner must choose or the game is over."""
        reward = 0.0
        for agent in self.aec.agent_iter():
            obs, step_reward, terminated, truncated, _ = self.aec.last()
            if agent == self.learner:
                reward += float(step_reward)
                if terminated or truncated:
                    return obs["observation"], reward, True
                self._mask = obs["action_mask"].astype(bool)
                return obs["observation"], reward, False
            self.aec.step(None if terminated or truncated else self._opponent_move(obs))
        return np.zeros(self.observation_space.shape, np.float32), reward, True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        self.learner = self.aec.agents[int(self.np_random.integers(len(self.aec.agents)))]
        obs, _, _ = self._advance()
        return obs, {}

    def step(self, action: Any) -> Any:
        self.aec.step(int(action))
        obs, reward, done = self._advance()
        return obs, reward, done, False, {}


def main(argv: Sequence[str] | None = None) -> int:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from karnak.bots.arena import run_arena
    from karnak.bots.learned import register_policy_bot
    from karnak.core import get_game
    from karnak.envs.training import export_policy

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="aton")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--timesteps", type=int, default=50_000)
    parser.add_argument("--n-steps", type=int, default=2048)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/selfplay_sb3"))
    args = parser.parse_args(argv)
    env = SelfPlayEnv(args.game, args.players)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=64, seed=args.seed, device="cpu"
    )
    opponent = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=64, seed=args.seed, device="cpu"
    )

    class RefreshOpponent(BaseCallback):  # type: ignore[misc]
        """After each rollout the other seats play the learner as it now is."""

        def _on_rollout_end(self) -> None:
            opponent.policy.load_state_dict(model.policy.state_dict())
            env.opponent = opponent

        def _on_step(self) -> bool:
            return True

    model.learn(total_timesteps=args.timesteps, callback=RefreshOpponent())
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(args.out / "model.zip")
    idgame = env.aec.idgame  # the id layer under the adapter: sizes and observation kind
    meta = {
        "game": get_game(args.game).name,
        "players": len(env.aec.possible_agents),
        "observation": idgame.observation_kind,
        "input_size": idgame.observation_size,
        "actions": idgame.num_actions,
        "learner": "sb3-contrib MaskablePPO, self-play (examples/selfplay_sb3.py)",
        "timesteps": int(model.num_timesteps),
        "seed": args.seed,
    }
    export_policy(model, args.out / "policy.npz", meta)
    register_policy_bot("selfplay", args.out / "policy.npz")
    specs = ["selfplay"] + ["random"] * (meta["players"] - 1)
    result = run_arena(get_game(args.game), specs, args.eval_games, 10**6, {})
    row = result.row("selfplay")
    low, high = row.win_interval
    print(
        f"{model.num_timesteps} self-play steps; against random: {row.win_rate:.2f} "
        f"[{low:.2f}, {high:.2f}] over {row.games} games; wrote {args.out}/policy.npz"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
