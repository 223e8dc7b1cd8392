"""``karnak replay``: re-execute a record, verify it, and show its log and result.

Replaying goes through the checked path, so a record that was edited by hand (or written
by a buggy client) stops at its first bad action with the action's index, seat and text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.rule import Rule
from rich.text import Text

from karnak.cli.common import (
    EXIT_USAGE,
    CliError,
    flag_option,
    make_console,
    reported_errors,
)
from karnak.cli.records import load_record
from karnak.cli.render import renderer_for
from karnak.core import State, replay
from karnak.core.safe_text import safe_text
from karnak.core.terminal import seat_style
from karnak.i18n import _, t
from karnak.i18n.log import log_lines


def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON).")],
    seat: Annotated[
        int | None,
        typer.Option(help="Show the log as this seat (from 0) saw it, not everything."),
    ] = None,
    quiet: Annotated[
        bool, flag_option("--quiet", "-q", help="Only verify and show the result.")
    ] = False,
) -> None:
    """Replay a saved game, check every move, and show its log and scores."""
    console = make_console()
    with reported_errors():
        record, _ = load_record(file)
        state = replay(record)
        game = state.game
        if seat is not None and not 0 <= seat < len(state.players):
            raise CliError(
                f"--seat must be between 0 and {len(state.players) - 1}, not {seat}", EXIT_USAGE
            )
        if not quiet:
            _show_log(state, seat)
        verdict = f"{safe_text(str(file))}: {len(record.actions)} actions replayed and verified"
        if record.result is not None and state.is_over():
            verdict += "; the recorded result matches"
        console.print(Text(verdict + ".", style="bold green"))
        renderer = renderer_for(game)
        if state.is_over():
            for part in renderer.final(game, state.observation(None)):
                console.print(part)
        else:
            decision = renderer.decision(game, state.observation(None))
            console.print(Text(f"The record stops before the end. {decision}"))
            scores = ", ".join(
                f"{name} {score}" for name, score in zip(state.players, state.scores(), strict=True)
            )
            console.print(Text(f"Scores so far: {scores}"))


def _show_log(state: State, seat: int | None) -> None:
    console = make_console()
    if seat is None:
        title = _("Log (everything)")
        lines = log_lines(state, everything=True)  # in the reader's language
    else:
        title = t("Log as {name} saw it", name=state.players[seat])
        lines = log_lines(state, seat)
    console.print(Rule(Text(title), align="left"))
    for line in lines:
        text = Text(line)
        for s, name in enumerate(state.players):
            text.highlight_words([name], style=seat_style(s))
        console.print(text)
