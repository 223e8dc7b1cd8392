"""Train a small policy to play Aton against the random bot, on CPU, with NumPy alone.

A worked example of the research API: the Gymnasium environment from
:func:`karnak.envs.gymnasium_env` (the learner plays seat 0, Karnak's random bot seat 1,
reward +1 for a win, -1 for a loss, 0 for a draw, paid at the end), a masked softmax policy
that is linear in the observation vector, and REINFORCE with a learned linear baseline.

Why so plain? The point is to show the interface (observation vector, action mask, terminal
reward) and to give a learning curve that anyone can reproduce in a few minutes on one core;
the random bot is a weak opponent, so a linear policy already beats it almost every game.

- **Policy.** ``logits = W x + b`` over Aton's 353 action ids; ids the mask forbids get
  probability 0 (never sampled, never chosen: the script asserts it at every step).
- **Learning.** After each episode, every decision with more than one legal id moves
  ``log pi(a|x)`` by ``(G - V(x))``, with ``G`` the game's result and ``V(x) = v.x + c`` a
  linear baseline fitted to the results by least squares; both with Adam.
- **Evaluation.** Before training and every ``--eval-every`` episodes, the policy plays
  ``--eval-games`` games against the random bot, always the same seeds, twice: greedy (the
  most probable legal id) and sampled (as it trains; untrained, that is the random bot
  itself, hence the 50% start). Each win rate is written with its Wilson 95% interval
  (draws count as not won).

Run from the repository's root (``pip install -e '.[rl]'`` gives Gymnasium and matplotlib);
the defaults are the documented run (about 3 minutes on one core)::

    python examples/train_aton.py --episodes 3000 --eval-every 150 --eval-games 400 \
        --seed 0 --out runs/aton

which writes ``runs/aton/learning_curve.csv`` (one row per evaluation and policy) and
``runs/aton/learning_curve.png``; ``docs/research/aton_learning_curve.*`` are that run's.

**As it goes.** Each evaluation appends its rows to the CSV and redraws the PNG, so a long run
can be watched (``tail -f``, an image viewer) and a stopped one keeps its curve so far.

**Resuming.** Every ``--checkpoint-every`` episodes (default: at each evaluation) and at the
end, ``checkpoint.npz`` in the output folder keeps the weights, Adam's moments, the run's
random generator, the episodes done and the curve. ``--resume`` takes the run up from there
(the same ``--seed``, ``--lr``, ``--entropy``, ``--observation`` and ``--eval-games``;
``--episodes`` may grow) and rewrites the CSV from the checkpoint's curve, so a run stopped
and resumed ends with the same curve, byte for byte, as one that never stopped::

    python examples/train_aton.py --episodes 6000 --out runs/aton --resume
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

import karnak.native

# The compiled hot paths where they are built (make native), asked for before any engine is
# imported: importing karnak alone does not install them.
karnak.native.install()

import karnak.envs  # noqa: E402

Vector = NDArray[np.float64]
Matrix = NDArray[np.float64]
#: Evaluation games use the seeds EVAL_SEED, EVAL_SEED + 1, ...: the same games at every
#: evaluation and for every training seed, so points of a curve differ by the policy only.
EVAL_SEED = 1_000_000
#: How an evaluation picks a move: the most probable legal id, or one drawn from the policy
#: (before training, "sampled" is exactly the random bot; "greedy" is a fixed-order player).
POLICIES = ("greedy", "sampled")
CSV_FIELDS = (
    "episodes",
    "policy",
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "ci_low",
    "ci_high",
)


def make_env(observation: str = "information_state") -> Any:
    """Aton, the learner at seat 0 against the random bot, rewarded by the result."""
    return karnak.envs.gymnasium_env(
        "aton", opponents="random", rewards="win", observation=observation
    )


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike p +- z*se)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class Adam:
    """Adam, taking ascent steps (the policy maximises its return)."""

    def __init__(self, params: Sequence[NDArray[np.float64]], lr: float):
        self.params = list(params)
        self.lr = lr
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, grads: Sequence[NDArray[np.float64]]) -> None:
        self.t += 1
        beta1, beta2 = 0.9, 0.999
        scale = self.lr * math.sqrt(1 - beta2**self.t) / (1 - beta1**self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p += scale * m / (np.sqrt(v) + 1e-8)


class LinearPolicy:
    """A masked softmax policy and a value baseline, both linear in the observation."""

    def __init__(self, size: int, actions: int):
        # Zero weights: the first policy is uniform over the legal ids, i.e. the random bot.
        self.W: Matrix = np.zeros((actions, size))
        self.b: Vector = np.zeros(actions)
        self.v: Vector = np.zeros(size)
        self.c: Vector = np.zeros(1)

    def params(self) -> list[NDArray[np.float64]]:
        return [self.W, self.b, self.v, self.c]

    def distribution(self, x: Vector, legal: NDArray[np.intp]) -> Vector:
        """The probabilities of the legal ids, in the order of ``legal``."""
        logits = self.W[legal] @ x + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()  # type: ignore[no-any-return]

    def value(self, x: Vector) -> float:
        return float(self.v @ x + self.c[0])


def legal_ids(obs: dict[str, Any], info: dict[str, Any]) -> NDArray[np.intp]:
    """The legal ids of the seat to play; the observation's mask and the info's agree."""
    mask = np.asarray(obs["action_mask"])
    assert np.array_equal(mask, np.asarray(info["action_mask"])), "the two masks disagree"
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "no legal id at a decision"
    return legal


@dataclass
class Step:
    x: Vector
    legal: NDArray[np.intp]
    p: Vector
    choice: int  # index into legal


def play_episode(
    env: Any, policy: LinearPolicy, seed: int, rng: np.random.Generator | None
) -> tuple[list[Step], float]:
    """One game: sampled by ``rng``, or greedy when ``rng`` is None; the steps and the
    learner's total reward."""
    obs, info = env.reset(seed=seed)
    steps: list[Step] = []
    total = 0.0
    done = False
    while not done:
        x = np.asarray(obs["observation"], dtype=np.float64)
        legal = legal_ids(obs, info)
        p = policy.distribution(x, legal)
        choice = int(np.argmax(p)) if rng is None else int(rng.choice(legal.size, p=p))
        action = int(legal[choice])
        assert obs["action_mask"][action], f"the policy chose the masked id {action}"
        steps.append(Step(x, legal, p, choice))
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done = bool(terminated or truncated)
    return steps, total


def reinforce_grads(
    policy: LinearPolicy, steps: list[Step], result: float, entropy: float
) -> list[NDArray[np.float64]]:
    """The ascent directions for one episode whose only reward, ``result``, comes at the end
    (so the return from every step is ``result``)."""
    gW = np.zeros_like(policy.W)
    gb = np.zeros_like(policy.b)
    gv = np.zeros_like(policy.v)
    gc = np.zeros_like(policy.c)
    for step in steps:
        advantage = result - policy.value(step.x)
        gv += advantage * step.x  # least squares for the baseline
        gc += advantage
        if step.legal.size == 1:
            continue  # a forced move: nothing to learn
        g = -advantage * step.p  # d log pi(a) / d logits = onehot(a) - p
        g[step.choice] += advantage
        if entropy:
            log_p = np.log(np.maximum(step.p, 1e-300))
            g -= entropy * step.p * (log_p + (-(step.p * log_p).sum()))
        gW[step.legal] += np.outer(g, step.x)
        gb[step.legal] += g
    return [gW, gb, gv, gc]


@dataclass(frozen=True)
class CurvePoint:
    episodes: int
    policy: str  # "greedy" or "sampled"
    games: int
    wins: int
    draws: int

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    def row(self) -> dict[str, object]:
        low, high = wilson_interval(self.wins, self.games)
        return {
            "episodes": self.episodes,
            "policy": self.policy,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": f"{self.win_rate:.4f}",
            "ci_low": f"{low:.4f}",
            "ci_high": f"{high:.4f}",
        }


def evaluate(env: Any, policy: LinearPolicy, episodes: int, games: int) -> list[CurvePoint]:
    """Both policies over the same ``games`` seeded games: greedy, then sampled (its draws
    seeded by the game too, so an evaluation is a function of the weights alone)."""
    points = []
    for name in POLICIES:
        wins = draws = 0
        for game in range(games):
            seed = EVAL_SEED + game
            rng = None if name == "greedy" else np.random.default_rng(seed)
            _, result = play_episode(env, policy, seed, rng)
            wins += result > 0
            draws += result == 0
        points.append(CurvePoint(episodes, name, games, wins, draws))
    return points


CHECKPOINT = "checkpoint.npz"
#: What a resumed run must share with the run it resumes (or its curve would mean nothing).
RESUME_KEYS = ("seed", "lr", "entropy", "observation", "eval_games")


def save_checkpoint(
    path: Path,
    policy: LinearPolicy,
    optimiser: Adam,
    rng: np.random.Generator,
    episodes: int,
    curve: list[CurvePoint],
    settings: dict[str, Any],
) -> None:
    """Everything a run needs to go on as if it had never stopped (written whole, then
    renamed: a run killed while writing keeps the previous checkpoint)."""
    state = {
        "episodes": episodes,
        "adam_t": optimiser.t,
        "rng": rng.bit_generator.state,
        "curve": [point.__dict__ for point in curve],
        "settings": settings,
    }
    arrays = {f"param_{i}": p for i, p in enumerate(policy.params())}
    arrays |= {f"adam_m_{i}": m for i, m in enumerate(optimiser.m)}
    arrays |= {f"adam_v_{i}": v for i, v in enumerate(optimiser.v)}
    partial = path.with_suffix(".partial.npz")
    with partial.open("wb") as handle:
        np.savez(handle, state=np.array(json.dumps(state)), **arrays)
    partial.replace(path)


def load_checkpoint(
    path: Path,
    policy: LinearPolicy,
    optimiser: Adam,
    rng: np.random.Generator,
    settings: dict[str, Any],
) -> tuple[int, list[CurvePoint]]:
    """Restore a run saved by :func:`save_checkpoint`: the episodes done and the curve."""
    with np.load(path, allow_pickle=False) as data:
        state = json.loads(str(data["state"]))
        differ = [k for k in RESUME_KEYS if state["settings"].get(k) != settings.get(k)]
        if differ:
            raise SystemExit(
                f"{path} was saved with other settings ({', '.join(differ)}: "
                f"{', '.join(str(state['settings'].get(k)) for k in differ)}); "
                "resume with the same ones"
            )
        for i, p in enumerate(policy.params()):
            p[...] = data[f"param_{i}"]
        for i, (m, v) in enumerate(zip(optimiser.m, optimiser.v, strict=True)):
            m[...] = data[f"adam_m_{i}"]
            v[...] = data[f"adam_v_{i}"]
    optimiser.t = int(state["adam_t"])
    rng.bit_generator.state = state["rng"]
    return int(state["episodes"]), [CurvePoint(**point) for point in state["curve"]]


def train(
    episodes: int,
    seed: int,
    eval_every: int,
    eval_games: int,
    lr: float = 0.001,
    entropy: float = 0.0,
    observation: str = "information_state",
    log: Callable[[str], None] = print,
    out: Path | None = None,
    resume: bool = False,
    checkpoint_every: int | None = None,
    title: str = "",
) -> list[CurvePoint]:
    """Train (or, with ``resume``, go on from ``out``'s checkpoint); the curve's points (one
    before training, then every ``eval_every`` episodes and at the end). With ``out``, each
    evaluation appends to the CSV and redraws the PNG there, and a checkpoint is saved every
    ``checkpoint_every`` episodes (default ``eval_every``) and at the end."""
    env = make_env(observation)
    rng = np.random.default_rng(seed)
    size = int(env.observation_space["observation"].shape[0])
    policy = LinearPolicy(size, int(env.action_space.n))
    optimiser = Adam(policy.params(), lr)
    settings = {
        "seed": seed,
        "lr": lr,
        "entropy": entropy,
        "observation": observation,
        "eval_games": eval_games,
    }
    start = time.perf_counter()
    curve: list[CurvePoint] = []
    done = 0
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        if resume:
            done, curve = load_checkpoint(out / CHECKPOINT, policy, optimiser, rng, settings)
            log(f"resumed at episode {done} from {out / CHECKPOINT}")
        write_csv(curve, out / "learning_curve.csv")  # the curve so far, nothing after it

    def evaluation(done: int) -> None:
        points = evaluate(env, policy, done, eval_games)
        rates = "  ".join(
            "{} {:.3f} [{:.3f}, {:.3f}]".format(
                p.policy, p.win_rate, *wilson_interval(p.wins, p.games)
            )
            for p in points
        )
        log(f"episodes {done:6d}  {rates}  ({time.perf_counter() - start:.0f} s)")
        curve.extend(points)
        if out is not None:
            append_csv(points, out / "learning_curve.csv")
            plot(curve, out / "learning_curve.png", title)

    def checkpoint(done: int) -> None:
        if out is not None:
            save_checkpoint(out / CHECKPOINT, policy, optimiser, rng, done, curve, settings)

    every = checkpoint_every or eval_every
    if done == 0:
        evaluation(0)
    for episode in range(done + 1, episodes + 1):
        # Training games draw their seeds from the run's generator, far from the evaluation's.
        steps, result = play_episode(env, policy, int(rng.integers(EVAL_SEED)), rng)
        optimiser.step(reinforce_grads(policy, steps, result, entropy))
        if episode % eval_every == 0 or episode == episodes:
            evaluation(episode)
        if episode % every == 0 or episode == episodes:
            checkpoint(episode)
    env.close()
    return curve


def write_csv(curve: list[CurvePoint], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for point in curve:
            writer.writerow(point.row())


def append_csv(points: list[CurvePoint], path: Path) -> None:
    """Add an evaluation's rows (and the header, to a file not yet there)."""
    new = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS, lineterminator="\n")
        if new:
            writer.writeheader()
        for point in points:
            writer.writerow(point.row())
        handle.flush()


def plot(curve: list[CurvePoint], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for name in POLICIES:
        points = [p for p in curve if p.policy == name]
        x = [p.episodes for p in points]
        intervals = [wilson_interval(p.wins, p.games) for p in points]
        ax.fill_between(x, [i[0] for i in intervals], [i[1] for i in intervals], alpha=0.2)
        ax.plot(x, [p.win_rate for p in points], marker="o", markersize=3, label=f"{name} policy")
    ax.axhline(0.5, color="grey", linestyle="--", label="random play (50%)")
    ax.set_ylabel(f"win rate vs random bot ({curve[0].games} games)")
    ax.set_xlabel("training episodes (bands: Wilson 95% intervals)")
    ax.set_ylim(0.0, 1.0)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    partial = path.with_suffix(".partial.png")
    fig.savefig(partial)  # then renamed: a viewer never reads a half-written image
    plt.close(fig)
    partial.replace(path)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=3000, help="training games")
    parser.add_argument("--seed", type=int, default=0, help="seeds the whole run")
    parser.add_argument("--out", type=Path, default=Path("runs/aton"), help="output folder")
    parser.add_argument("--eval-every", type=int, default=150, help="episodes between evals")
    parser.add_argument("--eval-games", type=int, default=400, help="games per evaluation")
    parser.add_argument("--lr", type=float, default=0.001, help="Adam's step size")
    parser.add_argument("--entropy", type=float, default=0.0, help="entropy bonus weight")
    parser.add_argument(
        "--checkpoint-every",
        type=int,
        default=None,
        help="episodes between checkpoints (default: --eval-every)",
    )
    parser.add_argument("--resume", action="store_true", help="go on from the checkpoint in --out")
    parser.add_argument(
        "--observation",
        choices=("information_state", "observation"),
        default="information_state",
        help="the tensor under the observation vector",
    )
    args = parser.parse_args(argv)
    if args.episodes < 1 or args.eval_every < 1 or args.eval_games < 1:
        parser.error("--episodes, --eval-every and --eval-games must be positive")
    if args.checkpoint_every is not None and args.checkpoint_every < 1:
        parser.error("--checkpoint-every must be positive")
    if args.resume and not (args.out / CHECKPOINT).exists():
        parser.error(f"--resume: no {CHECKPOINT} in {args.out}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    title = f"Aton: linear REINFORCE vs the random bot (seed {args.seed})"
    curve = train(
        args.episodes,
        args.seed,
        args.eval_every,
        args.eval_games,
        lr=args.lr,
        entropy=args.entropy,
        observation=args.observation,
        out=args.out,
        resume=args.resume,
        checkpoint_every=args.checkpoint_every,
        title=title,
    )
    summary = "; ".join(
        "{} {:.3f} [{:.3f}, {:.3f}]".format(p.policy, p.win_rate, *wilson_interval(p.wins, p.games))
        for p in curve[-len(POLICIES) :]
    )
    print(
        f"final win rates over {curve[-1].games} games: {summary}; "
        f"{time.perf_counter() - start:.0f} s; wrote {args.out}/learning_curve.csv and .png"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
