"""Game records: everything needed to replay a game exactly, and the replay itself.

A record names the game and the version it was played under, the options, the seed, the
seats and the list of (seat, action text) pairs. Replaying it re-executes every action
through the checked path, so a tampered record is caught at its first bad action.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from karnak.core.datafile import UnreadableFileError, read_text_at_most
from karnak.core.errors import (
    IllegalActionError,
    InvalidActionTextError,
    KarnakError,
    RecordError,
    RulesVersionError,
)

if TYPE_CHECKING:
    from karnak.core.state import State

RECORD_FORMAT = "karnak-record/1"
#: The largest record file read. A finished game of 99 Egyptia builders is well under 1 MB;
#: anything over this is not a record, and is refused without being read.
MAX_RECORD_BYTES = 20_000_000


@dataclass
class GameRecord:
    game: str
    version: str
    options: dict[str, Any]
    seed: int
    seats: list[str]
    actions: list[tuple[int, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    variant: dict[str, Any] | None = None  # e.g. a corrected board the game was played on

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "actions": [[seat, text] for seat, text in self.actions],
        }
        if self.result is not None:
            data["result"] = self.result
        if self.variant is not None:
            data["variant"] = self.variant
        return data

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        if not isinstance(data, Mapping):
            raise RecordError("a game record must be a JSON object")
        fmt = data.get("format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise RecordError(f"unknown record format {fmt!r}; expected {RECORD_FORMAT!r}")
        missing = [k for k in ("game", "version", "seed", "seats", "actions") if k not in data]
        if missing:
            raise RecordError(f"the record lacks {', '.join(missing)}")
        if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
            raise RecordError("the record's seed must be an integer")
        seats = data["seats"]
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("the record's seats must be a list of names")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise RecordError("the record's options must be an object")
        actions: list[tuple[int, str]] = []
        raw_actions = data["actions"]
        if not isinstance(raw_actions, list):
            raise RecordError("the record's actions must be a list")
        for index, item in enumerate(raw_actions):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or not isinstance(item[0], int)
                or isinstance(item[0], bool)
                or not isinstance(item[1], str)
            ):
                raise RecordError(
                    f"action {index} must be a pair [seat, text], not {item!r}", index=index
                )
            actions.append((item[0], item[1]))
        result = data.get("result")
        variant = data.get("variant")
        if variant is not None and not isinstance(variant, Mapping):
            raise RecordError("the record's variant must be an object")
        return GameRecord(
            game=str(data["game"]),
            version=str(data["version"]),
            options=dict(options),
            seed=data["seed"],
            seats=list(seats),
            actions=actions,
            result=dict(result) if isinstance(result, Mapping) else None,
            variant=dict(variant) if variant is not None else None,
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        """The record in the file at ``path`` (any bad file is a RecordError in one line)."""
        return GameRecord.from_json(read_record_json(path))


def read_record_json(path: str | Path) -> Any:
    """The JSON value in the record file at ``path``, or a :class:`RecordError` in one line.

    Anything may be handed to ``replay`` or ``--resume``: a picture, a log file, a stream
    without end, JSON nested a hundred thousand deep. The file is read only up to
    :data:`MAX_RECORD_BYTES`, and every way the text can fail to be JSON (not UTF-8, too
    deep for the parser, a number too long to convert) is named as such.
    """
    try:
        text = read_text_at_most(Path(path), MAX_RECORD_BYTES, "game record")
    except UnreadableFileError as exc:
        raise RecordError(str(exc)) from None
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


def replay(record: GameRecord, *, check_result: bool = True) -> State:
    """Re-execute ``record`` through the checked path and return the final state.

    The record replays under the rules version it names (the engine keeps older versions
    playable). Raises :class:`RecordError` naming the first bad action (its index, seat and
    text), or a header problem (unknown game, a rules version this engine does not play,
    bad options or seats).
    """
    from karnak.core.registry import get_game

    try:
        game = get_game(record.game)
    except KarnakError as exc:
        raise RecordError(str(exc)) from exc
    try:
        game = game.at_version(record.version)
    except RulesVersionError as exc:
        raise RecordError(f"the record cannot be replayed: {exc}") from exc
    try:
        if record.variant is not None:
            game = game.with_variant_data(record.variant)
    except KarnakError as exc:
        raise RecordError(str(exc)) from exc
    try:
        state = game.new_state(record.seats, seed=record.seed, options=record.options)
    except KarnakError as exc:
        raise RecordError(f"the record's header is invalid: {exc}") from exc
    for index, (seat, text) in enumerate(record.actions):
        where = f"action {index} ({seat}: {text!r})"
        try:
            action = game.parse_action(text)
        except InvalidActionTextError as exc:
            raise RecordError(f"{where} cannot be read: {exc}", index=index) from exc
        try:
            state.apply(seat, action)
        except IllegalActionError as exc:
            raise RecordError(f"{where} is illegal: {exc}", index=index) from exc
    if check_result and record.result is not None and state.is_over():
        expected = record.result.get("scores")
        if expected is not None and list(expected) != state.scores():
            raise RecordError(
                f"the record claims scores {expected} but replaying it gives {state.scores()}"
            )
    return state
