"""Training the learned judge (:mod:`karnak.bots.judge`) from self-play, with NumPy alone.

The data
    ``games`` games at a table of ``players``, every seat played by the game's heuristic
    policy, each move replaced by a random legal one with chance ``epsilon`` so that the
    positions reach beyond the heuristic's own habits. Along each game, every position
    where someone decides is kept with chance ``keep``; a kept position gives one row per
    seat: that seat's information-state tensor, and as its label the reward the seat ended
    the game with (the game's own reward where it has one, Egyptia alone; otherwise the
    search's rank reward, :func:`karnak.core.knowledge.final_rewards`). The hand-made
    evaluator's value of the same position is kept beside it, to compare.

The fit
    A perceptron (``hidden`` tanh layers, a logistic output) trained on the cross-entropy
    against the labels by Adam in mini-batches, seeded. One game in ten (by seed) is held
    out; the record gives both judges' mean squared error on it, and for two seats how often
    each names the seat that went on to win. Another game in ten chooses when to stop: the
    positions of one game share its label, so a network soon learns games by heart, and
    the epoch that judged those games best is kept.

Everything is seeded: the same command gives the same judge on the same code.
"""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from karnak.bots.ismcts import game_knowledge
from karnak.bots.judge import ValueModel
from karnak.core.knowledge import final_rewards
from karnak.core.rng import Rng

if TYPE_CHECKING:
    from karnak.core.game import Game

Floats = npt.NDArray[np.float32]

#: Every tenth game (by its index) is held out of the fit to measure the judge, and the
#: one before it to choose when to stop.
HOLD_OUT_EVERY = 10
#: Epochs without a better validation loss before training stops.
PATIENCE = 3


@dataclass(frozen=True)
class JudgeConfig:
    """How a judge is trained (all of it goes into the training record)."""

    game: str
    players: int
    games: int = 1500
    seed: int = 0
    epsilon: float = 0.1
    keep: float = 0.35
    hidden: tuple[int, ...] = (64,)
    epochs: int = 30
    batch: int = 256
    learning_rate: float = 0.003

    def __post_init__(self) -> None:
        if self.games < 2 or self.players < 1 or self.epochs < 1 or self.batch < 1:
            raise ValueError("games (at least 2), players, epochs and batch are positive")
        if not (0.0 <= self.epsilon <= 1.0 and 0.0 < self.keep <= 1.0):
            raise ValueError("epsilon is in [0, 1] and keep in (0, 1]")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError("hidden widths are positive")
        if self.learning_rate <= 0:
            raise ValueError("the learning rate is positive")


@dataclass
class Positions:
    """The rows of the data: tensors, labels, the hand evaluator's values, and for each row
    its game and its position within the data (to pair the seats of one position)."""

    tensors: list[Floats] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)
    hand: list[float] = field(default_factory=list)
    game_of: list[int] = field(default_factory=list)
    position_of: list[int] = field(default_factory=list)


def generate(
    game: Game, config: JudgeConfig, progress: Callable[[int], None] | None = None
) -> Positions:
    """The self-play data of :class:`JudgeConfig` (see the module's docstring)."""
    knowledge = game_knowledge(game)
    policy = knowledge.policy
    reward = knowledge.reward or final_rewards
    evaluator = knowledge.evaluator
    data = Positions()
    position = 0
    for index in range(config.games):
        seed = config.seed * 1_000_003 + index
        state = game.new_state(config.players, seed=seed)
        rng = Rng(seed)
        kept: list[tuple[int, list[Floats], list[float]]] = []
        while not state.is_over():
            if rng.random() < config.keep:
                hand = list(evaluator(state)) if evaluator is not None else [0.5] * config.players
                tensors = [
                    np.asarray(state.information_state_tensor(s), np.float32).copy()
                    for s in range(config.players)
                ]
                kept.append((position, tensors, hand))
                position += 1
            seat = state.to_move()[0]
            if policy is None or rng.random() < config.epsilon:
                legal = state.legal_actions(seat)
                action = legal[rng.below(len(legal))]
            else:
                action = policy(state, seat, rng)
            state.apply(seat, action)
        final = list(reward(state))
        for at, tensors, hand in kept:
            for seat in range(config.players):
                data.tensors.append(tensors[seat])
                data.labels.append(final[seat])
                data.hand.append(hand[seat])
                data.game_of.append(index)
                data.position_of.append(at)
        if progress is not None:
            progress(index + 1)
    return data


def _init(sizes: Sequence[int], rng: np.random.Generator) -> tuple[list[Floats], list[Floats]]:
    weights, biases = [], []
    for fan_in, fan_out in pairwise(sizes):
        bound = math.sqrt(6.0 / (fan_in + fan_out))  # Glorot, for tanh
        weights.append(rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32))
        biases.append(np.zeros(fan_out, np.float32))
    return weights, biases


def _forward(weights: list[Floats], biases: list[Floats], x: Floats) -> tuple[list[Floats], Floats]:
    """The activations of every layer (the input first) and the output probabilities."""
    acts = [x]
    h = x
    last = len(weights) - 1
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        h = h @ w.T + b
        if i < last:
            h = np.tanh(h)
            acts.append(h)
    out: Floats = (1.0 / (1.0 + np.exp(-h[:, 0]))).astype(np.float32)
    return acts, out


def _cross_entropy(p: Floats, y: Floats) -> float:
    clipped = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(clipped) + (1 - y) * np.log(1 - clipped)).mean())


def fit(
    x: Floats,
    y: Floats,
    config: JudgeConfig,
    log: Callable[[str], None] | None = None,
    validation: tuple[Floats, Floats] | None = None,
) -> tuple[list[Floats], list[Floats], list[float], list[float]]:
    """Adam on the cross-entropy: the weights, biases, each epoch's training loss and
    validation loss. With ``validation``, the weights of the epoch that did best on it are
    kept, and training stops after ``PATIENCE`` epochs without a better one: the positions
    of one game share its label, so a network soon learns games by heart."""
    rng = np.random.default_rng(config.seed)
    sizes = [x.shape[1], *config.hidden, 1]
    weights, biases = _init(sizes, rng)
    params = [*weights, *biases]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    losses: list[float] = []
    checked: list[float] = []
    best: tuple[list[Floats], list[Floats]] | None = None
    best_loss, best_epoch = math.inf, 0
    n = len(y)
    for epoch in range(config.epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, config.batch):
            rows = order[start : start + config.batch]
            xb, yb = x[rows], y[rows]
            acts, p = _forward(weights, biases, xb)
            clipped = np.clip(p, 1e-6, 1 - 1e-6)
            total += float(-(yb * np.log(clipped) + (1 - yb) * np.log(1 - clipped)).sum())
            # the logistic and the cross-entropy together: d loss / d logit = p - y
            delta = ((p - yb) / len(rows)).reshape(-1, 1).astype(np.float32)
            grads_w: list[Floats] = [np.empty(0, np.float32)] * len(weights)
            grads_b: list[Floats] = [np.empty(0, np.float32)] * len(weights)
            for i in range(len(weights) - 1, -1, -1):
                grads_w[i] = delta.T @ acts[i]
                grads_b[i] = delta.sum(axis=0)
                if i:
                    delta = (delta @ weights[i]) * (1.0 - acts[i] * acts[i])
            step += 1
            for j, grad in enumerate([*grads_w, *grads_b]):
                m[j] = beta1 * m[j] + (1 - beta1) * grad
                v[j] = beta2 * v[j] + (1 - beta2) * grad * grad
                m_hat = m[j] / (1 - beta1**step)
                v_hat = v[j] / (1 - beta2**step)
                params[j] -= (config.learning_rate * m_hat / (np.sqrt(v_hat) + eps)).astype(
                    np.float32
                )
        losses.append(total / n)
        line = f"epoch {epoch + 1}/{config.epochs}: training cross-entropy {losses[-1]:.4f}"
        if validation is not None:
            checked.append(
                _cross_entropy(_forward(weights, biases, validation[0])[1], validation[1])
            )
            line += f", validation {checked[-1]:.4f}"
            if checked[-1] < best_loss:
                best_loss, best_epoch = checked[-1], epoch
                best = ([w.copy() for w in weights], [b.copy() for b in biases])
        if log is not None:
            log(line)
        if validation is not None and epoch - best_epoch >= PATIENCE:
            break
    if best is not None:
        return best[0], best[1], losses, checked
    return weights, biases, losses, checked


def _picks_winner(values: Floats, labels: Floats, positions: npt.NDArray[np.int64]) -> float | None:
    """For two seats: the share of positions (with a winner) where the seat valued higher
    is the seat that won."""
    right = seen = 0
    for at in np.unique(positions):
        rows = np.flatnonzero(positions == at)
        if len(rows) != 2 or labels[rows[0]] == labels[rows[1]]:
            continue
        seen += 1
        right += int((values[rows[0]] > values[rows[1]]) == (labels[rows[0]] > labels[rows[1]]))
    return right / seen if seen else None


def train_judge(
    game: Game, config: JudgeConfig, log: Callable[[str], None] | None = None
) -> tuple[ValueModel, dict[str, Any]]:
    """Generate, fit and measure: the judge and its training record."""
    started = time.perf_counter()
    data = generate(game, config)
    generated = time.perf_counter() - started
    x = np.stack(data.tensors).astype(np.float32)
    y = np.asarray(data.labels, np.float32)
    hand = np.asarray(data.hand, np.float32)
    games_of = np.asarray(data.game_of)
    positions = np.asarray(data.position_of, np.int64)
    if config.games >= HOLD_OUT_EVERY:
        held = games_of % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1
        checking = games_of % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 2
    else:  # a trial run: its last game, and no early stop
        held = games_of == config.games - 1
        checking = np.zeros_like(held)
    if not held.any() or held.all():
        raise ValueError("too few positions to hold some out: play more games")
    train_rows = ~held & ~checking
    if log is not None:
        log(f"{len(y)} rows from {config.games} games in {generated:.0f} s; fitting ...")
    validation = (x[checking], y[checking]) if checking.any() else None
    weights, biases, losses, checked = fit(x[train_rows], y[train_rows], config, log, validation)
    meta: dict[str, Any] = {
        "game": game.name,
        "players": config.players,
        "input_size": int(x.shape[1]),
        "rules_version": game.version,
    }
    model = ValueModel(weights, biases, meta)
    predicted = model.predict(x[held])
    record: dict[str, Any] = {
        **meta,
        "config": {**asdict(config), "hidden": list(config.hidden)},
        "rows": len(y),
        "held_out_rows": int(held.sum()),
        "parameters": model.parameters,
        "training_cross_entropy": losses,
        "validation_cross_entropy": checked,
        "held_out_mse": {
            "judge": float(np.mean((predicted - y[held]) ** 2)),
            "hand_evaluator": float(np.mean((hand[held] - y[held]) ** 2)),
            "constant_mean": float(np.mean((y[train_rows].mean() - y[held]) ** 2)),
        },
        "seconds": {
            "self_play": round(generated, 1),
            "all": round(time.perf_counter() - started, 1),
        },
        "machine": (
            f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"
        ),
    }
    if config.players == 2:
        record["held_out_picks_the_winner"] = {
            "judge": _picks_winner(predicted, y[held], positions[held]),
            "hand_evaluator": _picks_winner(hand[held], y[held], positions[held]),
        }
    model.meta["training"] = {k: record[k] for k in ("config", "rows", "held_out_mse")}
    return model, record
