"""What every command shares: consoles, one way to fail, game and option lookup, seat colours.

Every command reports a problem the same way (one red line on stderr and a non-zero exit,
never a traceback), so the error handling lives here once instead of in each command.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand

from karnak.bots import available_bots
from karnak.core import Game, KarnakError, get_game
from karnak.core.registry import plugin_for, plugins
from karnak.core.safe_text import safe_lines
from karnak.i18n import t

#: Width used when output is not a terminal (pipes, files, tests): wide enough that the
#: province table never folds, since nobody resizes a pipe.
PIPE_WIDTH = 150

#: Exit codes: 1 for a failure while working, 2 for arguments that make no sense.
EXIT_FAILURE = 1
EXIT_USAGE = 2

#: Seats at a table when the command line does not say (where the game allows it).
PREFERRED_PLAYERS = 4


def flag_option(*names: str, **settings: Any) -> Any:
    """A yes-or-no option given by its name alone (``--json``): shown as a flag, without the
    ``<bool>`` Typer shows by default, which reads as if it took a value."""
    return typer.Option(*names, metavar="", **settings)


#: The words a flag also takes after it (``--offer-cards yes``, ``--offer-cards=false``).
YES_WORDS = frozenset({"true", "yes", "on", "1", "y"})
NO_WORDS = frozenset({"false", "no", "off", "0", "n"})


def flag_words(params: list[Any], args: list[str]) -> list[str]:
    """``args`` with each yes-or-no flag followed by a word (``--offer-cards true``, or
    ``--offer-cards=no``) written as the flag alone, or left out for a no. A flag given
    ``=`` with another word is a usage error that names the words it takes."""
    flags = {
        name
        for param in params
        if getattr(param, "is_flag", False) and not getattr(param, "secondary_opts", None)
        for name in param.opts
        if name.startswith("--")
    }
    out: list[str] = []
    words = iter(args)
    for arg in words:
        if arg == "--":  # what follows is literal
            out.append(arg)
            out.extend(words)
            break
        name, equals, value = arg.partition("=")
        if name not in flags:
            out.append(arg)
            continue
        if not equals:
            out.append(arg)
            following = next(words, None)
            if following is None:
                break
            if following.lower() in YES_WORDS:
                continue
            if following.lower() in NO_WORDS:
                out.pop()
                continue
            out.append(following)
            continue
        if value.lower() in YES_WORDS:
            out.append(name)
        elif value.lower() not in NO_WORDS:
            raise typer.BadParameter(
                t(
                    "a flag: give it alone to turn it on (or {name}=yes, {name}=no), not {value!r}",
                    name=name,
                    value=value[:40],
                ),
                param_hint=name,
            )
    return out


class FlagWordsCommand(TyperCommand):
    """A command whose yes-or-no flags are flags (given alone) that also accept a yes or no
    word after them, as people write them (``--offer-cards true``); its help shows no
    ``<bool>`` after ``--help`` either."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, flag_words(self.get_params(ctx), args))

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option


# The game-option flags shared by ``play`` and ``simulate``, declared once so that both
# commands spell and explain them the same way.
GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help="The game (`karnak games` lists them), e.g. amunre."),
]
EditionOpt = Annotated[str | None, typer.Option(help="Card and phase names: 2003 or 2016.")]
ExpertOpt = Annotated[
    bool,
    flag_option("--expert-provinces", help="2016 expert rules: pick provinces from a hand."),
]
OfferCardsOpt = Annotated[
    bool, flag_option("--offer-cards", help="Power cards may be offered for 1 gold each.")
]
BoardOpt = Annotated[
    Path | None, typer.Option(help="A corrected board file (see: karnak board GAME --dump).")
]
CardsOpt = Annotated[
    str | None,
    typer.Option(
        "--cards",
        help="Egyptia: the Pharaoh cards, e.g. A2,B2,C3,D2,E3 (letters left out are drawn).",
    ),
]


class CliError(Exception):
    """A problem to report in one line; ``code`` is the process exit status."""

    def __init__(self, message: str, code: int = EXIT_FAILURE):
        super().__init__(message)
        self.code = code


def make_console(*, stderr: bool = False, wrap: bool = False) -> Console:
    """A console on stdout (or stderr) that does not fold tables when output is piped.

    Rich falls back to 80 columns when it cannot ask a terminal; the game tables need more,
    so pipes get :data:`PIPE_WIDTH` unless the user set ``COLUMNS`` explicitly.

    ``wrap`` (a game's screens): prose wraps between words at the console's width (a
    terminal left to wrap it cuts words); a line meant to be copied there (a path, a
    command) is printed with ``soft_wrap=True``. Without it (reports, errors) a line stays
    one line, as scripts and log readers expect.
    """
    stream = sys.stderr if stderr else sys.stdout
    width: int | None = None
    if not _is_tty(stream) and "COLUMNS" not in os.environ:
        width = PIPE_WIDTH
    return Console(file=stream, width=width, highlight=False, soft_wrap=not wrap)


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn :class:`CliError` and Karnak's own errors into a message and an exit code.

    Programming errors are left alone on purpose: hiding them would make bugs invisible.
    """
    try:
        yield
    except CliError as exc:
        _report(str(exc))
        raise typer.Exit(exc.code) from None
    except KarnakError as exc:
        _report(str(exc))
        raise typer.Exit(EXIT_FAILURE) from None


def _report(message: str) -> None:
    """One error on stderr (a message may quote a record or a file: it is made safe)."""
    err = make_console(stderr=True)
    err.print(Text("Error: ", style="bold red") + Text(safe_lines(message)))


def resolve_game(name: str) -> Game:
    """The registered game called ``name``; an unknown name lists the games that exist."""
    try:
        return get_game(name)
    except KarnakError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


def has_board_data(game: Game) -> bool:
    """Whether ``game`` has a board data file that a corrected copy may replace."""
    return plugin_for(game).board_data is not None and getattr(game, "with_board", None) is not None


def _board_module(game: Game) -> ModuleType:
    """The module that reads ``game``'s board files; a game without one takes no file."""
    module = plugin_for(game).board_data
    if module is None or getattr(game, "with_board", None) is None:
        raise CliError(f"{game.title} takes no board file", EXIT_USAGE)
    return importlib.import_module(module)


def load_board_for(game: Game, board_path: Path | None) -> Game:
    """``game`` played on the corrected board file at ``board_path`` (if one is given)."""
    if board_path is None:
        return game
    module = _board_module(game)
    try:
        board = module.load_board(board_path)
    except KarnakError:
        raise
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        # The reader names most mistakes itself; a shape it did not expect (a number where
        # a table belongs, say) must still be one clear line, not a traceback.
        raise CliError(
            f"{board_path} is not a valid {game.title} board file: a value has the wrong "
            f"type or shape ({exc})"
        ) from None
    corrected: Game = game.with_board(board)  # type: ignore[attr-defined]
    return corrected


def board_file_text(game: Game, board_path: Path | None = None) -> str:
    """The text of the board file at ``board_path``, or of the one ``game`` ships with."""
    if board_path is not None:
        try:
            return board_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot read {board_path}: {exc.strerror or exc}") from None
    module = _board_module(game)
    shipped = getattr(module, "default_board_text", None)
    if shipped is not None:
        text: str = shipped()
        return text
    return Path(module.DEFAULT_BOARD).read_text(encoding="utf-8")


def default_players(game: Game) -> int:
    """How many seats a table of ``game`` has when nobody says: 4, or the game's own default
    (Egyptia: 1, played alone), within what the game allows."""
    preferred = plugin_for(game).table.players or PREFERRED_PLAYERS
    return max(game.min_players, min(preferred, game.max_players))


def players_help() -> str:
    """The ``--players`` help: the default seat count and the games that differ."""
    others = ", ".join(
        f"{name} {plugin.table.players}"
        for name, plugin in plugins().items()
        if plugin.table.players is not None
    )
    return f"Number of seats (default {PREFERRED_PLAYERS}; {others}; or what the game allows)."


def players_text(game: Game) -> str:
    """``3 to 5 players``, or ``exactly 2 players`` for a game with one player count."""
    if game.min_players == game.max_players:
        return f"exactly {game.min_players} players"
    return f"{game.min_players} to {game.max_players} players"


def option_values(
    game: Game,
    *,
    edition: str | None = None,
    expert_provinces: bool = False,
    offer_cards: bool = False,
    cards: str | None = None,
) -> dict[str, Any]:
    """Resolve the option flags against ``game``'s declared options.

    Only flags the user set are passed on, so a game without (say) editions is not
    bothered by the default of a flag it never declared.
    """
    given: dict[str, Any] = {}
    if edition is not None:
        given["edition"] = edition
    if expert_provinces:
        given["expert_provinces"] = True
    if offer_cards:
        given["offer_cards"] = True
    if cards is not None:
        given["cards"] = cards
    try:
        return game.resolve_options(given)
    except KarnakError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


def check_players(game: Game, players: int) -> None:
    try:
        game.check_player_count(players)
    except KarnakError:
        raise CliError(
            f"{game.title} is for {players_text(game)}, not {players}", EXIT_USAGE
        ) from None


def bot_error(exc: KarnakError, game: Game) -> CliError:
    """A bad bot name or budget as a usage error that lists the bots ``game`` can seat.

    ``make_bot`` lists the bots for an unknown name but not for a bad budget; the person
    has the same question either way ("what may I write?"), so both answers list them.
    """
    message = str(exc)
    if "bots:" not in message:
        message += f" (bots for {game.title}: {', '.join(available_bots(game))})"
    return CliError(message, EXIT_USAGE)
