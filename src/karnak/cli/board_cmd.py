"""``karnak board``: the board figures with their confidence, or the data file itself.

Several figures of the Amun-Re and Aton boards and of the Egyptia sheet are reconstructed
rather than printed; the rulings ask that users can see which, and correct them. This
command shows every value marked with its confidence, prints the shipped file to copy
(``--dump``) and validates a corrected copy (``--board FILE``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from karnak.cli.common import (
    CliError,
    GameArg,
    board_file_text,
    flag_option,
    has_board_data,
    load_board_for,
    make_console,
    reported_errors,
    resolve_game,
)
from karnak.cli.render import renderer_for


def board_command(
    game_name: GameArg,
    board: Annotated[
        Path | None, typer.Option(help="Load and validate a corrected board file.")
    ] = None,
    dump: Annotated[
        bool,
        flag_option("--dump", help="Print the data file (the shipped one, or --board's)."),
    ] = False,
) -> None:
    """Show a game's board figures and how sure we are of each."""
    console = make_console()
    with reported_errors():
        base = resolve_game(game_name)
        if not has_board_data(base):
            raise CliError(f"{base.title} has no board data")
        game = load_board_for(base, board)
        if dump:
            # Plain text, not Rich: the TOML's [tables] would be read as markup.
            sys.stdout.write(board_file_text(base, board))
            return
        if board is not None:
            console.print(Text(f"{board} is a valid board file.", style="bold green"))
        for part in renderer_for(game).figures(game):
            console.print(part)
