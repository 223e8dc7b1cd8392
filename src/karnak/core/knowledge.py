"""A game's bot knowledge, as one typed value the generic search reads.

Each game's ``bot`` module builds a :class:`Knowledge` from its rules of thumb: a policy for
rollouts, an evaluator for truncated ones, a filter of the moves worth searching, a reward
for finished games and its instant heuristic bot. The game's plugin names it, and
:mod:`karnak.bots.ismcts` and the ``heuristic`` bot find it there.

Styles
    Two bots of one level at one table would otherwise play alike: a game's rules of thumb
    are deterministic, and at Egyptia, where every builder sees the same dice, alike means
    identical cities. So a bot may play with a :class:`Style`: a number (0 is none) from
    which a small, bounded change of each weight the game declares in
    :attr:`Knowledge.style_weights` is drawn, plus random tie-breaks (:func:`pick`). A game's
    code reads its declared weights through :func:`weight` (the constant times the factor
    of the style being played, exactly the constant without one); the style in play is a
    context variable that :func:`playing` sets for one decision, so bots thinking in
    threads never see each other's. :func:`seat_style` derives a seat's style from the
    game's seed, so a table's styles are reproducible and its seats' differ.
"""

from __future__ import annotations

import contextlib
import functools
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

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
T = TypeVar("T")

#: Styles a seat's is drawn from (1 .. STYLES); consecutive seats get consecutive numbers,
#: so the seats of one table (at most 99) never share one.
STYLES = 9973
#: Largest relative change a game may declare for one weight (a style is a mild variation).
MAX_STYLE_CHANGE = 0.35
#: Rated values this close count as a tie, broken at random by a styled bot.
TIE = 1e-9


@dataclass(frozen=True)
class Style:
    """A bot's character: its number (0: none) and the factor on each weight it varies."""

    number: int = 0
    factors: Mapping[str, float] = field(default_factory=dict)

    def factor(self, name: str) -> float:
        return self.factors.get(name, 1.0)

    def __bool__(self) -> bool:
        return self.number != 0


NO_STYLE = Style()


def make_style(number: int, bounds: Mapping[str, float]) -> Style:
    """Style ``number`` for a game whose weights may vary by ``bounds`` (name -> the largest
    relative change): each factor uniform in [1 - bound, 1 + bound], drawn from the number
    alone, so a style is the same wherever it is played."""
    if number == 0:
        return NO_STYLE
    if number < 0:
        raise ValueError(f"a style is a number of at least 0 (got {number})")
    rng = Rng(0x5EED_57E1 ^ (number * 0x9E37_79B9))
    factors = {}
    for name in sorted(bounds):
        bound = min(MAX_STYLE_CHANGE, max(0.0, bounds[name]))
        factors[name] = 1.0 + bound * (2.0 * rng.random() - 1.0)
    return Style(number, factors)


@functools.lru_cache(maxsize=1024)
def tastes(number: int, name: str, size: int) -> tuple[float, ...]:
    """Style ``number``'s fixed preferences among ``size`` alike choices called ``name``
    (the hexes of a sheet): one value in [-1, 1] each, drawn from the number and the name
    alone; all 0 without a style. A game scales them by a small amount of its own, so that
    a styled bot settles choices the rules of thumb rate (nearly) alike in its own way."""
    if number == 0:
        return (0.0,) * size
    rng = Rng(number * 0x2545_F491 ^ zlib.crc32(name.encode()))
    return tuple(2.0 * rng.random() - 1.0 for _ in range(size))


def seat_style(game_seed: int, seat: int) -> int:
    """The style number (1 .. :data:`STYLES`) of a bot in ``seat`` of the game seeded
    ``game_seed``: reproducible, and different for every seat of a table."""
    mixed = (game_seed * 0x9E37_79B9_7F4A_7C15 + 0x632B_E59B) % (1 << 61)
    return 1 + (mixed % STYLES + seat) % STYLES


_PLAYING: ContextVar[Style] = ContextVar("karnak_style", default=NO_STYLE)


def current_style() -> Style:
    """The style of the decision being computed (:data:`NO_STYLE` outside any)."""
    return _PLAYING.get()


def weight(name: str, value: float) -> float:
    """The weight ``name`` of a game's rules of thumb, ``value`` as declared, under the
    style being played (``value`` itself without a style)."""
    style = _PLAYING.get()
    if not style.number:
        return value
    return value * style.factor(name)


@contextlib.contextmanager
def playing(style: Style) -> Iterator[None]:
    """Compute what is inside with ``style``'s weights."""
    token = _PLAYING.set(style)
    try:
        yield
    finally:
        _PLAYING.reset(token)


def pick(rated: Sequence[tuple[float, T]], rng: Rng) -> T:
    """The best of ``rated`` ((value, move) pairs): the first of the best without a style,
    one of the best at random with one."""
    best = max(value for value, _ in rated)
    if not _PLAYING.get().number:
        return next(move for value, move in rated if value == best)
    tied = [move for value, move in rated if value >= best - TIE]
    return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]


def styled_policy(policy: Policy, style: Style) -> Policy:
    """``policy`` deciding with ``style``'s weights (itself without a style)."""
    if not style:
        return policy

    def styled(state: State, seat: int, rng: Rng) -> Action:
        token = _PLAYING.set(style)
        try:
            return policy(state, seat, rng)
        finally:
            _PLAYING.reset(token)

    return styled


def styled_candidates(candidates: Candidates, style: Style) -> Candidates:
    """``candidates`` judged with ``style``'s weights (itself without a style)."""
    if not style:
        return candidates

    def styled(state: State, seat: int, actions: Sequence[Action]) -> Sequence[Action]:
        token = _PLAYING.set(style)
        try:
            return candidates(state, seat, actions)
        finally:
            _PLAYING.reset(token)

    return styled


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
    number of rollout actions before the evaluator judges the position. ``style_weights``
    names the weights a :class:`Style` varies (read by the game through :func:`weight`),
    each with the largest relative change a style makes (at most
    :data:`MAX_STYLE_CHANGE`); a game without them has styles of random tie-breaks only.
    """

    #: The instant bot built on the same rules of thumb (the ``heuristic`` bot of the game).
    heuristic: Callable[[Game], Bot] | None = None
    policy: Policy | None = None
    evaluator: Evaluator | None = None
    candidates: Candidates | None = None
    reward: Reward | None = None
    rollout_depth: int | None = None
    style_weights: Mapping[str, float] = field(default_factory=dict)

    def style(self, number: int) -> Style:
        """Style ``number`` of this game (see :func:`make_style`)."""
        return make_style(number, self.style_weights)
