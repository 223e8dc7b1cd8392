"""What a research framework asks of a game before playing it: its type, its rewards and their
range, its length and its sizes.

OpenSpiel calls this a ``GameType`` plus ``GameInfo``; PettingZoo and Gymnasium read the same
facts from their spaces. Karnak declares them once, here, for every game, so the adapters in
:mod:`karnak.envs` only translate.

**Type.** Every Karnak game is *sequential with imperfect information*: a sealed step (Aton's
lay-out, Amun-Re's offering, an Egyptia round) is played one seat after another, lowest seat
first, and what a seat commits stays hidden from the others until the reveal, which is exactly
what a simultaneous step is to a seat that cannot see the others. Chance is *sampled*: the
engine draws it itself from the game's seed, so there are no chance nodes and no chance ids.

**Rewards.** Three schemes every game has, all zero-sum at a table of two or more:

- ``"win"`` (the default): the winners share +1 and the others share -1; a game in which every
  seat ties for first gives 0 to all. At two seats: +1, -1, or 0 for a draw.
- ``"score"``: a seat's points minus the mean of the other seats' points. Paid as it changes,
  step by step (the games score during play), so the sum of a seat's rewards is its final
  difference. At a solo table (Egyptia) it is simply the seat's points, and it is the default
  there: a game of one has no winner to reward.
- ``"rank"``: places spread evenly from +1 (first) to -1 (last), tied seats sharing the mean of
  the places they hold. At two seats it equals ``"win"``.

And two paid only at the end, for methods that want every reward there (OpenSpiel's MCTS):

- ``"final_score"``: ``"score"``'s final value mapped linearly from its declared range onto
  [-1, 1] by the game's score bounds (:meth:`Game.score_bounds`): alone, the points from the
  least (-1) to the most (+1) a seat can have; at a table of several, the difference divided
  by the bounds' span (still zero-sum). It is the terminal default for a solo table
  (:func:`terminal_rewards`).
- ``"status"`` (a solo table only): +1 if the final score reaches a target, -1 if not. The
  target is one of the game's named score targets (:meth:`Game.score_targets`, such as a solo
  game's builder statuses: ``"status:Master"``), a number of points (``"status:55"``), or,
  with ``"status"`` alone, the game's default target (:meth:`Game.default_score_target`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from karnak.core.errors import InvalidOptionError

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.core.state import State

RewardScheme = Literal["win", "score", "rank", "final_score", "status"]
#: The schemes every game has, zero-sum at a table of two or more.
REWARD_SCHEMES: tuple[RewardScheme, ...] = ("win", "score", "rank")
#: Every scheme: the three above, then the two paid only at the end.
ALL_REWARD_SCHEMES: tuple[RewardScheme, ...] = (*REWARD_SCHEMES, "final_score", "status")
#: The schemes that pay as the points change; every other pays only at the end.
PER_STEP_SCHEMES: tuple[RewardScheme, ...] = ("score",)
#: What separates ``status`` from its target: ``"status:Master"``, ``"status:55"``.
TARGET_SEPARATOR = ":"


def default_rewards(players: int) -> RewardScheme:
    """``"win"`` at a table of several, ``"score"`` alone (a solo game has no winner)."""
    return "win" if players > 1 else "score"


def terminal_rewards(players: int) -> RewardScheme:
    """The default where every reward must come at the end (OpenSpiel's MCTS wants that):
    ``"win"`` at a table of several, ``"final_score"`` alone."""
    return "win" if players > 1 else "final_score"


def scheme_of(rewards: str) -> str:
    """The scheme of a checked ``rewards`` text, its target left out (``"status"``)."""
    return rewards.partition(TARGET_SEPARATOR)[0]


def check_rewards(
    rewards: str | None,
    players: int,
    game: Game | None = None,
    options: Mapping[str, Any] | None = None,
) -> str:
    """The rewards named by ``rewards`` (None: the default), or InvalidOptionError: a scheme's
    name, or for ``"status"`` the scheme and its target (``"status:Standard"``: the target's
    name as the game spells it, or a number of points), the game's default target filled in.
    ``game`` and ``options`` give the named targets (without them only points are known)."""
    if rewards is None:
        return default_rewards(players)
    text = str(rewards).strip()
    scheme, separator, target = text.partition(TARGET_SEPARATOR)
    if scheme not in ALL_REWARD_SCHEMES:
        raise InvalidOptionError(
            f"rewards must be one of {', '.join(ALL_REWARD_SCHEMES)} (status:TARGET for a "
            f"target of your choice), not {rewards!r}"
        )
    if players == 1 and scheme in ("win", "rank"):
        raise InvalidOptionError(
            f"rewards {rewards!r} need a table of two or more: a solo game has no winner and "
            "no places; use rewards='score', 'final_score' or 'status'"
        )
    if scheme != "status":
        if separator:
            raise InvalidOptionError(f"only rewards 'status' take a target, not {rewards!r}")
        return scheme
    if players != 1:
        raise InvalidOptionError(
            "rewards 'status' (a target score reached or not) are for a solo table; a table "
            "of several has 'win', 'rank', 'score' and 'final_score'"
        )
    name, _points = status_target(target.strip(), players, game, options)
    return f"status{TARGET_SEPARATOR}{name}"


def status_target(
    target: str, players: int, game: Game | None, options: Mapping[str, Any] | None = None
) -> tuple[str, int]:
    """The target of ``"status"`` rewards as (its canonical text, its least points): a named
    target of ``game`` (any letter case), a whole number of points, or ``""`` for the game's
    default target; InvalidOptionError otherwise."""
    targets = game.score_targets(players, options) if game is not None else ()
    if not target:
        default = game.default_score_target(players, options) if game is not None else None
        if default is None:
            raise InvalidOptionError(
                "rewards 'status' need a target here (status:POINTS): "
                f"{'this game' if game is None else game.title} names no default target"
            )
        target = default
    for name, points in targets:
        if name.casefold() == target.casefold():
            return name, points
    digits = target[1:] if target[:1] in "+-" else target
    if digits.isdigit():
        return str(int(target)), int(target)
    named = ", ".join(f"{name} ({points})" for name, points in targets) or "none"
    raise InvalidOptionError(
        f"rewards 'status' take a named target or a number of points, not {target!r}; "
        f"named targets: {named}"
    )


def win_utilities(ranks: Sequence[int]) -> list[float]:
    seats = len(ranks)
    winners = sum(1 for rank in ranks if rank == 1)
    if winners == seats:
        return [0.0] * seats
    return [1.0 / winners if rank == 1 else -1.0 / (seats - winners) for rank in ranks]


def rank_utilities(ranks: Sequence[int]) -> list[float]:
    seats = len(ranks)
    if seats == 1:
        return [0.0]
    middle = (seats + 1) / 2
    values = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        mean_place = rank + (tied - 1) / 2
        values.append((middle - mean_place) / (middle - 1))
    return values


def score_utilities(scores: Sequence[int]) -> list[float]:
    seats = len(scores)
    if seats == 1:
        return [float(scores[0])]
    total = sum(scores)
    return [score - (total - score) / (seats - 1) for score in scores]


def final_score_utilities(scores: Sequence[int], low: int, high: int) -> list[float]:
    """``score_utilities`` mapped linearly onto [-1, 1] by the score bounds ``low``, ``high``:
    alone, ``low`` gives -1 and ``high`` +1; at a table of several, the difference (from
    ``low - high`` to ``high - low``) is divided by ``high - low``, so the sum stays 0."""
    span = high - low
    if span <= 0:
        raise ValueError(f"score bounds {low} to {high} leave no range to normalise by")
    if len(scores) == 1:
        return [2.0 * (scores[0] - low) / span - 1.0]
    return [value / span for value in score_utilities(scores)]


def status_utilities(scores: Sequence[int], points: int) -> list[float]:
    """+1 for a seat whose score reaches ``points``, -1 for one that does not."""
    return [1.0 if score >= points else -1.0 for score in scores]


@functools.lru_cache(maxsize=64)
def _score_bounds(
    game: Game, players: int, options: tuple[tuple[str, Any], ...]
) -> tuple[int, int]:
    """``game.score_bounds``, kept: some games take tens of milliseconds to work them out,
    and a learning loop asks at the end of every game."""
    return game.score_bounds(players, dict(options))


def standing(state: State, rewards: str) -> list[float]:
    """Each seat's value now under ``rewards`` (a scheme, or ``"status:TARGET"``): the final
    utilities once the game is over; before, the running score difference (``"score"``) or 0
    (every other scheme, which pays only at the end). An environment's reward for a step is
    the change of this. ``"final_score"`` and ``"status"`` ask the state's game for its score
    bounds and targets (once, at the end)."""
    if rewards == "score":
        return score_utilities(state.scores())
    if not state.is_over():
        return [0.0] * len(state.players)
    scheme, _, target = rewards.partition(TARGET_SEPARATOR)
    if scheme == "win":
        return win_utilities(state.ranks())
    if scheme == "rank":
        return rank_utilities(state.ranks())
    players = len(state.players)
    if scheme == "final_score":
        low, high = _score_bounds(state.game, players, tuple(sorted(state.options.items())))
        return final_score_utilities(state.scores(), low, high)
    if scheme == "status":
        _name, points = status_target(target, players, state.game, state.options)
        return status_utilities(state.scores(), points)
    raise InvalidOptionError(f"no reward scheme {rewards!r}")


@dataclass(frozen=True)
class GameDescription:
    """One game at one table size, options and reward scheme, as a framework needs it."""

    name: str
    title: str
    version: str
    players: int
    options: Mapping[str, Any]
    #: The reward scheme, with its target for ``"status"`` (``"status:Standard"``).
    rewards: str
    #: "zero_sum" at a table of two or more, "general_sum" alone.
    utility: str
    #: "terminal" (every scheme but score: only the last step pays) or "rewards" (score: paid
    #: as it changes).
    reward_model: str
    min_utility: float
    max_utility: float
    #: The sum of all seats' utilities in every outcome (0 when zero-sum).
    utility_sum: float | None
    num_distinct_actions: int
    max_game_length: int
    observation_size: int
    information_state_size: int
    dynamics: str = "sequential"
    information: str = "imperfect"
    chance: str = "sampled"
    #: The ``spelled`` part every adapter adds after the tensor: one count for each id that
    #: can stand in an unfinished spelling (0 where every move is one id).
    spelled_size: int = 0

    @property
    def observation_vector_size(self) -> int:
        """The length of an adapter's observation vector: the observation tensor, then the
        spelled part (what PettingZoo, Gymnasium, OpenSpiel and the batch report)."""
        return self.observation_size + self.spelled_size

    @property
    def information_state_vector_size(self) -> int:
        """The length of an adapter's information state vector (the default observation)."""
        return self.information_state_size + self.spelled_size


def describe(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None = None,
    rewards: str | None = None,
) -> GameDescription:
    """The description of ``game`` at a table of ``players`` (see the module's text)."""
    game.check_player_count(players)
    resolved = game.resolve_options(options)
    scheme = check_rewards(rewards, players, game, resolved)
    space = game.action_space(players, resolved)
    if scheme == "score":
        low, high = game.score_bounds(players, resolved)
        min_utility, max_utility = (
            (float(low), float(high)) if players == 1 else (float(low - high), float(high - low))
        )
    else:
        min_utility, max_utility = -1.0, 1.0
    return GameDescription(
        name=game.name,
        title=game.title,
        version=game.version,
        players=players,
        options=resolved,
        rewards=scheme,
        utility="zero_sum" if players > 1 else "general_sum",
        reward_model="rewards" if scheme in PER_STEP_SCHEMES else "terminal",
        min_utility=min_utility,
        max_utility=max_utility,
        utility_sum=0.0 if players > 1 else None,
        num_distinct_actions=space.size,
        max_game_length=space.max_game_length,
        observation_size=game.observation_layout(players, resolved).size,
        information_state_size=game.information_state_layout(players, resolved).size,
        spelled_size=len(space.spelling_ids),
    )
