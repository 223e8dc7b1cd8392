"""Saving, loading and replaying game records for the terminal client.

A record written by the client is a plain core record plus one extra key, ``karnak_cli``,
holding what the core does not need but a resumed session does: which seat the person
played and which bots sat at the other seats. The core reader ignores unknown keys, so
these files stay ordinary records for every other tool.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from karnak.core import Game, GameRecord, RecordError, State, replay
from karnak.core.datafile import FileTooLargeError, read_at_most

CLI_KEY = "karnak_cli"

#: The largest record file read. A finished game of 99 Egyptia builders is well under 1 MB;
#: anything over this is not a record, and is refused without being read.
MAX_RECORD_BYTES = 20_000_000


def load_record(path: Path) -> tuple[GameRecord, dict[str, Any]]:
    """The record at ``path`` and the client's extra data (empty when there is none)."""
    data = read_record_json(path)
    record = GameRecord.from_json(data)
    extra = data.get(CLI_KEY)
    return record, dict(extra) if isinstance(extra, dict) else {}


def read_record_json(path: Path) -> Any:
    """The JSON value in the record file at ``path``, or a :class:`RecordError` in one line.

    Anything may be handed to ``replay`` or ``--resume``: a picture, a log file, a stream
    without end, JSON nested a hundred thousand deep. The file is read only up to
    :data:`MAX_RECORD_BYTES`, and every way the text can fail to be JSON (not UTF-8, too
    deep for the parser, a number too long to convert) is named as such.
    """
    try:
        raw = read_at_most(path, MAX_RECORD_BYTES, "record file")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except FileTooLargeError as exc:
        raise RecordError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"{path} is not a text file in UTF-8 (byte {exc.start + 1} cannot be read), so it "
            "is not a game record"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError(f"{path} is not a game record: its JSON is nested too deeply") from None
    except MemoryError:
        raise RecordError(f"{path} is too large to read as a game record") from None
    except ValueError as exc:  # e.g. a number of thousands of digits
        raise RecordError(f"{path} is not valid JSON: {exc}") from None


def save_record(record: GameRecord, path: Path, extra: dict[str, Any] | None = None) -> None:
    data = record.to_json()
    if extra:
        data[CLI_KEY] = extra
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def fresh_path(directory: Path, stem: str) -> Path:
    """A file name in ``directory`` that does not exist yet (never overwrite a saved game)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = directory / f"{stem}-{stamp}.json"
    counter = 2
    while candidate.exists():
        candidate = directory / f"{stem}-{stamp}-{counter}.json"
        counter += 1
    return candidate


def result_of(state: State) -> dict[str, Any]:
    """The ``result`` block of a finished game's record."""
    return {"scores": state.scores(), "winners": state.winners(), "ranks": state.ranks()}


def replay_as(game: Game, record: GameRecord) -> State:
    """Replay ``record`` (checked, move by move), refusing a record of another game.

    A game played on a corrected board carries that board in the record's variant data,
    so the core replays it on the right board without any help from the client.
    """
    if record.game != game.name:
        raise RecordError(f"the record is a game of {record.game!r}, not of {game.name!r}")
    return replay(record)
