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
from karnak.core.record import read_record_json
from karnak.core.safe_text import safe_names

CLI_KEY = "karnak_cli"


def load_record(path: Path) -> tuple[GameRecord, dict[str, Any]]:
    """The record at ``path`` and the client's extra data (empty when there is none).

    The seats' names are made safe to print (:func:`karnak.core.safe_text.safe_text`): a
    record is a file anyone can edit, and every command shows its names.
    """
    data = read_record_json(path)
    record = GameRecord.from_json(data)
    record.seats = safe_names(record.seats)
    extra = data.get(CLI_KEY)
    return record, dict(extra) if isinstance(extra, dict) else {}


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
