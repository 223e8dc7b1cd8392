"""Write (or check) the golden playthroughs: one text file per game, rules version and table.

Each file follows one whole game, the way OpenSpiel's playthroughs do, through the integer-id
play the research adapters use (:class:`karnak.envs.idgame.IdState`): one seat chooses one id
at a time, and a move of several parts (an Amun-Re offering with cards, an Egyptia payment)
is spelled id by id. At every step the file holds who is to move and the phase, every legal
id with its name, seat 0's observation string, a digest of every seat's observation tensor
and information-state tensor, the scores, and the id chosen (with the move it completes); at
the end the scores, ranks, winners, and the returns and last rewards under every reward
scheme the table allows.

The ids were picked by a seeded random policy (uniform over the legal ids) when the file was
first written, and the file records them in its header. Writing a file again replays the ids
it records, so a change of what is *shown* (an observation string, a tensor) rewrites only
those lines, while a change of the *rules* stops at the step where a recorded id became
illegal. A file that does not exist yet (a new game, rules version or table) gets its ids
from the policy; ``--repick`` asks the policy again for the files named.

    python tests/golden/playthroughs/generate.py                  # rewrite every file
    python tests/golden/playthroughs/generate.py NAME ...         # only these
    python tests/golden/playthroughs/generate.py --check          # compare, write nothing
    python tests/golden/playthroughs/generate.py --repick NAME    # new ids for NAME

Read tests/golden/README.md before committing a rewritten file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from karnak.core.action_ids import ActionIdError
from karnak.core.description import REWARD_SCHEMES, RewardScheme, standing
from karnak.core.game import Game
from karnak.core.registry import get_game
from karnak.core.rng import Rng
from karnak.envs.idgame import TERMINAL, IdGame, IdState

HERE = Path(__file__).resolve().parent
SUFFIX = ".txt"
#: Hex digits kept of each tensor's sha256.
DIGEST_LENGTH = 12
#: Ids a line in the header's list of the recorded ids.
IDS_PER_LINE = 25
#: The seats whose observation string is written at every step (every seat's tensors are).
STRING_SEATS = (0,)
#: What starts each step's block; a difference is reported with the step it falls in.
STEP_PREFIX = "step "
END_PREFIX = "end after "
IDS_HEADER = "actions ("
#: The widest line of legal ids (an item is never split, so a long one may go past it).
WIDTH = 100
LEGEND = (
    "# Each step: the seat that chooses (the lowest seat to move) and the phase; the legal ids",
    "# (#id and name; names that differ only in their last word share the rest); seat 0's",
    "# observation string (whole, or only the numbered lines that changed since the step",
    "# before; a line that ends in a space is quoted); per seat, the first 12 hex digits of",
    "# the sha256 of its observation tensor and of its information-state tensor (float32,",
    "# little-endian); the scores; the id chosen (and the move it completes, when its name",
    "# does not say it).",
)


@dataclass(frozen=True)
class Playthrough:
    """One golden game: the game and its rules version, the table, the options and the seed
    (of the engine's chance and of the policy that picked the ids)."""

    name: str
    game: str
    version: str
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}{SUFFIX}"

    def rules(self) -> Game:
        return get_game(self.game).at_version(self.version)

    def idgame(self) -> IdGame:
        return IdGame(self.rules(), self.players, options=dict(self.options))


EXPERT_2016 = {"edition": "2016", "expert_provinces": True}
#: Every kept rules version of every game, at several tables and options. Seeds were chosen
#: among the first eighty for games of common length in which the random policy plays most
#: kinds of move and meets a rule that differs between the game's kept versions (the same
#: ids replayed under the other version play differently). A new game or rules version adds
#: its own entries (test_playthroughs.py fails until it does); the entries of older versions
#: stay as they are.
PLAYTHROUGHS: tuple[Playthrough, ...] = (
    # Aton: two priests on the printed board (the board file shipped with Karnak).
    Playthrough("aton-1.0-2p-seed31", "aton", "1.0", 2, 31),
    # Amun-Re 1.0: rewards past the second by offer size; the harvest increase on farmers.
    Playthrough("amunre-1.0-3p-expert-2016-seed21", "amunre", "1.0", 3, 21, EXPERT_2016),
    # Amun-Re 1.1: rewards past the second in turn order; the increase on any own province.
    Playthrough("amunre-1.1-4p-seed9", "amunre", "1.1", 4, 9),
    Playthrough(
        "amunre-1.1-5p-expert-2016-offer-cards-seed20",
        "amunre",
        "1.1",
        5,
        20,
        {**EXPERT_2016, "offer_cards": True},
    ),
    # Egyptia 1.0.
    Playthrough("egyptia-1.0-solo-seed5", "egyptia", "1.0", 1, 5),
    Playthrough("egyptia-1.0-2p-seed19", "egyptia", "1.0", 2, 19),
    # Egyptia 1.1: a builder waiting for the others may use a ship; the end-of-game trade
    # stops at the end of the favor track.
    Playthrough(
        "egyptia-1.1-solo-cards-seed5", "egyptia", "1.1", 1, 5, {"cards": "A2,B2,C3,D2,E3"}
    ),
    Playthrough("egyptia-1.1-2p-cards-seed4", "egyptia", "1.1", 2, 4, {"cards": "A1,B3,C2,D1,E2"}),
    Playthrough("egyptia-1.1-5p-seed28", "egyptia", "1.1", 5, 28),
)


class ReplayError(Exception):
    """The recorded ids do not replay: one is not legal at its step, or they end before the
    game does, or go on after it. The rules changed for this version."""

    def __init__(self, step: int, message: str):
        super().__init__(f"step {step}: {message}")
        self.step = step


# --- the ids ------------------------------------------------------------------------------
def pick_ids(playthrough: Playthrough) -> list[int]:
    """The ids the seeded random policy chooses: uniform over the legal ids at each step."""
    state = playthrough.idgame().new_state(playthrough.seed)
    rng = Rng(playthrough.seed)
    ids: list[int] = []
    while not state.is_terminal():
        legal = state.legal_ids()
        choice = legal[rng.below(len(legal))]
        state.apply_id(choice)
        ids.append(choice)
    return ids


def recorded_ids(lines: Sequence[str]) -> list[int]:
    """The ids a playthrough file records in its header (ValueError if it has none)."""
    start = next((i for i, line in enumerate(lines) if line.startswith(IDS_HEADER)), None)
    if start is None:
        raise ValueError(f"the file has no {IDS_HEADER!r} header line")
    ids: list[int] = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        ids.extend(int(part) for part in line.split())
    return ids


# --- one playthrough as lines -------------------------------------------------------------
def digest(vector: Any) -> str:
    """The first hex digits of the sha256 of a tensor's little-endian float32 bytes."""
    data = np.ascontiguousarray(vector, dtype="<f4").tobytes()
    return hashlib.sha256(data).hexdigest()[:DIGEST_LENGTH]


def numbers(values: Sequence[float]) -> str:
    return " ".join(format(value, "g") for value in values)


def schemes(players: int) -> tuple[RewardScheme, ...]:
    """The reward schemes a table allows (a solo table has only ``score``)."""
    return REWARD_SCHEMES if players > 1 else ("score",)


def header(playthrough: Playthrough, idgame: IdGame, ids: Sequence[int]) -> Iterator[str]:
    d = idgame.description
    yield f"# Golden playthrough of {d.title}, rules version {d.version}, {d.players} seat(s)."
    yield "# Written by tests/golden/playthroughs/generate.py: never edit it by hand, and read"
    yield "# tests/golden/README.md before writing it again."
    yield from LEGEND
    yield f"game: {d.name}"
    yield f"version: {d.version}"
    yield f"players: {d.players}"
    yield f"seats: {', '.join(idgame.game.seat_names(d.players))}"
    yield f"options: {json.dumps(dict(d.options), sort_keys=True)}"
    yield f"seed: {playthrough.seed}"
    yield f"policy: uniform over the legal ids, Rng({playthrough.seed})"
    yield f"default rewards: {d.rewards}"
    yield f"num_distinct_actions: {d.num_distinct_actions}"
    yield f"max_game_length: {d.max_game_length}"
    yield f"observation_tensor size: {d.observation_size}"
    yield f"information_state_tensor size: {d.information_state_size}"
    yield f"{IDS_HEADER}{len(ids)} ids):"
    for start in range(0, len(ids), IDS_PER_LINE):
        yield "  " + " ".join(str(i) for i in ids[start : start + IDS_PER_LINE])


def who(state: IdState) -> str:
    """The seat that chooses, every seat to move and the phase (where the state has one)."""
    inner = state.state
    to_move = ", ".join(str(seat) for seat in inner.to_move()) or "nobody"
    phase = getattr(inner, "phase", None)
    shown = f"; phase {phase}" if isinstance(phase, str) else ""
    return f"seat {state.current_player()} chooses; to move: {to_move}{shown}"


def legal_items(idgame: IdGame, legal: Sequence[int]) -> list[str]:
    """The legal ids (``#id``) with their names; neighbours whose names differ only in the
    last word share the rest: ``bid BUTO: #376 0, #380 1`` for ids 376 and 380, named
    ``bid BUTO 0`` and ``bid BUTO 1``."""
    groups: list[tuple[str, list[tuple[int, str]]]] = []
    for action_id in legal:
        stem, _, last = idgame.id_name(action_id).rpartition(" ")
        if groups and stem and groups[-1][0] == stem:
            groups[-1][1].append((action_id, last))
        else:
            groups.append((stem, [(action_id, last)]))
    items = []
    for stem, members in groups:
        if len(members) == 1:
            action_id, last = members[0]
            items.append(f"#{action_id} {stem} {last}" if stem else f"#{action_id} {last}")
        else:
            items.append(f"{stem}: " + ", ".join(f"#{i} {last}" for i, last in members))
    return items


def legal_lines(idgame: IdGame, legal: list[int], before: list[int] | None) -> Iterator[str]:
    """The legal ids with their names, a few to a line, or "as before"."""
    if legal == before:
        yield f"  legal ({len(legal)}): as before"
        return
    items = legal_items(idgame, legal)
    line = f"  legal ({len(legal)}):"
    for number, item in enumerate(items):
        text = f" {item}" + (" |" if number < len(items) - 1 else "")
        if len(line) + len(text) > WIDTH and line.strip():
            yield line
            line = "   "
        line += text
    yield line


def kept(line: str) -> str:
    """A line as written: quoted (Python's repr) if it ends in white space, which editors and
    git hooks strip, so that the file keeps it."""
    return repr(line) if line != line.rstrip() else line


def string_lines(seat: int, text: str, before: str | None) -> Iterator[str]:
    """A seat's observation string: whole, or (when it keeps its number of lines and some
    stay the same) only the lines that differ from the step before, each with its number."""
    lines = text.splitlines()
    old = before.splitlines() if before is not None else []
    if before is not None and len(old) == len(lines):
        changed = [
            (n, line)
            for n, (line, was) in enumerate(zip(lines, old, strict=True), 1)
            if line != was
        ]
        if not changed:
            yield f"  observation string {seat}: as before"
            return
        if len(changed) < len(lines):
            yield f"  observation string {seat}, changed lines (the rest as before):"
            yield from (f"    {n}| {kept(line)}" for n, line in changed)
            return
    yield f"  observation string {seat}:"
    yield from (f"    | {kept(line)}" for line in lines)


@dataclass
class Shown:
    """What the step before showed, so that a step writes only what changed."""

    strings: dict[int, str] = field(default_factory=dict)
    digests: str | None = None
    legal: list[int] | None = None


def seat_lines(state: IdState, shown: Shown) -> Iterator[str]:
    """Seat 0's observation string, every seat's tensor digests and the scores."""
    inner = state.state
    for seat in STRING_SEATS:
        text = state.observation_string(seat)
        yield from string_lines(seat, text, shown.strings.get(seat))
        shown.strings[seat] = text
    digests = " | ".join(
        f"{s} {digest(inner.observation_tensor(s))} {digest(inner.information_state_tensor(s))}"
        for s in range(state.idgame.players)
    )
    yield f"  sha256 obs info: {'as before' if digests == shown.digests else digests}"
    shown.digests = digests
    yield f"  scores: {numbers(inner.scores())}"


def render(playthrough: Playthrough, ids: Sequence[int]) -> list[str]:
    """The playthrough file's lines for ``ids`` (ReplayError if they do not replay)."""
    idgame = playthrough.idgame()
    state = idgame.new_state(playthrough.seed)
    lines = list(header(playthrough, idgame, ids))
    shown = Shown()
    last_standing: dict[RewardScheme, list[float]] = {}
    for step, chosen in enumerate(ids):
        if state.is_terminal():
            raise ReplayError(step, f"the game is over, yet {len(ids) - step} id(s) remain")
        lines.append("")
        lines.append(f"{STEP_PREFIX}{step}: {who(state)}")
        legal = state.legal_ids()
        lines.extend(legal_lines(idgame, legal, shown.legal))
        shown.legal = legal
        lines.extend(seat_lines(state, shown))
        try:
            _, action = idgame.speller.choose(
                state.state, state.current_player(), state.prefix, chosen
            )
        except ActionIdError as exc:
            raise ReplayError(step, f"the recorded id {chosen} is not legal: {exc}") from exc
        name = idgame.id_name(chosen)
        move = "" if action is None or action.to_text() == name else f" -> {action.to_text()}"
        lines.append(f"  chosen: #{chosen} {name}{move}")
        last_standing = {s: standing(state.state, s) for s in schemes(idgame.players)}
        state.apply_id(chosen)
    if not state.is_terminal():
        raise ReplayError(len(ids), "the recorded ids end before the game does")
    lines.append("")
    lines.extend(ending(state, last_standing))
    return lines


def ending(state: IdState, last_standing: Mapping[RewardScheme, list[float]]) -> Iterator[str]:
    """The final position, the outcome, and each scheme's returns and last rewards."""
    inner = state.state
    assert state.current_player() == TERMINAL
    yield f"{END_PREFIX}{state.length} ids: over {inner.is_over()}, truncated {state.truncated}"
    yield from seat_lines(state, Shown())
    yield f"ranks: {numbers(inner.ranks())}"
    yield f"winners: {numbers(inner.winners())}"
    yield f"state returns: {numbers(inner.returns())}"
    for scheme, before in last_standing.items():
        after = standing(inner, scheme)
        reward = [a - b for a, b in zip(after, before, strict=True)]
        yield f"{scheme} returns: {numbers(after)}; last step's rewards: {numbers(reward)}"


# --- comparing ----------------------------------------------------------------------------
def where(lines: Sequence[str], index: int) -> str:
    """The part of a playthrough that line ``index`` belongs to: a step, the header or the
    end."""
    for line in reversed(lines[: index + 1]):
        if line.startswith(STEP_PREFIX):
            return line.partition(":")[0]
        if line.startswith(END_PREFIX):
            return "the end"
    return "the header"


def first_difference(expected: Sequence[str], actual: Sequence[str]) -> str | None:
    """None if the lines are the same; else a report of the first line that differs, with
    its step and the lines around it."""
    if list(expected) == list(actual):
        return None
    index = next(
        (i for i, (e, a) in enumerate(zip(expected, actual, strict=False)) if e != a),
        min(len(expected), len(actual)),
    )
    golden = expected[index] if index < len(expected) else "(the file ends here)"
    now = actual[index] if index < len(actual) else "(the replay ends here)"
    context = "\n".join(f"    {line}" for line in expected[max(0, index - 4) : index])
    return (
        f"line {index + 1} ({where(expected, index)}) differs:\n"
        f"  golden: {golden}\n"
        f"  now:    {now}\n"
        f"  the golden lines before it:\n{context}"
    )


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def check(playthrough: Playthrough) -> str | None:
    """None if the file is what its recorded ids replay to now; else what differs."""
    if not playthrough.path.exists():
        return f"{playthrough.path.name} is missing"
    expected = read_lines(playthrough.path)
    try:
        actual = render(playthrough, recorded_ids(expected))
    except (ReplayError, ValueError) as exc:
        return f"the recorded ids no longer replay: {exc}"
    return first_difference(expected, actual)


# --- files --------------------------------------------------------------------------------
def write(playthrough: Playthrough, repick: bool = False) -> int:
    """Write one file (its recorded ids, or the policy's for a new file or with ``repick``);
    the number of ids."""
    if repick or not playthrough.path.exists():
        ids = pick_ids(playthrough)
    else:
        ids = recorded_ids(read_lines(playthrough.path))
    lines = render(playthrough, ids)
    playthrough.path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="playthroughs to write (default: all)")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    parser.add_argument(
        "--repick", action="store_true", help="new ids from the policy for the files named"
    )
    args = parser.parse_args(argv)
    known = {p.name: p for p in PLAYTHROUGHS}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"no playthrough named {', '.join(unknown)}; known: {', '.join(known)}")
    if args.repick and not args.names:
        parser.error("--repick needs the names of the playthroughs to pick again")
    chosen = [known[name] for name in args.names] if args.names else list(PLAYTHROUGHS)
    failed = 0
    for playthrough in chosen:
        name = playthrough.path.name
        if args.check:
            problem = check(playthrough)
            print(f"{name}: {problem or 'as golden'}", file=sys.stderr if problem else sys.stdout)
            failed += problem is not None
            continue
        try:
            count = write(playthrough, args.repick)
        except ReplayError as exc:
            failed += 1
            print(
                f"{name}: not written: the recorded ids no longer replay ({exc}). The rules of "
                f"{playthrough.game} {playthrough.version} changed: if that is meant, bump the "
                "game's version and add playthroughs for it (tests/golden/README.md).",
                file=sys.stderr,
            )
            continue
        print(f"{name}: {count} ids, {playthrough.path.stat().st_size} bytes")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
