"""The bot arena: many seeded games between bot specs, with win rates and ratings.

Why a separate arena rather than ``simulate``? ``simulate`` fixes one bot per seat and
reports per seat; comparing bots needs the opposite. Seat order matters in most games
(who bids first, who breaks ties), so the arena rotates the bots through the seats and
reports per *bot*, with a confidence interval and a rating, so that "ismcts beats the
heuristic" can be told apart from "seat 0 is lucky".

How a run is laid out:

* Game ``i`` uses seed ``seed + i`` and rotation ``i % n``: seat ``s`` gets
  ``specs[(s + i) % n]``. After a multiple of ``n`` games every entry of ``specs`` has sat
  in every seat equally often; other game counts leave a small imbalance, which the result
  reports as per-seat counts (:attr:`BotRow.seat_games`) and :attr:`ArenaResult.balanced`.
* Each bot gets its own generator derived from the game seed and its seat only
  (:func:`bot_rngs`, the same derivation ``karnak simulate`` uses), so any game of a run
  can be played again on its own.
* With ``styled`` rows, each bot of those rows plays its seat's style in that game
  (:func:`~karnak.core.knowledge.seat_style` of the game seed and the seat, as a server
  gives it), so a row stands for its level with varied characters; other rows play the
  plain weights. A style written in a spec (``heuristic@style=3``) is kept either way.
* Bots are built afresh for every game, so nothing a bot caches leaks from one game into
  the next, and the outcome of a game does not depend on which process played it. With
  iteration budgets (or bots that do not search) the whole result is therefore identical
  for any ``jobs``; with time budgets it depends on the machine's speed.
* Identical specs in several positions are one *row*: three ``heuristic`` entries form
  one row with three times the seat-games. A row is named by its spec as ``make_bot``
  reads it (trimmed, lower case).

This module is plain library code (no Rich, no Typer): the ``karnak arena`` command and
notebooks render an :class:`ArenaResult` in their own way.
"""

from __future__ import annotations

import itertools
import math
import os
import time
import traceback
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from karnak.bots.base import Bot, SeatView, make_bot
from karnak.core.errors import KarnakError
from karnak.core.game import Game
from karnak.core.knowledge import seat_style
from karnak.core.rng import Rng

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

#: Rating model parameters: openskill's defaults, except ``tau``. Tau adds variance before
#: every update to follow a skill that drifts over time; a bot's skill does not drift
#: between games, so the arena leaves it out and sigma measures evidence only.
RATING_MU = 25.0
RATING_SIGMA = 25.0 / 3.0
RATING_TAU = 0.0

#: A tie is rated as the average over the strict orders it could be broken into (see
#: :class:`RatingBook`); beyond this many orders the ties go to openskill unchanged.
MAX_TIE_ORDERS = 720


class ArenaGameError(KarnakError, RuntimeError):
    """A game of the run failed; names its seed and seating so it can be played again.

    Worker processes send exceptions back pickled, and the default pickling of an
    exception would call ``__init__`` with the message alone, so :meth:`__reduce__` keeps
    the seed and seats across the process boundary.
    """

    def __init__(self, message: str, *, seed: int, seats: tuple[str, ...], details: str = ""):
        super().__init__(message)
        self.seed = seed
        self.seats = seats
        #: The worker's traceback, for a developer (the message is the one-line summary).
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (str(self), self.seed, self.seats, self.details))


def _rebuild_error(message: str, seed: int, seats: tuple[str, ...], details: str) -> ArenaGameError:
    return ArenaGameError(message, seed=seed, seats=seats, details=details)


# ---------------------------------------------------------------------- statistics
#: Two-sided 95% quantiles of Student's t by degrees of freedom (the largest listed at or
#: below the degrees of freedom is used; the normal 1.96 beyond 29).
T95 = {
    1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
    10: 2.23, 11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 19: 2.09, 24: 2.06, 29: 2.05,
}  # fmt: skip


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% t interval (NaN for one value):
    what a bench reports for scores or paired differences over a few dozen seeds."""
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return mean, math.nan
    df = len(values) - 1
    t = T95[max(k for k in T95 if k <= df)] if df <= 29 else 1.96
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / df)
    return mean, t * spread / math.sqrt(len(values))


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    Wilson rather than the textbook ``p ± z·sqrt(p(1-p)/n)``: that one collapses to a
    zero-width interval at 0% or 100% and leaves [0, 1] for small samples, which is exactly
    where an arena run of a few dozen games lives. Fractional wins (shared victories) are
    accepted as they are.
    """
    if games <= 0:
        return (0.0, 1.0)
    p = min(max(wins / games, 0.0), 1.0)
    z2 = z * z
    denominator = 1.0 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / games + z2 / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class RatingBook:
    """Openskill Plackett-Luce ratings per bot label, updated game by game from the ranks.

    Two adjustments to plain ``model.rate``:

    * Ties. openskill 6's Plackett-Luce mishandles tied ranks (a third place can gain as
      much as the tied winners; vivekjoshy/openskill.py#155 and #176). A tie is therefore
      rated as the average of the updates for every strict order the tied seats could be
      put in, which is symmetric in the tied seats and never rewards a worse rank.
    * One label in several seats. Each seat is rated as its own team with the label's
      current rating; the label then takes the sum of its seats' mu changes and the
      product of their sigma shrinkages, as if those updates had been applied one after
      another. Mirror seats cancel out: four copies of one bot leave its mu where it was.
    """

    def __init__(self, labels: Sequence[str]):
        self.model = PlackettLuce(mu=RATING_MU, sigma=RATING_SIGMA, tau=RATING_TAU)
        self.ratings: dict[str, tuple[float, float]] = {
            label: (RATING_MU, RATING_SIGMA) for label in labels
        }

    def update(self, seat_labels: Sequence[str], ranks: Sequence[int]) -> None:
        """Rate one finished game: ``seat_labels[s]`` finished with rank ``ranks[s]``.

        A solo game (Egyptia's) has no one to be ranked against and leaves the rating alone.
        """
        n = len(seat_labels)
        if n < 2:
            return
        orders = _strict_orders(ranks)
        mu_sum = [0.0] * n
        sigma_sum = [0.0] * n
        for order in orders:
            teams = [[self.model.rating(*self.ratings[label])] for label in seat_labels]
            rated = self.model.rate(teams, ranks=[float(r) for r in order])
            for seat, team in enumerate(rated):
                mu_sum[seat] += team[0].mu
                sigma_sum[seat] += team[0].sigma
        new = dict(self.ratings)
        for label in set(seat_labels):
            mu, sigma = self.ratings[label]
            new_mu, new_sigma = mu, sigma
            for seat in range(n):
                if seat_labels[seat] == label:
                    new_mu += mu_sum[seat] / len(orders) - mu
                    new_sigma *= (sigma_sum[seat] / len(orders)) / sigma
            new[label] = (new_mu, new_sigma)
        self.ratings = new


def _strict_orders(ranks: Sequence[int]) -> list[list[int]]:
    """Every way to break the ties in ``ranks`` into distinct ranks 1..n (one if no ties)."""
    groups: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        groups.setdefault(rank, []).append(seat)
    ordered = [groups[rank] for rank in sorted(groups)]
    if all(len(g) == 1 for g in ordered):
        return [list(ranks)]
    if math.prod(math.factorial(len(g)) for g in ordered) > MAX_TIE_ORDERS:
        return [list(ranks)]
    orders = []
    for permuted in itertools.product(*(itertools.permutations(g) for g in ordered)):
        order = [0] * len(ranks)
        for position, seat in enumerate(itertools.chain.from_iterable(permuted), start=1):
            order[seat] = position
        orders.append(order)
    return orders


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class GameOutcome:
    """One game of a run: who sat where and how it ended."""

    index: int
    seed: int
    #: The bot spec (row label) in each seat.
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    #: Per seat: decisions taken and the wall-clock seconds spent choosing them.
    decisions: tuple[int, ...]
    think_seconds: tuple[float, ...]


@dataclass(frozen=True)
class BotRow:
    """The totals of one bot spec over the run (all its entries in the list together)."""

    bot: str
    #: Positions of this spec in the list given to :func:`run_arena`.
    entries: tuple[int, ...]
    #: Seat-games: one per game per entry, so three identical entries count three per game.
    games: int
    #: Seat-games by seat index; equal when the number of games is a multiple of the seats.
    seat_games: tuple[int, ...]
    #: Victories, a shared one counting 1/k for each of its k winners.
    wins: float
    #: Seat-games won jointly with another seat.
    shared_wins: int
    total_score: int
    total_rank: int
    mu: float
    sigma: float
    decisions: int
    think_seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.total_rank / self.games if self.games else 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma: what the bot is very likely at least worth."""
        return self.mu - 3.0 * self.sigma

    @property
    def think_per_decision(self) -> float | None:
        """Mean wall-clock seconds per decision (``None`` if it never had to decide)."""
        return self.think_seconds / self.decisions if self.decisions else None

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        low, high = self.win_interval
        data: dict[str, Any] = {
            "bot": self.bot,
            "entries": list(self.entries),
            "games": self.games,
            "seat_games": list(self.seat_games),
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "win_rate": self.win_rate,
            "win_interval": [low, high],
            "mean_score": self.mean_score,
            "mean_rank": self.mean_rank,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
            "decisions": self.decisions,
        }
        if timings:
            data["think_seconds_per_decision"] = self.think_per_decision
        return data


@dataclass(frozen=True)
class ArenaResult:
    """A whole run: its settings, one row per distinct bot spec, and every game."""

    game: str
    title: str
    specs: tuple[str, ...]
    seat_names: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any]
    rows: tuple[BotRow, ...]
    outcomes: tuple[GameOutcome, ...]
    elapsed_seconds: float

    @property
    def players(self) -> int:
        return len(self.specs)

    @property
    def balanced(self) -> bool:
        """True when every entry sat in every seat equally often."""
        return self.games % self.players == 0

    @property
    def shared_games(self) -> int:
        """Games that ended in a shared victory."""
        return sum(1 for o in self.outcomes if len(o.winners) > 1)

    @property
    def mean_actions(self) -> float:
        return sum(o.actions for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    def row(self, bot: str) -> BotRow:
        """The row of ``bot`` (a spec, compared as ``make_bot`` reads it)."""
        label = normalise_spec(bot)
        for row in self.rows:
            if row.bot == label:
                return row
        raise KeyError(bot)

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """The run as one JSON object; ``timings=False`` leaves out every clock reading.

        Without timings the object depends only on the arguments (for bots with iteration
        budgets), which makes two runs comparable byte for byte.
        """
        data: dict[str, Any] = {
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "specs": list(self.specs),
            "seat_names": list(self.seat_names),
            "games": self.games,
            "seeds": [self.seed, self.seed + self.games - 1],
            "options": dict(self.options),
            "balanced": self.balanced,
            "shared_games": self.shared_games,
            "mean_actions": self.mean_actions,
            "rating_model": {
                "name": "openskill PlackettLuce",
                "mu": RATING_MU,
                "sigma": RATING_SIGMA,
                "tau": RATING_TAU,
                "ordinal": "mu - 3 sigma",
            },
            "bots": [row.to_json(timings=timings) for row in self.rows],
        }
        if timings:
            data["elapsed_seconds"] = self.elapsed_seconds
        return data


# ---------------------------------------------------------------------- playing
def normalise_spec(spec: str) -> str:
    """A spec as :func:`make_bot` reads it, so ``Random`` and ``random`` are one row."""
    return spec.strip().lower()


def seating(specs: Sequence[str], index: int) -> tuple[str, ...]:
    """The spec in each seat for game ``index``: seat ``s`` gets ``specs[(s + i) % n]``."""
    n = len(specs)
    return tuple(specs[(seat + index) % n] for seat in range(n))


def bot_rngs(seed: int, seats: int) -> list[Rng]:
    """The bots' generators for the game with ``seed``: one per seat, from nothing else.

    The derivation is the one ``karnak simulate`` uses, so a game of an arena run can be
    played alone with ``karnak simulate --seed SEED --games 1 --bots <the seating>``.
    """
    master = Rng(seed ^ 0x5EED_5EED)
    return [master.fork() for _ in range(seats)]


def play_game(
    game: Game,
    seats: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    index: int = 0,
    styled: Collection[str] = (),
) -> GameOutcome:
    """Play one arena game with fresh bots and time each decision; the bots of the specs in
    ``styled`` play their seat's style (see the module's notes).

    The loop is :func:`karnak.bots.base.play_out` with a clock around ``choose``: the same
    order of seats and the same checked ``apply``, so the game is the one ``simulate``
    plays. Any failure is re-raised as :class:`ArenaGameError` naming the seed.
    """
    try:
        names = game.seat_names(len(seats))
        bots: list[Bot] = [
            make_bot(spec, game, style=seat_style(seed, seat) if spec in styled else None)
            for seat, spec in enumerate(seats)
        ]
        rngs = bot_rngs(seed, len(seats))
        state = game.new_state(names, seed=seed, options=dict(options))
        decisions = [0] * len(seats)
        thinking = [0.0] * len(seats)
        clock = time.perf_counter
        while not state.is_over():
            seat = state.to_move()[0]
            view = SeatView.of(state, seat)
            started = clock()
            action = bots[seat].choose(view, rngs[seat])
            thinking[seat] += clock() - started
            decisions[seat] += 1
            state.apply(seat, action)
        return GameOutcome(
            index=index,
            seed=seed,
            seats=tuple(seats),
            scores=tuple(state.scores()),
            ranks=tuple(state.ranks()),
            winners=tuple(state.winners()),
            actions=len(state.history),
            decisions=tuple(decisions),
            think_seconds=tuple(thinking),
        )
    except Exception as exc:
        raise _game_error(exc, seed, tuple(seats)) from exc


def _game_error(exc: Exception, seed: int, seats: tuple[str, ...]) -> ArenaGameError:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    message = (
        f"the game with seed {seed} failed, seats {', '.join(seats)}: "
        f"{type(exc).__name__}: {exc}{where}"
    )
    details = "".join(traceback.format_exception(exc))
    return ArenaGameError(message, seed=seed, seats=seats, details=details)


# What a worker process plays: set once per process by the pool's initializer, so the game
# (with its board) is pickled once per worker rather than once per game.
_WORKER: tuple[Game, dict[str, Any], frozenset[str]] | None = None


def _init_worker(game: Game, options: dict[str, Any], styled: frozenset[str] = frozenset()) -> None:
    global _WORKER
    _WORKER = (game, options, styled)


def _worker_game(index: int, seed: int, seats: tuple[str, ...]) -> GameOutcome:
    assert _WORKER is not None, "the arena worker was not initialised"
    game, options, styled = _WORKER
    return play_game(game, seats, seed, options, index, styled)


#: One game of a run's plan: its index, its seed and the spec in each seat.
PlannedGame = tuple[int, int, tuple[str, ...]]

#: Plays a run's games somewhere other than this module's processes (Ray's tasks:
#: :class:`karnak.bots.arena_ray.RayRunner`): given the game, its resolved options, the
#: styled rows and the plan, it returns each game's :func:`play_game` outcome in plan order,
#: calls ``progress`` with the number of games finished so far, and raises the first
#: :class:`ArenaGameError`.
GameRunner = Callable[
    [Game, dict[str, Any], frozenset[str], list[PlannedGame], Callable[[int], None] | None],
    list[GameOutcome],
]


def run_arena(
    game: Game,
    specs: list[str],
    games: int,
    seed: int,
    options: dict[str, Any],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    styled: Collection[str] = (),
    runner: GameRunner | None = None,
) -> ArenaResult:
    """Play ``games`` games between ``specs`` (one per seat) and total them per bot spec;
    the bots of the specs in ``styled`` play their seat's style in each game.

    ``len(specs)`` is the number of players. Use a multiple of it for ``games`` so that
    every entry sits in every seat equally often. ``jobs`` > 1 plays games in that many
    processes; the result is the same as with ``jobs=1`` whenever the bots are
    deterministic for a seed (no time budgets). ``progress`` is called in this process
    with the number of games finished so far, after each game. A ``runner`` plays the games
    instead of this module (``jobs`` is then unused): the plan, the seeds and every game are
    the same, so the result is too.

    Raises :class:`~karnak.bots.base.UnknownBotError` or
    :class:`~karnak.bots.base.BotSpecError` for a bad spec and
    :class:`~karnak.core.errors.InvalidOptionError` for a bad player count or option,
    before any game starts, and :class:`ArenaGameError` (with the seed) if a game fails.
    """
    if games < 1:
        raise ValueError(f"an arena needs at least one game, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    labels = [normalise_spec(spec) for spec in specs]
    styles = frozenset(normalise_spec(spec) for spec in styled)
    game.check_player_count(len(labels))
    resolved = game.resolve_options(options)
    for label in dict.fromkeys(labels):
        make_bot(label, game)  # a bad name or budget fails here, not in a worker

    started = time.perf_counter()
    plan = [(i, seed + i, seating(labels, i)) for i in range(games)]
    if runner is not None:
        outcomes = runner(game, resolved, styles, plan, progress)
    elif jobs == 1:
        outcomes = []
        for index, game_seed, seats in plan:
            outcomes.append(play_game(game, seats, game_seed, resolved, index, styles))
            if progress is not None:
                progress(len(outcomes))
    else:
        outcomes = _run_parallel(game, resolved, plan, min(jobs, games), progress, styles)
    elapsed = time.perf_counter() - started

    return _tally(game, labels, games, seed, resolved, outcomes, elapsed)


def _run_parallel(
    game: Game,
    options: dict[str, Any],
    plan: list[tuple[int, int, tuple[str, ...]]],
    jobs: int,
    progress: Callable[[int], None] | None,
    styled: frozenset[str] = frozenset(),
) -> list[GameOutcome]:
    """Play ``plan`` over ``jobs`` processes; stop at the first failure and re-raise it.

    On failure the games not yet started are cancelled rather than awaited, so a broken
    engine does not make the user sit through the rest of the run first.
    """
    executor = ProcessPoolExecutor(
        max_workers=jobs, initializer=_init_worker, initargs=(game, options, styled)
    )
    outcomes: list[GameOutcome] = []
    try:
        pending: set[Future[GameOutcome]] = {
            executor.submit(_worker_game, index, game_seed, seats)
            for index, game_seed, seats in plan
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.exception() is None):
                outcomes.append(future.result())  # raises the first failure
                if progress is not None:
                    progress(len(outcomes))
    except BaseException:
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True)
    outcomes.sort(key=lambda o: o.index)
    return outcomes


def _tally(
    game: Game,
    labels: list[str],
    games: int,
    seed: int,
    options: dict[str, Any],
    outcomes: Sequence[GameOutcome],
    elapsed: float,
) -> ArenaResult:
    """Total the games per bot spec; ratings follow the games in seed order."""
    n = len(labels)
    rows = list(dict.fromkeys(labels))
    book = RatingBook(rows)
    seat_games = {label: [0] * n for label in rows}
    count = dict.fromkeys(rows, 0)
    wins = dict.fromkeys(rows, 0.0)
    shared = dict.fromkeys(rows, 0)
    score = dict.fromkeys(rows, 0)
    rank = dict.fromkeys(rows, 0)
    decisions = dict.fromkeys(rows, 0)
    thinking = dict.fromkeys(rows, 0.0)
    for outcome in outcomes:
        for seat, label in enumerate(outcome.seats):
            seat_games[label][seat] += 1
            count[label] += 1
            score[label] += outcome.scores[seat]
            rank[label] += outcome.ranks[seat]
            decisions[label] += outcome.decisions[seat]
            thinking[label] += outcome.think_seconds[seat]
            if seat in outcome.winners:
                wins[label] += 1 / len(outcome.winners)
                if len(outcome.winners) > 1:
                    shared[label] += 1
        book.update(outcome.seats, outcome.ranks)
    return ArenaResult(
        game=game.name,
        title=game.title,
        specs=tuple(labels),
        seat_names=tuple(game.seat_names(n)),
        games=games,
        seed=seed,
        options=options,
        rows=tuple(
            BotRow(
                bot=label,
                entries=tuple(i for i, other in enumerate(labels) if other == label),
                games=count[label],
                seat_games=tuple(seat_games[label]),
                wins=wins[label],
                shared_wins=shared[label],
                total_score=score[label],
                total_rank=rank[label],
                mu=book.ratings[label][0],
                sigma=book.ratings[label][1],
                decisions=decisions[label],
                think_seconds=thinking[label],
            )
            for label in rows
        ),
        outcomes=tuple(outcomes),
        elapsed_seconds=elapsed,
    )
