"""A game's bot knowledge, as one typed value the generic search reads.

Each game's ``bot`` module builds a :class:`Knowledge` from its rules of thumb: a policy for
rollouts, an evaluator for truncated ones, a filter of the moves worth searching, a reward
for finished games and its instant heuristic bot. The game's plugin names it, and
:mod:`karnak.bots.ismcts` and the ``heuristic`` bot find it there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from karnak.core.actions import Action
from karnak.core.rng import Rng

if TYPE_CHECKING:
    from karnak.core.agent import Bot
    from karnak.core.game import Game
    from karnak.core.state import State

Policy = Callable[["State", int, Rng], Action]
Evaluator = Callable[["State"], Sequence[float]]
Reward = Callable[["State"], Sequence[float]]
Candidates = Callable[["State", int, Sequence[Action]], Sequence[Action]]


def rank_rewards(scores_key: Sequence[tuple[int, ...]], winners: Sequence[int]) -> list[float]:
    """Reward per seat in [0, 1]: half from the share of seats beaten, half from winning.

    Pure win/loss is too sparse a signal for a few hundred rollouts; pure rank ignores that
    only first place counts. The blend keeps both.
    """
    n = len(scores_key)
    rewards = []
    for seat, key in enumerate(scores_key):
        beaten = sum(1 for other in scores_key if other < key)
        tied = sum(1 for other in scores_key if other == key) - 1
        place = (beaten + 0.5 * tied) / (n - 1) if n > 1 else 1.0
        win = 1.0 / len(winners) if seat in winners else 0.0
        rewards.append(0.5 * place + 0.5 * win)
    return rewards


def final_rewards(state: State) -> list[float]:
    keys = [state.ranking_key(s) for s in range(len(state.players))]
    return rank_rewards(keys, state.winners())


@dataclass(frozen=True)
class Knowledge:
    """What a game's bot module lends the search, and its instant bot; every part is optional.

    ``reward`` scores a finished game in place of :func:`final_rewards` (a solo game, where
    the rank is always first, needs its score); ``rollout_depth`` replaces the default
    number of rollout actions before the evaluator judges the position.
    """

    #: The instant bot built on the same rules of thumb (the ``heuristic`` bot of the game).
    heuristic: Callable[[Game], Bot] | None = None
    policy: Policy | None = None
    evaluator: Evaluator | None = None
    candidates: Candidates | None = None
    reward: Reward | None = None
    rollout_depth: int | None = None
