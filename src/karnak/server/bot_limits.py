"""How much a game's bots may think: checked when the game is created, enforced each move.

A search bot thinks for whatever budget its seat asks (``ismcts:1s``), and the workers in
which bots think are few, so an unbounded budget would stop every bot on the server. Three
limits of :class:`~karnak.server.limits.ServerSettings` bound it:

* ``max_think``: the seconds one decision may take;
* ``max_iterations``: the search iterations one decision may ask for;
* ``max_game_think``: the bot work of one game, the think times of its bot seats added up
  (one round in which every bot moves once costs at most that much worker time).

A time budget counts its own time. An iteration budget has no time of its own (the same
2000 iterations take about 3 s in Amun-Re, 10 s in Aton, over a minute at a big Egyptia
table), so it counts the time it would take at :data:`ITERATIONS_PER_SECOND`, and never
more than ``max_think``, which is the most it may take anyway: at every move it thinks
until its iterations are done or ``max_think`` has passed, whichever comes first. An
estimate that turns out low (a big Egyptia table) costs time only up to ``max_think``; one
that turns out high only refuses a game sooner, and never cuts a search short. A bot that
does not search counts nothing.

:func:`check_bots` refuses a new game over a limit. Games stored before the limits (or by a
server started with larger ones) are not refused but bounded: :func:`think_limit` gives each
seat at most ``max_think``, and when the game's bots together ask more than
``max_game_think``, a share of it in proportion to what each asks. So a game loaded at a
restart moves again however much its bots once asked for.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from karnak.bots.base import Bot, Budget, make_bot
from karnak.core.registry import get_game
from karnak.i18n import t
from karnak.server.limits import LimitError, ServerSettings

if TYPE_CHECKING:
    from karnak.core.game import Game

#: Iterations a second by which an iteration budget is counted toward its game's total.
#: Measured on one core: Amun-Re about 600, Aton about 200, Egyptia 175 with two builders
#: down to 25 with forty; 100 is on the slow side of the usual tables.
ITERATIONS_PER_SECOND = 100.0


@runtime_checkable
class Searching(Protocol):
    """A bot that searches within a budget and can be asked to stop (ISMCTS)."""

    budget: Budget
    stop: Callable[[], bool] | None


def search_budget(spec: str, game: Game) -> Budget | None:
    """The budget the bot ``spec`` searches with (its default when the spec names none);
    None for a bot that does not search."""
    bot = make_bot(spec, game)
    return bot.budget if isinstance(bot, Searching) else None


def _charge(budget: Budget | None, settings: ServerSettings) -> float:
    if budget is None:
        return 0.0
    seconds = math.inf if budget.seconds is None else budget.seconds
    if budget.iterations is not None:
        seconds = min(seconds, budget.iterations / ITERATIONS_PER_SECOND)
    return min(seconds, settings.max_think)


def charge(spec: str, game: Game, settings: ServerSettings) -> float:
    """The seconds a bot ``spec`` counts toward its game's ``max_game_think`` (see above)."""
    return _charge(search_budget(spec, game), settings)


def _seconds(value: float) -> str:
    return f"{value:.3g} s"


def check_bots(specs: Sequence[str | None], game: Game, settings: ServerSettings) -> None:
    """Refuse (LimitError, 422) a new game whose bots (``specs``, None for a person's seat)
    ask for more than the server allows; the message says how to stay within it."""
    total = 0.0
    for spec in specs:
        if spec is None:
            continue
        budget = search_budget(spec, game)
        if budget is None:
            continue
        if budget.seconds is not None and budget.seconds > settings.max_think:
            raise LimitError(
                t(
                    "a bot may think at most {most} a move on this server (asked {spec}); "
                    "ask for {seconds}s or less",
                    most=_seconds(settings.max_think),
                    spec=spec,
                    seconds=format(settings.max_think, "g"),
                )
            )
        if budget.iterations is not None and budget.iterations > settings.max_iterations:
            raise LimitError(
                t(
                    "a bot may search at most {most} iterations a move on this server "
                    "(asked {spec}); ask for {most} or fewer",
                    most=settings.max_iterations,
                    spec=spec,
                )
            )
        total += _charge(budget, settings)
    if total > settings.max_game_think + 1e-9:
        raise LimitError(
            t(
                "the bots of one game may think at most {most} together on this server, and "
                "these ask {asked} (an iteration budget counts {iterations} iterations as 1 s); "
                "give them shorter times or seat fewer search bots",
                most=_seconds(settings.max_game_think),
                asked=_seconds(total),
                iterations=format(ITERATIONS_PER_SECOND, "g"),
            )
        )


def think_limit(
    specs: Sequence[str | None], seat: int, game: Game, settings: ServerSettings
) -> float:
    """The longest seat ``seat`` may think for one decision: ``max_think``, or when its
    game's bots together ask more than ``max_game_think`` (a game stored before the limits),
    its share of that, in proportion to what it asks."""
    return _think_limits(tuple(specs), game.name, settings)[seat]


@functools.lru_cache(maxsize=1024)
def _think_limits(
    specs: tuple[str | None, ...], game_name: str, settings: ServerSettings
) -> tuple[float, ...]:
    # Cached: a table of 99 builders would otherwise build 99 bots for every decision.
    game = get_game(game_name)
    charges = [0.0 if spec is None else charge(spec, game, settings) for spec in specs]
    total = sum(charges)
    if total <= settings.max_game_think:
        return (settings.max_think,) * len(specs)
    return tuple(part * settings.max_game_think / total for part in charges)


def bound(
    bot: Bot,
    *,
    seconds: float,
    iterations: int,
    stop: Callable[[], bool] | None = None,
) -> Bot:
    """``bot`` made to decide within ``seconds`` and ``iterations`` (whatever its own budget
    asks), and to stop early when ``stop()`` says so. A bot that does not search is quick
    by nature and is returned as it is."""
    if isinstance(bot, Searching):
        asked = bot.budget
        bot.budget = Budget(
            seconds=seconds if asked.seconds is None else min(asked.seconds, seconds),
            iterations=None if asked.iterations is None else min(asked.iterations, iterations),
        )
        bot.stop = stop
    return bot


_DURATION = re.compile(r"^(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>ms|s|min|)$")


def parse_duration(text: str) -> float:
    """Seconds from ``10s``, ``2.5s``, ``500ms``, ``2min`` or a bare number of seconds;
    ValueError for anything else."""
    match = _DURATION.match(text.strip().lower())
    if not match:
        raise ValueError(f"cannot read the time {text!r}: write it like 10s, 2.5s or 500ms")
    value = float(match["value"])
    return value * {"ms": 0.001, "s": 1.0, "": 1.0, "min": 60.0}[match["unit"]]
