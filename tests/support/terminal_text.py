"""What a terminal screen prints, as text and as words: shared by the games' compact-screen
tests (a word cut at 80 columns is one the same screen never prints when wide)."""

from __future__ import annotations

import io
import re

from rich.console import Console, RenderableType

#: A "word" made only of box-drawing characters (a table's rules), not a word of the text.
BOX = re.compile(r"^[─━│┃┌┐└┘├┤┬┴┼╭╮╰╯═]+$")


def printed(parts: list[RenderableType], width: int, height: int = 24) -> str:
    """``parts`` printed one after another on a console ``width`` columns wide."""
    console = Console(width=width, height=height, record=True, file=io.StringIO())
    for part in parts:
        console.print(part)
    return console.export_text()


def words(text: str) -> set[str]:
    """The words of ``text``, less the tables' rules."""
    return {w for w in text.split() if not BOX.match(w)}
