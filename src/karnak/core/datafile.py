"""Reading a game's data file (board, sheet, cards): one place for the two ways it fails.

Every game keeps its printed figures in a TOML file that a user may copy and correct, so a
missing file and a file that is not TOML must be answered the same way everywhere: one
:class:`BoardDataError` naming the file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from karnak.core.errors import BoardDataError


def read_toml(path: str | Path, what: str = "board file") -> dict[str, Any]:
    """The contents of the TOML file at ``path``; ``what`` names it in errors."""
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardDataError(f"cannot read the {what} {target}: {exc.strerror or exc}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardDataError(f"{target} is not valid TOML: {exc}") from exc
