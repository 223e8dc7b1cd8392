"""The ``karnak`` command: wires the sub-commands together and lists the games.

Each sub-command lives in its own module; this one only names them, so ``karnak --help``
reads as a table of contents.
"""

from __future__ import annotations

import typer
from rich.table import Table

from karnak import __version__
from karnak.cli.admin_cmd import admin_app
from karnak.cli.arena_cmd import ArenaCommand, arena_command
from karnak.cli.board_cmd import board_command
from karnak.cli.common import FlagWordsCommand, make_console, reported_errors
from karnak.cli.db_cmd import db_app
from karnak.cli.play import play_command
from karnak.cli.replay_cmd import replay_command
from karnak.cli.serve import serve_command
from karnak.cli.simulate import simulate_command
from karnak.cli.train_cmd import train_command
from karnak.core import available_games, get_game
from karnak.core.game import OptionSpec
from karnak.i18n import SUPPORTED, from_environment, normalise, t, use_language

app = typer.Typer(
    name="karnak",
    help=(
        "Karnak: Amun-Re, Aton and Egyptia in the terminal or the browser, with bots and "
        "replayable records."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("play", cls=FlagWordsCommand)(play_command)
app.command("simulate", cls=FlagWordsCommand)(simulate_command)
app.command("arena", cls=ArenaCommand)(arena_command)
app.command("replay", cls=FlagWordsCommand)(replay_command)
app.command("board", cls=FlagWordsCommand)(board_command)
app.command("serve", cls=FlagWordsCommand)(serve_command)
app.command("train", cls=FlagWordsCommand)(train_command)
app.add_typer(db_app)
app.add_typer(admin_app)


@app.command("games")
def games_command() -> None:
    """List the games Karnak can play, with their player counts and options."""
    console = make_console()
    with reported_errors():
        table = Table(title="Games", title_justify="left")
        table.add_column("Name")
        table.add_column("Title")
        table.add_column("Players", justify="right")
        table.add_column("Rules version", justify="right")
        table.add_column("Options")
        for name in available_games():
            game = get_game(name)
            options = "; ".join(option_text(spec) for spec in game.options)
            table.add_row(
                name,
                game.title,
                (
                    str(game.min_players)
                    if game.min_players == game.max_players
                    else f"{game.min_players}-{game.max_players}"
                ),
                game.version,
                options or "none",
            )
        console.print(table)


def option_text(spec: OptionSpec) -> str:
    """One option as ``karnak games`` lists it: its name, its default when it has one
    (an empty default, such as Egyptia's cards drawn at random, says nothing), its help."""
    default = spec.default
    if default is None or default == "":
        return t("{name}: {help}", name=spec.name, help=spec.help)
    if isinstance(default, bool):
        default = "yes" if default else "no"
    return t("{name} (default {default}): {help}", name=spec.name, default=default, help=spec.help)


def language_of(option: str | None) -> str:
    """The terminal's language: ``--lang``, else ``KARNAK_LANG`` and the POSIX variables
    (karnak.i18n.from_environment), else English. An unknown ``--lang`` is a usage error."""
    if option is None:
        return from_environment()
    chosen = normalise(option[:16], pseudo=True)
    if chosen is None:
        raise typer.BadParameter(
            t(
                "{given!r} is not a language Karnak speaks; choose one of {choices}",
                given=option[:16],
                choices=", ".join(SUPPORTED),
            ),
            param_hint="--lang",
        )
    return chosen


def _version(value: bool) -> None:
    if value:
        typer.echo(f"karnak {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        metavar="LANG",
        help="The language to speak: en, de or fr (default: KARNAK_LANG, then LANGUAGE, "
        "LC_ALL, LC_MESSAGES, LANG; else English).",
    ),
) -> None:
    """Karnak: Amun-Re, Aton and Egyptia in the terminal or the browser, with bots."""
    # For this command's whole run, and put back after it (a test runs many commands).
    ctx.with_resource(use_language(language_of(lang)))
