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

**Rewards.** Three schemes, all zero-sum at a table of two or more:

- ``"win"`` (the default): the winners share +1 and the others share -1; a game in which every
  seat ties for first gives 0 to all. At two seats: +1, -1, or 0 for a draw.
- ``"score"``: a seat's points minus the mean of the other seats' points. Paid as it changes,
  step by step (the games score during play), so the sum of a seat's rewards is its final
  difference. At a solo table (Egyptia) it is simply the seat's points, and it is the default
  there: a game of one has no winner to reward.
- ``"rank"``: places spread evenly from +1 (first) to -1 (last), tied seats sharing the mean of
  the places they hold. At two seats it equals ``"win"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from karnak.core.errors import InvalidOptionError

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.core.state import State

RewardScheme = Literal["win", "score", "rank"]
REWARD_SCHEMES: tuple[RewardScheme, ...] = ("win", "score", "rank")


def default_rewards(players: int) -> RewardScheme:
    """``"win"`` at a table of several, ``"score"`` alone (a solo game has no winner)."""
    return "win" if players > 1 else "score"


def check_rewards(rewards: str | None, players: int) -> RewardScheme:
    """The scheme named by ``rewards`` (None: the default), or InvalidOptionError."""
    if rewards is None:
        return default_rewards(players)
    for scheme in REWARD_SCHEMES:
        if rewards == scheme:
            if players == 1 and scheme != "score":
                raise InvalidOptionError(
                    f"rewards {rewards!r} need a table of two or more: a solo game has no "
                    "winner and no places; use rewards='score'"
                )
            return scheme
    raise InvalidOptionError(f"rewards must be one of {', '.join(REWARD_SCHEMES)}, not {rewards!r}")


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


def standing(state: State, rewards: RewardScheme) -> list[float]:
    """Each seat's value now under ``rewards``: the final utilities once the game is over;
    before, the running score difference (``"score"``) or 0 (``"win"`` and ``"rank"``, which
    pay only at the end). An environment's reward for a step is the change of this."""
    if rewards == "score":
        return score_utilities(state.scores())
    if not state.is_over():
        return [0.0] * len(state.players)
    ranks = state.ranks()
    return win_utilities(ranks) if rewards == "win" else rank_utilities(ranks)


@dataclass(frozen=True)
class GameDescription:
    """One game at one table size, options and reward scheme, as a framework needs it."""

    name: str
    title: str
    version: str
    players: int
    options: Mapping[str, Any]
    rewards: RewardScheme
    #: "zero_sum" at a table of two or more, "general_sum" alone.
    utility: str
    #: "terminal" (win, rank: only the last step pays) or "rewards" (score: paid as it changes).
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


def describe(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None = None,
    rewards: str | None = None,
) -> GameDescription:
    """The description of ``game`` at a table of ``players`` (see the module's text)."""
    game.check_player_count(players)
    resolved = game.resolve_options(options)
    scheme = check_rewards(rewards, players)
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
        reward_model="rewards" if scheme == "score" else "terminal",
        min_utility=min_utility,
        max_utility=max_utility,
        utility_sum=0.0 if players > 1 else None,
        num_distinct_actions=space.size,
        max_game_length=space.max_game_length,
        observation_size=game.observation_layout(players, resolved).size,
        information_state_size=game.information_state_layout(players, resolved).size,
    )
