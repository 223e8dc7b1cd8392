"""Self-play through the PettingZoo AEC env: one shared policy plays every seat, with NumPy.

The shortest complete self-play loop over Karnak's PettingZoo adapter
(:func:`karnak.envs.pettingzoo_env`), written the way PettingZoo's own tutorials loop:

- **Play.** ``for agent in env.agent_iter()``: the agent to act reads its own
  ``observation`` and ``action_mask`` from ``env.last()`` (what its seat sees, nothing
  else), and one shared policy chooses for every seat. Karnak's tensors are relative to the
  viewer (index 0 is always "me"), so one set of weights can play every seat.
- **Policy.** A masked softmax linear in the vector (``logits = W x + b``), zero at first:
  the untrained policy is uniform over the legal ids, i.e. the random bot.
- **Learning.** REINFORCE with a mean baseline: after each game, each seat's decisions are
  pushed by that seat's return (``rewards="win"``: +1 a win, -1 a loss; the rewards PettingZoo
  hands out along the game add up to it), with Adam.
- **Evaluation.** Every ``--eval-every`` games, the greedy policy plays ``--eval-games``
  games against uniform random play at the other seats (seats rotated, same seeds each
  time); each point (win rate and its Wilson 95% interval) is appended to ``--out`` as it
  comes.

Runs for any game and table: ``--game amunre --players 3`` works the same (a move of several
ids is several steps of the same agent). With the defaults, Aton, about 2 minutes on one
core::

    python examples/selfplay_pettingzoo.py --games 400 --eval-every 100 --eval-games 100 \\
        --out runs/selfplay.csv
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

import karnak.envs  # noqa: E402

EVAL_SEED = 1_000_000
FIELDS = ("games", "eval_games", "wins", "win_rate", "ci_low", "ci_high", "seconds")


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    p = successes / trials
    d = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / d
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


class SharedPolicy:
    """One masked linear softmax for every seat, trained with Adam."""

    def __init__(self, size: int, actions: int, lr: float):
        self.W = np.zeros((actions, size))
        self.b = np.zeros(actions)
        self.lr = lr
        self.moments = [np.zeros_like(self.W), np.zeros_like(self.W)]
        self.bias_moments = [np.zeros_like(self.b), np.zeros_like(self.b)]
        self.t = 0

    def probabilities(self, x: NDArray[np.float64], legal: NDArray[np.intp]) -> Any:
        logits = self.W[legal] @ x + self.b[legal]
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, obs: dict[str, Any], rng: np.random.Generator | None) -> tuple[int, Any]:
        """An id the mask allows (drawn, or the most likely when ``rng`` is None)."""
        legal = np.flatnonzero(obs["action_mask"])
        x = np.asarray(obs["observation"], dtype=np.float64)
        p = self.probabilities(x, legal)
        pick = int(np.argmax(p)) if rng is None else int(rng.choice(legal.size, p=p))
        return int(legal[pick]), (x, legal, p, pick)

    def update(self, decisions: list[tuple[Any, float]]) -> None:
        """REINFORCE: each decision's log-probability pushed by its seat's return."""
        gW = np.zeros_like(self.W)
        gb = np.zeros_like(self.b)
        baseline = float(np.mean([g for _, g in decisions])) if decisions else 0.0
        for (x, legal, p, pick), result in decisions:
            if legal.size == 1:
                continue
            g = -(result - baseline) * p
            g[pick] += result - baseline
            gW[legal] += np.outer(g, x)
            gb[legal] += g
        self.t += 1
        for param, grad, (m, v) in ((self.W, gW, self.moments), (self.b, gb, self.bias_moments)):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            step = self.lr * math.sqrt(1 - 0.999**self.t) / (1 - 0.9**self.t)
            param += step * m / (np.sqrt(v) + 1e-8)


def make_env(game: str, players: int | None) -> Any:
    options: dict[str, Any] = {"rewards": "win"}
    if players is not None:
        options["players"] = players
    return karnak.envs.pettingzoo_env(game, **options)


def self_play_game(env: Any, policy: SharedPolicy, seed: int, rng: np.random.Generator) -> Any:
    """One game, the shared policy at every seat; each decision with its seat's return."""
    env.reset(seed=seed)
    taken: dict[str, list[Any]] = {agent: [] for agent in env.agents}
    returns = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        action, decision = policy.act(obs, rng)
        assert obs["action_mask"][action], "the policy chose a masked id"
        taken[agent].append(decision)
        env.step(action)
    return [(d, returns[agent]) for agent, ds in taken.items() for d in ds]


def evaluate(env: Any, policy: SharedPolicy, games: int) -> float:
    """The greedy policy at one seat (rotated), uniform random play at the others: wins."""
    wins = 0.0
    for game in range(games):
        env.reset(seed=EVAL_SEED + game)
        learner = env.agents[game % len(env.agents)]
        rng = np.random.default_rng(EVAL_SEED + game)
        final = 0.0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if agent == learner:
                final += float(reward)
            if terminated or truncated:
                env.step(None)
            elif agent == learner:
                env.step(policy.act(obs, None)[0])
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        wins += 1.0 if final > 0 else 0.5 if final == 0 else 0.0
    return wins


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="aton")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=400, help="self-play games")
    parser.add_argument("--eval-every", type=int, default=100)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/selfplay.csv"))
    args = parser.parse_args(argv)
    env = make_env(args.game, args.players)
    env.reset(seed=args.seed)
    space = env.observation_space(env.agents[0])["observation"]
    policy = SharedPolicy(int(space.shape[0]), int(env.action_space(env.agents[0]).n), args.lr)
    rng = np.random.default_rng(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as handle:
        csv.DictWriter(handle, FIELDS, lineterminator="\n").writeheader()
    start = time.perf_counter()

    def point(games: int) -> None:
        wins = evaluate(env, policy, args.eval_games)
        low, high = wilson(wins, args.eval_games)
        row = {
            "games": games,
            "eval_games": args.eval_games,
            "wins": wins,
            "win_rate": f"{wins / args.eval_games:.4f}",
            "ci_low": f"{low:.4f}",
            "ci_high": f"{high:.4f}",
            "seconds": f"{time.perf_counter() - start:.1f}",
        }
        with args.out.open("a", newline="") as handle:
            csv.DictWriter(handle, FIELDS, lineterminator="\n").writerow(row)
        print(f"{games:6d} self-play games: {row['win_rate']} [{low:.3f}, {high:.3f}] vs random")

    point(0)
    for game in range(1, args.games + 1):
        policy.update(self_play_game(env, policy, int(rng.integers(EVAL_SEED)), rng))
        if game % args.eval_every == 0 or game == args.games:
            point(game)
    env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
