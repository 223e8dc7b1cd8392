"""The registry that builds bots from specs like ``ismcts:1s``, and their think budgets.

A spec may end with a style, ``heuristic@style=3`` or ``ismcts:1s@style=3``
(:class:`~karnak.core.knowledge.Style`: a mild, seeded variation of the game's weights and
random tie-breaks, so that bots of one level differ); ``@style=0`` or none plays the bot's
plain weights. A caller that seats bots (a server, the arena) may also give a style for
each seat (:func:`~karnak.core.knowledge.seat_style`); a style written in the spec wins.

The bot contract itself (:class:`Bot`, :class:`SeatView`) lives in :mod:`karnak.core.agent`,
so that a game's own heuristic can implement it without importing this layer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from karnak.core.agent import Bot, SeatView
from karnak.core.errors import KarnakError
from karnak.core.knowledge import STYLES, Style, make_style
from karnak.core.rng import Rng
from karnak.i18n import t

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.core.state import State

__all__ = ["Bot", "BotSpecError", "Budget", "SeatView", "UnknownBotError", "make_bot"]


@dataclass(frozen=True)
class Budget:
    """How long a search bot may think: wall-clock seconds or a number of iterations.

    An iteration budget makes a bot deterministic for a given seed; a time budget does not.
    """

    seconds: float | None = None
    iterations: int | None = None

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.seconds:g}s"
        return f"{self.iterations} iterations"


_BUDGET = re.compile(r"^(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>s|ms|it|)$")


def parse_budget(text: str) -> Budget:
    """``1s``, ``250ms``, ``0.5s`` (time) or ``2000`` / ``2000it`` (iterations)."""
    match = _BUDGET.match(text.strip().lower())
    if not match:
        raise BotSpecError(
            f"cannot read the budget {text!r}: write a time like 1s or 250ms, "
            "or a number of iterations like 2000"
        )
    value, unit = float(match["value"]), match["unit"]
    if unit in ("s", "ms"):
        seconds = value / 1000 if unit == "ms" else value
        if seconds <= 0:
            raise BotSpecError(t("a think time must be positive"))
        return Budget(seconds=seconds)
    if value != int(value) or value < 1:
        raise BotSpecError(t("an iteration budget is a whole number of at least 1"))
    return Budget(iterations=int(value))


class UnknownBotError(KarnakError, LookupError):
    pass


class BotSpecError(KarnakError, ValueError):
    pass


BotFactory = Callable[["Game", Budget | None], Bot]


@dataclass(frozen=True)
class _Entry:
    factory: BotFactory
    help: str
    takes_budget: bool
    #: Whether the bot plays a game (None: every game).
    available: Callable[[Game], bool] | None


_REGISTRY: dict[str, _Entry] = {}


def register_bot(
    name: str,
    factory: BotFactory,
    *,
    help: str,
    takes_budget: bool = False,
    available: Callable[[Game], bool] | None = None,
) -> None:
    _REGISTRY[name] = _Entry(factory, help, takes_budget, available)


def _load_builtin_bots() -> None:
    # Imported here so that ``karnak.bots.base`` stays importable on its own.
    import karnak.bots.heuristic
    import karnak.bots.ismcts
    import karnak.bots.judge
    import karnak.bots.learned
    import karnak.bots.random_bot  # noqa: F401

    _load_entry_point_bots()


#: The entry-point group through which other layers and packages offer bots (so that this
#: layer never imports them: ``karnak.envs.openspiel_bot`` sits above the bots).
ENTRY_POINT_GROUP = "karnak.bots"
_ENTRY_POINTS_LOADED = False


def _load_entry_point_bots() -> None:
    """Call each ``karnak.bots`` entry point's register function once; one that fails to
    load (an extra not installed) is skipped: its bot is simply not offered."""
    global _ENTRY_POINTS_LOADED
    if _ENTRY_POINTS_LOADED:
        return
    _ENTRY_POINTS_LOADED = True
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            point.load()()
        except Exception:
            continue


def _plays(entry: _Entry, game: Game) -> bool:
    return entry.available is None or entry.available(game)


def available_bots(game: Game | None = None) -> dict[str, str]:
    """Bot names (for ``game``, if given) with one line of help each."""
    _load_builtin_bots()
    return {
        name: entry.help
        for name, entry in sorted(_REGISTRY.items())
        if game is None or _plays(entry, game)
    }


def takes_budget(name: str) -> bool:
    """Whether the bot ``name`` searches and so accepts a think budget (``ismcts:1s``)."""
    _load_builtin_bots()
    entry = _REGISTRY.get(name.strip().lower())
    return entry is not None and entry.takes_budget


_STYLE = re.compile(r"^style=(?P<number>\d{1,6})$")


def split_style(spec: str) -> tuple[str, int | None]:
    """``ismcts:1s@style=3`` -> (``ismcts:1s``, 3); a spec without a style -> (spec, None).
    BotSpecError for a style that is not ``style=<number>`` in 0 .. STYLES."""
    base, at, tail = spec.strip().lower().partition("@")
    if not at:
        return base, None
    match = _STYLE.match(tail.strip())
    if not match or int(match["number"]) > STYLES:
        raise BotSpecError(
            f"cannot read the style {tail!r}: write it like @style=3 (a number from 0 to "
            f"{STYLES}; 0 is none)"
        )
    return base.strip(), int(match["number"])


def game_style(game: Game, number: int) -> Style:
    """Style ``number`` of ``game``: a variation of the weights its knowledge declares
    (random tie-breaks only for a game that declares none)."""
    from karnak.core.registry import plugin_for

    knowledge = plugin_for(game).load_knowledge()
    return make_style(number, knowledge.style_weights if knowledge is not None else {})


def make_bot(spec: str, game: Game, *, style: int | None = None) -> Bot:
    """Build a bot from ``name`` or ``name:budget`` (``ismcts:1s``, ``ismcts:2000``),
    optionally followed by ``@style=N``; ``style`` (a seat's style number) applies when the
    spec names none."""
    _load_builtin_bots()
    spec, written = split_style(spec)
    number = written if written is not None else style
    bot = _make_plain(spec, game)
    if number:
        bot = bot.with_style(game_style(game, number))
    return bot


def _make_plain(spec: str, game: Game) -> Bot:
    name, _, budget_text = spec.partition(":")
    entry = _REGISTRY.get(name)
    if entry is None or not _plays(entry, game):
        known = ", ".join(available_bots(game))
        raise UnknownBotError(
            t(
                "unknown bot {spec} for {game}; bots: {known}",
                spec=repr(spec),
                game=game.title,
                known=known,
            )
        )
    budget = None
    if budget_text:
        if not entry.takes_budget:
            raise BotSpecError(
                t(
                    "the {name} bot takes no budget (got {budget})",
                    name=name,
                    budget=repr(budget_text),
                )
            )
        budget = parse_budget(budget_text)
    return entry.factory(game, budget)


def play_out(state: State, bots: Sequence[Bot], rngs: Sequence[Rng]) -> None:
    """Let ``bots`` (one per seat) play ``state`` to the end through their seats' views."""
    while not state.is_over():
        seat = state.to_move()[0]
        action = bots[seat].choose(SeatView.of(state, seat), rngs[seat])
        state.apply(seat, action)
