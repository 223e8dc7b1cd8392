"""Reading a game's data file (board, sheet, cards): one place for every way it fails.

Every game keeps its printed figures in a TOML file that a user may copy and correct, so a
missing file, a file that is not text, a file far too large and a file that is not TOML
must be answered the same way everywhere: one :class:`BoardDataError` naming the file.

The same goes for the figures themselves: a corrected file is trusted data, but a typo
(``card_limit = 100000000``) must not make the engine build a hundred million moves. Every
number a game reads from its file is checked against generous bounds with
:func:`out_of_range`, which says what is wrong in the same words for every game.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from karnak.core.errors import BoardDataError

#: The largest data file read. The shipped files are under 8 KB; a corrected copy with
#: comments and long card lists stays far below this, and nothing larger is read at all.
MAX_DATA_FILE_BYTES = 1_000_000
#: The longest line of a data file. The shipped files' longest is under 200 characters;
#: the bound matters because the TOML reader's cost grows with the square of the parts of
#: a dotted key (``a.a.a...``), which must all stand on one line.
MAX_LINE_CHARS = 2_000


class FileTooLargeError(ValueError):
    """A file holds more bytes than a reader accepts; the message names both figures."""


def shipped(package: str, name: str) -> Path:
    """The path of ``name`` in the ``data`` folder of ``package`` (already imported or being
    imported). Found through the package rather than a module's ``__file__``: a compiled
    module's ``__file__`` names its extension file (karnak.native), not its source."""
    origin = sys.modules[package].__file__
    assert origin is not None, f"{package} is not a package of files"
    return Path(origin).with_name("data") / name


def size_text(count: int) -> str:
    """``20 MB``, ``1 MB``, ``512 KB`` or ``900 bytes``: a limit as people say it."""
    for unit, size in (("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count:,} bytes"


def read_at_most(path: Path, limit: int, what: str) -> bytes:
    """The bytes of the file at ``path``, refused if it holds more than ``limit``.

    The size is asked first, so a huge file is refused without being read; a stream that
    has no size (a pipe, ``/dev/zero``) is read only to one byte past the limit.
    Raises :class:`OSError` when the file cannot be read and :class:`FileTooLargeError`
    (``what`` names the kind of file) when it is too large.
    """
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            held = f"{size:,} bytes"
        else:
            data = handle.read(limit + 1)
            if len(data) <= limit:
                return data
            held = f"more than {limit:,} bytes"
    raise FileTooLargeError(f"{path} holds {held}; a {what} may hold at most {size_text(limit)}")


class UnreadableFileError(ValueError):
    """A file that cannot be read as text: missing, unreadable, too large or not UTF-8 (the
    message says which, naming the file)."""


def read_text_at_most(path: Path, limit: int, what: str) -> str:
    """The UTF-8 text of the file at ``path`` (see :func:`read_at_most`), every failure an
    :class:`UnreadableFileError` in one line; ``what`` names the kind of file."""
    try:
        raw = read_at_most(path, limit, what)
    except OSError as exc:
        raise UnreadableFileError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    except FileTooLargeError as exc:
        raise UnreadableFileError(str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(
            f"{path} is not a text file in UTF-8 (byte {exc.start + 1} cannot be read), so it "
            f"is not a {what}"
        ) from None


def read_toml(path: str | Path, what: str = "board file") -> dict[str, Any]:
    """The contents of the TOML file at ``path``; ``what`` names it in errors."""
    target = Path(path)
    try:
        text = read_text_at_most(target, MAX_DATA_FILE_BYTES, what)
    except UnreadableFileError as exc:
        raise BoardDataError(str(exc)) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise BoardDataError(
                f"{target}: line {number} has {len(line):,} characters; a {what}'s lines may "
                f"have at most {MAX_LINE_CHARS:,}"
            )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardDataError(f"{target} is not valid TOML: {exc}") from exc
    except RecursionError:
        raise BoardDataError(f"{target}: its values are nested too deeply for a {what}") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise BoardDataError(f"{target} is not valid TOML: {exc}") from None


def shown(value: Any) -> str:
    """``value`` as a message quotes it, cut short if it is long (a 4000-digit number)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text):,} characters)"


def out_of_range(value: Any, low: int, high: int) -> str | None:
    """What is wrong with ``value`` as a whole number from ``low`` to ``high`` (``None``: it
    is one), worded to follow the name of the key: ``must be between 0 and 20, not 99``."""
    if not isinstance(value, int) or isinstance(value, bool):
        return f"must be a whole number between {low} and {high}, not {shown(value)}"
    if not low <= value <= high:
        if low == high:
            return f"must be {low}, not {shown(value)}"
        return f"must be between {low} and {high}, not {shown(value)}"
    return None
