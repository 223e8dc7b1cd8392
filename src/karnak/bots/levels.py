"""Bot levels named by strength: what a person chooses ("easy" to "master") and the real
bot and think time each one is in every game.

A person choosing an opponent thinks in strength, not in bot specs, so the lobby and
``karnak play --opponents`` offer five levels. Each is a spec of the registry
(:func:`karnak.bots.make_bot`), chosen per game from the measured strengths
(``bench/results``): ``random`` loses every game to the heuristic, each game's
``heuristic`` is instant, and the search gains on it as it thinks longer (against the
heuristic at 0.25 s a move, over 200 games each: Aton 79.5%, Egyptia with two builders
71.2%, Amun-Re against three 61.0%; ``bench/results/think_time.md``). The searching levels
are ``ismcts``. The ``judged`` search (:mod:`karnak.bots.judge`: a learned judge, mixed sealed
moves) is not a level: at equal iterations it lost to ``ismcts`` in Aton (issue 35's note).
"master" thinks four seconds a move, four times "expert"; a person chooses it, it is never
a table's default.

A server bounds what the bots of one game may think together (``max_game_think``) and
what one decision may take (``max_think``). At a big table (Egyptia seats up to 98 bots)
a searching level therefore thinks less: the longest time of :data:`LADDER` that fits
the table, and the instant heuristic when none does. The levels are the same names
everywhere; only their think time shrinks to what the server can carry.

The default level is the strongest whose bots, each deciding once, think at most
:data:`PRACTICAL_TABLE_THINK` together: strong opponents at a small table, quick ones at a
big table, where a person would otherwise wait minutes for every round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from karnak.bots.base import (
    BotSpecError,
    available_bots,
    parse_budget,
    split_style,
    takes_budget,
)
from karnak.core.registry import get_plugin

if TYPE_CHECKING:
    from karnak.core.game import Game

#: The levels, weakest first.
LEVELS = ("easy", "medium", "hard", "expert", "master")
#: The levels a table may start at by default: "master" thinks four times as long as
#: "expert" for a small gain, a wait a person chooses rather than meets unasked.
DEFAULT_LEVELS = LEVELS[:-1]

#: Each level's bot in every game, unless the game's plugin names its own
#: (:attr:`~karnak.core.plugin.GamePlugin.levels`); the three games use these since Aton's
#: search got fast.
STANDARD_LEVELS = {
    "easy": "random",
    "medium": "heuristic",
    "hard": "ismcts:0.25s",
    "expert": "ismcts:1s",
    "master": "ismcts:4s",
}


def game_levels(name: str) -> dict[str, str]:
    """Each level's bot spec in the game ``name``."""
    return {**STANDARD_LEVELS, **get_plugin(name).levels}


def level_of(spec: str, game: Game | str) -> str | None:
    """The level whose bot the spec ``spec`` is in ``game`` (a game or its name), the
    reverse of :func:`game_levels` and :func:`level_spec`: ``heuristic`` is "medium",
    ``ismcts:1s`` "expert" in the three games. A searching level stepped down to a shorter
    think time at a big table (:data:`LADDER`) is still its level; a style
    (``heuristic@style=3``) changes nothing. None for a spec that is no level's bot
    (``ismcts:5000``, an unknown name)."""
    name = game if isinstance(game, str) else game.name
    try:
        base = split_style(spec)[0]
    except BotSpecError:
        return None
    bot, _, budget = base.partition(":")
    table = game_levels(name)
    for level in LEVELS:
        if table[level] == base:
            return level
    if not budget:
        return None
    try:
        seconds = parse_budget(budget).seconds
    except BotSpecError:
        return None
    if seconds is None or seconds not in LADDER:
        return None
    # A think time of the ladder: the weakest searching level of this bot that thinks at
    # least that long (the level it was stepped down from).
    for level in LEVELS:
        own = table[level]
        if own.partition(":")[0] == bot and think_seconds(own) >= seconds:
            return level
    return None


#: The think times (seconds) a searching level steps down to when its own does not fit.
LADDER = (4.0, 2.0, 1.0, 0.5, 0.25, 0.1)

#: Seconds the bots of a table may think together, each deciding once, at the default
#: level (Amun-Re's four bots at 1 s a move: 4 s).
PRACTICAL_TABLE_THINK = 5.0


@dataclass(frozen=True)
class Level:
    """A level as offered to a person: its name, the bot spec it is, and a label."""

    name: str
    spec: str
    label: str


def is_level(name: str) -> bool:
    return name.strip().lower() in LEVELS


def think_seconds(spec: str) -> float:
    """The seconds a decision of the bot ``spec`` takes: its time budget, 0 for a bot that
    does not search (an iteration budget has no time of its own and counts 0 here)."""
    name, _, budget = split_style(spec)[0].partition(":")
    if not budget or not takes_budget(name):
        return 0.0
    seconds = parse_budget(budget).seconds
    return 0.0 if seconds is None else seconds


def describe(spec: str) -> str:
    """What the bot ``spec`` is, in a few words for a person."""
    name, _, _ = split_style(spec)[0].partition(":")
    seconds = think_seconds(spec)
    if seconds:
        return f"searches {seconds:g} s a move"
    return {"random": "plays at random", "heuristic": "rules of thumb, instant"}.get(name, name)


def _seconds_spec(name: str, seconds: float) -> str:
    return f"{name}:{seconds:g}s"


def level_spec(
    level: str,
    game: Game,
    bots: int = 1,
    *,
    max_think: float = math.inf,
    max_game_think: float = math.inf,
) -> str:
    """The bot spec of ``level`` in ``game`` at a table of ``bots`` bot seats, every one of
    them at this level, within the limits given (a server's; the terminal has none).

    A searching level that would think longer than ``max_think`` a move, or ``bots`` times
    its think time longer than ``max_game_think``, takes the longest time of :data:`LADDER`
    that fits; when none fits, the next weaker level that does.
    """
    wanted = level.strip().lower()
    if wanted not in LEVELS:
        raise BotSpecError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    table = game_levels(game.name)
    offered = available_bots(game)
    allowed = min(max_think, max_game_think / max(1, bots))
    for name in reversed(LEVELS[: LEVELS.index(wanted) + 1]):
        spec = table[name]
        bot = spec.partition(":")[0]
        if bot not in offered:
            continue
        seconds = think_seconds(spec)
        if seconds <= allowed:
            return spec
        for step in LADDER:
            if step <= min(seconds, allowed):
                return _seconds_spec(bot, step)
    return "random"


def levels(
    game: Game,
    bots: int = 1,
    *,
    max_think: float = math.inf,
    max_game_think: float = math.inf,
) -> list[Level]:
    """Every level for a table of ``bots`` bot seats, weakest first."""
    result = []
    for name in LEVELS:
        spec = level_spec(name, game, bots, max_think=max_think, max_game_think=max_game_think)
        result.append(Level(name, spec, f"{name.capitalize()}: {describe(spec)}"))
    return result


def default_level(
    game: Game,
    bots: int = 1,
    *,
    max_think: float = math.inf,
    max_game_think: float = math.inf,
) -> str:
    """The strongest level of :data:`DEFAULT_LEVELS` whose ``bots`` seats think at most
    :data:`PRACTICAL_TABLE_THINK` together, each deciding once (the weakest level when none
    does)."""
    offered = levels(game, bots, max_think=max_think, max_game_think=max_game_think)
    for level in reversed(offered[: len(DEFAULT_LEVELS)]):
        if think_seconds(level.spec) * max(1, bots) <= PRACTICAL_TABLE_THINK:
            return level.name
    return LEVELS[0]


def level_bands(
    game: Game, *, max_think: float = math.inf, max_game_think: float = math.inf
) -> list[dict[str, Any]]:
    """The levels for every number of bot seats a table of ``game`` can have, as runs of
    counts with the same levels (what a lobby needs to offer them)::

        [{"bots_from": 1, "bots_to": 5, "default": "expert",
          "levels": [{"name": "easy", "spec": "random", "label": "Easy: plays at random"},
                     ...]}, ...]
    """
    bands: list[dict[str, Any]] = []
    for bots in range(1, max(1, game.max_players) + 1):
        limits = {"max_think": max_think, "max_game_think": max_game_think}
        offered = [
            {"name": lv.name, "spec": lv.spec, "label": lv.label}
            for lv in levels(game, bots, **limits)
        ]
        default = default_level(game, bots, **limits)
        if bands and bands[-1]["levels"] == offered and bands[-1]["default"] == default:
            bands[-1]["bots_to"] = bots
        else:
            bands.append(
                {"bots_from": bots, "bots_to": bots, "default": default, "levels": offered}
            )
    return bands
