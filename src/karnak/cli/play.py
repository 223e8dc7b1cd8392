"""``karnak play``: one person against bots at the terminal.

The session reads answers line by line from a text stream (stdin unless told otherwise),
so a test or a shell pipe drives it exactly as a person at a keyboard would. Whatever way
a session stops early (``quit``, end of input, Ctrl-C) it saves the game record first and
says how to resume, so no game is ever lost to a stray keystroke.

The opponents are search bots (:data:`DEFAULT_OPPONENT`) thinking :data:`DEFAULT_THINK`
per decision unless told otherwise: a person wants a real opponent, and the think time is
what keeps a whole game within a sitting.

Several people may share the terminal (``--opponents human``): each is asked in turn, and
before a different person's turn the screen is cleared and the session waits until the
terminal has been passed on, so nobody sees another's hand or sealed choice.

``--daily`` plays the game of the day (:mod:`karnak.cli.daily`): practice here on the date's
public seed, or the server's game with ``--server``.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from tempfile import gettempdir
from typing import Annotated, Any, TextIO

import typer
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.control import Control
from rich.rule import Rule
from rich.segment import ControlType, Segment
from rich.text import Text

from karnak.bots import (
    Bot,
    BotSpecError,
    SeatView,
    available_bots,
    make_bot,
    parse_budget,
    takes_budget,
)
from karnak.bots.levels import LEVELS, is_level, level_spec
from karnak.cli.common import (
    EXIT_USAGE,
    BoardOpt,
    CardsOpt,
    CliError,
    EditionOpt,
    ExpertOpt,
    GameArg,
    OfferCardsOpt,
    bot_error,
    check_players,
    default_players,
    flag_option,
    load_board_for,
    make_console,
    option_values,
    players_help,
    reported_errors,
    resolve_game,
)
from karnak.cli.records import (
    fresh_path,
    load_record,
    replay_as,
    result_of,
    save_record,
)
from karnak.cli.render import SeatRenderer, final_for, fold_log, move_groups, renderer_for
from karnak.core import Game, GameRecord, KarnakError, Rng, State
from karnak.core.actions import Action
from karnak.core.forced import PAUSE_SECONDS, forced_move
from karnak.core.knowledge import seat_style as bot_style_of
from karnak.core.registry import plugin_for
from karnak.core.safe_text import safe_text
from karnak.core.terminal import GameRenderer, View, seat_style, seat_text
from karnak.i18n import _, t
from karnak.i18n.log import log_lines

#: The opponent "spec" for another person at the same terminal (a hot seat), not a bot.
HUMAN = "human"
#: Erase the screen, then the scrollback (ED 3: xterm, VTE, iTerm2, Windows Terminal...),
#: then go home. The screen goes first: some terminals move an erased screen into the
#: scrollback, where the next person would find the last hand one scroll up.
CLEAR_SCREEN_AND_SCROLLBACK = "\x1b[2J\x1b[3J\x1b[H"
#: The bot in every other seat unless ``--opponents`` says otherwise.
DEFAULT_OPPONENT = "ismcts"
#: How long a search bot thinks per decision unless ``--think`` (or its spec) says
#: otherwise. The one place to tune so that a whole game stays under ten minutes.
DEFAULT_THINK = "1s"
#: More legal moves than this are cut short in the list (``moves`` shows them all); the
#: limit matters for Amun-Re's offer_cards option, whose offers multiply with the hand, and
#: leaves every move of an Egyptia build step in the list (5 buildings on 18 hexes, 18
#: Burial Mounds and 3 ships).
MOVES_SHOWN = 120
#: How long ``play`` shows a move that needs no choice before playing it (seconds).
AUTO_PASS_PAUSE = PAUSE_SECONDS
#: Log lines repeated when a saved game is resumed, to remind the player where it stood.
RESUME_CONTEXT = 12
#: The longest seat name, as on the server (karnak.server.inputs.MAX_NAME).
MAX_NAME = 40
#: The folder (under the current one) where games are saved unless ``--save`` says where:
#: a checkout's ``.gitignore`` lists it, so playing leaves no untracked files about.
RECORDS_DIR = "records"

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "h", "?"})


def clear_screen_and_scrollback(console: Console) -> None:
    """Clear a terminal's screen and its scrollback (:data:`CLEAR_SCREEN_AND_SCROLLBACK`).

    Rich's ``Console.clear`` erases the screen only; Rich has no code for the scrollback,
    so the sequence is given to it as one control segment (written in order with the
    rest of its output, and never to a console that is not a terminal)."""
    control = Control()
    control.segment = Segment(
        CLEAR_SCREEN_AND_SCROLLBACK, None, [(ControlType.CLEAR,), (ControlType.HOME,)]
    )
    console.control(control)


class LineReader:
    """Answers typed by a person, or lines of any text stream standing in for one.

    A terminal gets ``input()`` (so line editing works); any other stream is read with
    ``readline`` and each answer is echoed, so a piped transcript reads like a session.
    """

    def __init__(self, console: Console, stream: TextIO | None = None):
        self.console = console
        self.stream = stream

    def read(self, prompt: Text) -> str | None:
        """The next answer without its newline, or ``None`` at the end of input.

        A process started with its input closed (``karnak play 0<&-``) has no
        ``sys.stdin`` at all; that is the end of input too, so the game is saved as usual.
        """
        stream = self.stream if self.stream is not None else sys.stdin
        self.console.print(prompt, end="")
        if stream is None or stream.closed:
            self.console.print()
            return None
        if _isatty(stream) and stream is sys.stdin:
            try:
                return input()
            except EOFError:
                self.console.print()
                return None
        line = stream.readline()
        if not line:
            self.console.print()
            return None
        answer = line.rstrip("\r\n")
        self.console.print(Text(answer), highlight=False)
        return answer


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def default_save_dir() -> Path:
    """Where a game is saved when nobody says: ``records/`` under the current folder."""
    return Path.cwd() / RECORDS_DIR


def runnable_karnak() -> str:
    """The way to start this very ``karnak`` again, as a line a person can paste.

    ``karnak`` when that name on the PATH is this program. Otherwise its own path: after
    ``make play`` (or ``.venv/bin/karnak play``) the virtualenv is not on the PATH, and a
    bare ``karnak`` in the printed resume command would not be found.
    """
    program = _this_program()
    if program is None:
        return "karnak"
    on_path = shutil.which("karnak")
    try:
        if on_path is not None and Path(on_path).samefile(program):
            return "karnak"
    except OSError:
        pass
    return shlex.quote(str(program))


def _this_program() -> Path | None:
    """The ``karnak`` script running now (absolute), or that of the running interpreter's
    environment when Karnak was started some other way (a test runner, ``python -c``)."""
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    # abspath, not resolve(): `..` is tidied away but the virtualenv's links are kept.
    if started is not None and started.stem == "karnak" and started.is_file():
        return Path(os.path.abspath(started))
    beside = Path(sys.executable).parent / "karnak"
    return Path(os.path.abspath(beside)) if beside.is_file() else None


class _Stop(Exception):
    """The person asked to stop (or the input ended): save and leave."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class SeatScreen:
    """What a person at the terminal is shown of one seat's decision, drawn from the seat's
    view by the game's renderer: the screen, the numbered moves, the log. Shared by the game
    played here (:class:`PlaySession`) and a game played on a server
    (:mod:`karnak.cli.daily`), whose views come from the server."""

    game: Game
    console: Console
    renderer: GameRenderer
    #: The whole table at every decision instead of the compact screen (``--full``).
    full: bool

    def _seat_names(self) -> Sequence[str]:
        """The seats' names, to colour them in the log."""
        raise NotImplementedError

    def _complain(self, message: str) -> None:
        self.console.print(Text(message, style="red"))

    def _show_log(self, lines: list[str], title: str) -> None:
        self.console.print(Rule(Text(title), align="left", style="dim"))
        for line in lines:
            self.console.print(self._coloured(line))

    def _coloured(self, line: str) -> Text:
        text = Text("  " + line)
        for seat, name in enumerate(self._seat_names()):
            text.highlight_words([name], style=seat_style(seat))
        return text

    def _height(self, parts: list[RenderableType]) -> int:
        """How many lines ``parts`` take at the console's width."""
        options = self.console.options
        return sum(len(self.console.render_lines(part, options, pad=False)) for part in parts)

    def _move_cell(
        self, view: View, seat: int, number: int, action: Action, *, hint: bool, cut: int = 0
    ) -> Text:
        cell = Text()
        cell.append(f"{number:>3} ", style="bold cyan")
        cell.append(action.to_text()[cut:])
        said = self.renderer.action_hint(self.game, view, seat, action) if hint else ""
        if said:
            cell.append(f"  ({said})", style="dim")
        return cell

    def _group_lines(
        self,
        view: View,
        seat: int,
        shown: list[Action],
        groups: list[tuple[str, list[int]]],
        *,
        short: bool,
    ) -> list[Text]:
        """Each heading with its moves on as few lines as the width allows, a move never cut
        between two lines. ``short``: without hints, and without the words every move of the
        group begins with ("build quarry A1" is "A1" under "Build a Quarry")."""
        width = self.console.width
        lines: list[Text] = []
        for heading, indices in groups:
            cut = _common_words([shown[i].to_text() for i in indices]) if short else 0
            line = Text(heading + ":", style="bold")
            for index in indices:
                cell = self._move_cell(view, seat, index + 1, shown[index], hint=not short, cut=cut)
                if line.cell_len + 1 + cell.cell_len > width and line.plain.strip():
                    lines.append(line)
                    line = Text("  ")
                line.append(" ")
                line.append_text(cell)
            lines.append(line)
        return lines

    def _range_lines(self, groups: list[tuple[str, list[int]]]) -> list[Text]:
        """The shortest list: each heading with the numbers of its moves ("Build a Field:
        1-18"), packed on as few lines as the width allows; ``moves`` lists them all."""
        width = self.console.width
        lines: list[Text] = []
        line = Text()
        for heading, indices in groups:
            cell = Text(heading + ": ", style="bold") + Text(_ranges(indices), style="cyan")
            if line.plain and line.cell_len + 3 + cell.cell_len > width:
                lines.append(line)
                line = Text()
            if line.plain:
                line.append(" · ")
            line.append_text(cell)
        if line.plain:
            lines.append(line)
        lines.append(Text(_("Type 'moves' to see what each number does."), style="dim"))
        return lines

    def _show_screen(
        self, view: View, seat: int, legal: list[Action], *, sealed: bool, full: bool = False
    ) -> None:
        """The decision screen of ``seat`` from its ``view``: the renderer's compact view
        (what the decision needs, made to fit 80x24 with the moves and the prompt) where it
        has one, else its full status, then the moves; ``full`` (the ``board`` command): the
        full status. ``sealed``: every seat decides at once, unseen."""
        self.console.print(Rule(style="bold"))
        compact = None if full or self.full else getattr(self.renderer, "compact", None)
        parts = compact(self.game, view, seat) if compact is not None else None
        if parts is None:
            parts = self.renderer.status(self.game, view, seat)
        own = (
            self.renderer.decision_for(self.game, view, seat)
            if isinstance(self.renderer, SeatRenderer)
            else None
        )
        if own is not None:
            decision = Text(own, style="bold")
        else:
            decision = Text(self.renderer.decision(self.game, view), style="bold")
            if sealed:
                decision.append(
                    " " + _("Your choice stays sealed until everyone has committed."),
                    style="italic",
                )
        parts = [*parts, decision]
        for part in parts:
            self.console.print(part)
        # the moves get what the screen has left: the rule, the heading, the answer line and
        # the prompt take one line each
        room = self.console.height - self._height(parts) - 4
        self._show_move_list(view, seat, legal, limit=MOVES_SHOWN, room=room)

    def _show_move_list(
        self,
        view: View,
        seat: int,
        legal: list[Action],
        *,
        limit: int | None,
        room: int | None = None,
    ) -> None:
        """The numbered moves: under the renderer's headings (``move_groups``) where it
        gives them, else in columns; shortened (no hints, and under headings without the
        words the heading says) where the full list would not fit the ``room`` left on the
        screen. A number is always the move's place in the legal list."""
        shown = legal if limit is None else legal[:limit]
        self.console.print(Text(_("Your moves:"), style="bold"))
        groups = move_groups(self.renderer, self.game, view, seat, shown)
        body: list[RenderableType]
        if groups is not None and len(shown) > 1:
            lines = self._group_lines(view, seat, shown, groups, short=False)
            if room is not None and len(lines) > room:
                lines = self._group_lines(view, seat, shown, groups, short=True)
            if room is not None and len(lines) > room:
                lines = self._range_lines(groups)
            body = list(lines)
        else:
            body = [self._columns(view, seat, shown, hint=True)]
            if room is not None and self._height(body) > room:
                body = [self._columns(view, seat, shown, hint=False)]
        for part in body:
            self.console.print(part)
        if len(shown) < len(legal):
            more = len(legal) - len(shown)
            self.console.print(
                Text(t("... and {n} more; type 'moves' to list them all.", n=more), style="dim")
            )
        self.console.print(
            Text(
                _("Answer with a number or a move; also: help, board, log, moves, quit."),
                "dim",
            )
        )

    def _columns(self, view: View, seat: int, shown: list[Action], *, hint: bool) -> Columns:
        cells = [
            self._move_cell(view, seat, number, action, hint=hint)
            for number, action in enumerate(shown, start=1)
        ]
        return Columns(cells, padding=(0, 3), column_first=True)


@dataclass
class PlaySession(SeatScreen):
    """One person (``human``) at a table of bots, from the current state to the end.

    ``others`` are further seats played by people at the same terminal (a hot seat).
    """

    game: Game
    state: State
    human: int
    bots: dict[int, Bot]
    console: Console
    reader: LineReader
    renderer: GameRenderer
    save_path: Path | None = None
    save_dir: Path = field(default_factory=default_save_dir)
    meta: dict[str, Any] = field(default_factory=dict)
    #: Log lines each person has already been shown (by seat).
    seen: dict[int, int] = field(default_factory=dict)
    #: The title of the log shown at a person's next decision (default: since the last).
    log_titles: dict[int, str] = field(default_factory=dict)
    rngs: dict[int, Rng] = field(default_factory=dict)
    #: Seats whose bots search (and take noticeable time): they get a "thinking" notice.
    thinkers: frozenset[int] = frozenset()
    #: More seats played by people at this terminal, who take turns at it.
    others: frozenset[int] = frozenset()
    #: The person who answered last, to notice when the terminal must change hands.
    last_person: int | None = None
    #: Whether a person's move that needs no click (karnak.core.forced) is played for them
    #: after :attr:`pause` seconds (``--no-auto-pass`` turns it off).
    auto_pass: bool = True
    #: The whole table at every decision instead of the compact screen (``--full``).
    full: bool = False
    pause: float = PAUSE_SECONDS
    sleep: Callable[[float], None] = time.sleep

    @property
    def people(self) -> frozenset[int]:
        return self.others | {self.human}

    def __post_init__(self) -> None:
        # Bot choices are not part of the record, so they need not replay; deriving the
        # generators from the seed and the game's length still makes a session repeatable.
        master = Rng(self.state.seed * 1_000_003 + len(self.state.history))
        self.rngs = {seat: master.fork() for seat in sorted(self.bots)}

    # ------------------------------------------------------------------ the loop
    def run(self) -> Path:
        """Play until the end or until the person stops; returns the saved record's path."""
        try:
            while not self.state.is_over():
                movers = self.state.to_move()
                asked = [seat for seat in movers if seat in self.people]
                if asked:
                    self._human_turn(asked[0])
                else:
                    self._bot_turn(movers[0])
        except _Stop as stop:
            return self._save_and_explain(stop.why)
        except KeyboardInterrupt:
            self.console.print()
            return self._save_and_explain("interrupted")
        return self._finish()

    def _bot_turn(self, seat: int) -> None:
        view = SeatView.of(self.state, seat)
        with self._thinking(seat):
            action = self.bots[seat].choose(view, self.rngs[seat])
        self.state.apply(seat, action)

    @contextmanager
    def _thinking(self, seat: int) -> Iterator[None]:
        """Say that a search bot is thinking, so a pause does not look like a hang.

        A terminal gets a spinner that vanishes once the bot has moved; any other output (a
        pipe, a test) gets the notice as a plain line, so a transcript shows where the time
        went. Bots that answer at once (random, heuristic) get no notice at all.
        """
        if seat not in self.thinkers:
            yield
            return
        notice = Text.assemble(seat_text(self.state.players, seat), (" is thinking...", "dim"))
        if self.console.is_terminal:
            with self.console.status(notice):
                yield
        else:
            self.console.print(notice)
            yield

    def _human_turn(self, seat: int) -> None:
        if self.auto_pass and self._forced_turn(seat):
            return
        if self.last_person is not None and seat != self.last_person:
            self._hand_over(seat)
        self.last_person = seat
        legal = self.state.legal_actions(seat)
        self._show_new_log(seat)
        self._show_status(seat, legal)
        while True:
            answer = self.reader.read(self._prompt(seat))
            if answer is None:
                raise _Stop("the input ended")
            action = self._interpret(seat, answer.strip(), legal)
            if action is None:
                continue
            try:
                self.state.apply(seat, action)
            except KarnakError as exc:
                self._complain(str(exc))
                continue
            return

    def _forced_turn(self, seat: int) -> bool:
        """Play ``seat``'s move for it when it is its only one and the public view proves
        it (karnak.core.forced), after a short pause that shows it; whether it fires reads
        nothing hidden, so a hot seat needs no hand-over for it."""
        action = forced_move(self.state, seat)
        if action is None:
            return False
        if seat == self.last_person or not self.others:
            self._show_new_log(seat)
        self.console.print(
            Text.assemble(
                seat_text(self.state.players, seat),
                ": ",
                (
                    t("only one move: {move} (played for you)", move=action.to_text()),
                    "italic",
                ),
            )
        )
        self.sleep(self.pause)
        self.state.apply(seat, action)
        return True

    def _hand_over(self, seat: int) -> None:
        """Another person's turn: hide the screen and wait until they have the terminal.

        A terminal is cleared first, its scrollback too, so the last person's hand is gone
        before the next one looks (not one scroll up); the answer waited for (an empty line)
        keeps a piped transcript in step.
        """
        if self.console.is_terminal:
            clear_screen_and_scrollback(self.console)
        name = seat_text(self.state.players, seat)
        self.console.print(Rule(style="bold"))
        self.console.print(
            Text.assemble(
                "Pass the terminal to ",
                name,
                ". ",
                name,
                ": press Enter when nobody else can see the screen (or type quit).",
            )
        )
        answer = self.reader.read(Text.assemble(name, (" ready? ", "bold")))
        if answer is None:
            raise _Stop("the input ended")
        if answer.strip().lower() in QUIT_WORDS:
            raise _Stop("you quit")

    def _interpret(self, seat: int, text: str, legal: list[Action]) -> Action | None:
        """The move ``text`` names, or ``None`` after handling a command or a mistake."""
        word = text.lower()
        if not text:
            self._complain(
                f"Type a move number (1-{len(legal)}), a move such as "
                f"{legal[0].to_text()!r}, or 'help'."
            )
            return None
        if word in QUIT_WORDS:
            raise _Stop("you quit")
        if word in HELP_WORDS:
            self._show_help()
            return None
        if word == "log":
            self._show_log(log_lines(self.state, seat), _("The whole log as you saw it"))
            return None
        if word in ("board", "b"):
            self._show_status(seat, legal, full=True)
            return None
        if word == "figures":
            for part in self.renderer.figures(self.game):
                self.console.print(part)
            return None
        if word == "moves":
            self._show_moves(seat, legal, limit=None)
            return None
        if word in ("status", "s"):
            self._show_status(seat, legal)
            return None
        if text.isascii() and text.isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                self._complain(f"There is no move {number}; choose 1 to {len(legal)}.")
                return None
            return legal[number - 1]
        try:
            return self.game.parse_action(text)
        except KarnakError as exc:
            self._complain(str(exc))
            return None

    # ------------------------------------------------------------------ showing
    def _prompt(self, seat: int) -> Text:
        prompt = Text()
        prompt.append_text(seat_text(self.state.players, seat))
        prompt.append(" > ", style="bold")
        return prompt

    def _show_new_log(self, seat: int) -> None:
        lines = log_lines(self.state, seat)  # in the reader's language
        fresh = lines[self.seen.get(seat, 0) :]
        self.seen[seat] = len(lines)
        if fresh:
            fresh = fold_log(self.renderer, self.state, seat, fresh)
            self._show_log(fresh, self.log_titles.pop(seat, _("Since your last move")))

    def _show_status(self, seat: int, legal: list[Action], *, full: bool = False) -> None:
        """The decision screen (:meth:`SeatScreen._show_screen`) of ``seat`` now; ``full``
        (the ``board`` command): the full status."""
        view = self.state.observation(seat)
        self._show_screen(view, seat, legal, sealed=self.state.is_simultaneous(), full=full)

    def _show_moves(
        self, seat: int, legal: list[Action], *, limit: int | None, room: int | None = None
    ) -> None:
        self._show_move_list(self.state.observation(seat), seat, legal, limit=limit, room=room)

    def _seat_names(self) -> Sequence[str]:
        return self.state.players

    def _show_help(self) -> None:
        lines = [
            _("Type the number of a move from the list, or write the move itself."),
            *self.renderer.help_lines(),
            _(
                "Commands: help (this text), board (the whole table, every detail), "
                "status (the decision screen again), log (the whole log), moves (every legal "
                "move), figures (the printed figures of the board and cards), "
                "quit (save and stop; resume later with --resume FILE)."
            ),
        ]
        for line in lines:
            self.console.print(Text(line))

    # ------------------------------------------------------------------ stopping
    def _save(self, record: GameRecord) -> Path:
        """Write ``record`` where asked, or somewhere else if that fails: never lose a game.

        The folder for saved games (:attr:`save_dir`) is made when first needed; a path
        given with ``--save`` is used as it is.
        """
        stem = f"{self.game.name}-seed{self.state.seed}"
        candidates = [self.save_path] if self.save_path is not None else []
        candidates += [fresh_path(self.save_dir, stem), fresh_path(Path(gettempdir()), stem)]
        for path in candidates:
            try:
                if path.parent == self.save_dir:
                    path.parent.mkdir(parents=True, exist_ok=True)
                save_record(record, path, self.meta)
            except OSError as exc:
                self._complain(f"Cannot write {path}: {exc.strerror or exc}")
                continue
            return path
        raise CliError("the game record could not be saved anywhere")

    def _save_and_explain(self, why: str) -> Path:
        path = self._save(self.state.record())
        # A corrected board travels in the record, so the hint needs no --board.
        resume = f"{runnable_karnak()} play {self.game.name} --resume {shlex.quote(str(path))}"
        # lines to copy (a path, a command) are never wrapped
        self.console.print(
            Text(f"Stopped: {why}. The game is saved in {path}.", style="bold"), soft_wrap=True
        )
        self.console.print(
            Text("Resume it with:  ") + Text(resume, style="bold green"), soft_wrap=True
        )
        return path

    def _finish(self) -> Path:
        person = self.last_person if self.last_person is not None else self.human
        self._show_new_log(person)
        self.console.print(Rule("The game is over", style="bold"))
        # At a table of several people the end is everybody's: no seat's own view.
        seat = person if not self.others else None
        for part in final_for(self.renderer, self.state, seat):
            self.console.print(part)
        record = self.state.record()
        record.result = result_of(self.state)
        path = self._save(record)
        self.console.print(
            Text(f"The record is saved in {path}; watch it again with ")
            + Text(f"{runnable_karnak()} replay {shlex.quote(str(path))}", style="bold green"),
            soft_wrap=True,
        )
        return path


def _ranges(indices: list[int]) -> str:
    """Move numbers (indices from 0) as runs: ``1-18, 20``."""
    numbers = sorted(index + 1 for index in indices)
    runs: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        runs.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    return ", ".join(runs)


def _common_words(texts: list[str]) -> int:
    """How many characters of whole words every text of ``texts`` begins with (0 for a
    single text, or when cutting them would leave a move empty)."""
    if len(texts) < 2:
        return 0
    first = texts[0].split(" ")
    count = 0
    for i in range(len(first) - 1):
        prefix = " ".join(first[: i + 1]) + " "
        if all(text.startswith(prefix) and len(text) > len(prefix) for text in texts):
            count = len(prefix)
        else:
            break
    return count


# ---------------------------------------------------------------------- the command
def default_opponent(game: Game) -> str:
    """The bot the other seats get when ``--opponents`` is not given: the game's own choice
    where its plugin makes one (an Egyptia table may seat 98 bots, each deciding several times
    a round: a search thinking a second a decision would keep a person waiting minutes a
    round, while the heuristic answers at once)."""
    preferred = plugin_for(game).table.opponent
    if preferred is not None and preferred in available_bots(game):
        return preferred
    return DEFAULT_OPPONENT


def _bot_names(opponents: str | None, others: int, game: Game) -> list[str]:
    """One bot spec (or ``human``) per other seat: a single spec fills every seat."""
    wanted = opponents or default_opponent(game)
    names = [n.strip() for n in wanted.split(",") if n.strip()]
    names = [HUMAN if n.lower() == HUMAN else n for n in names]
    if len(names) == 1:
        names *= others
    if len(names) != others:
        wanted = (
            "one bot name" if others == 1 else f"one bot name or {others} comma-separated names"
        )
        raise CliError(f"--opponents needs {wanted}, not {len(names)}", EXIT_USAGE)
    # a level (easy ... master) is the bot and think time it stands for in this game
    bots = sum(1 for n in names if n != HUMAN)
    return [level_spec(n, game, bots) if is_level(n) else n for n in names]


def _make_bots(names: dict[int, str], game: Game, seed: int) -> dict[int, Bot]:
    """Each bot with its seat's style for this game (as the server gives it), so that two
    bots of one level at a table play differently; a spec's own ``@style=N`` wins."""
    try:
        return {
            seat: make_bot(name, game, style=bot_style_of(seed, seat))
            for seat, name in names.items()
        }
    except KarnakError as exc:
        raise _opponent_error(exc, game) from None


def _opponent_error(exc: KarnakError, game: Game) -> CliError:
    """A bad bot spec, listing the bots and the other choice ``play`` offers: a person."""
    error = bot_error(exc, game)
    return CliError(f"{error} (or {HUMAN}: another person at this terminal)", error.code)


def _with_think(
    specs: dict[int, str], think: str, game: Game
) -> tuple[dict[int, str], frozenset[int]]:
    """Give every search bot without a budget of its own the think time ``think``.

    Returns the final specs (``ismcts`` becomes ``ismcts:2s``; ``heuristic`` stays as it is,
    and so does a spec that names its own budget) and the seats whose bots search.
    """
    try:
        parse_budget(think)
    except BotSpecError as exc:
        raise CliError(f"--think: {exc}", EXIT_USAGE) from None
    final: dict[int, str] = {}
    thinkers = set()
    searches: dict[str, bool] = {}
    for seat, spec in specs.items():
        name, _, budget = spec.partition(":")
        if budget:
            final[seat] = spec
            thinkers.add(seat)
            continue
        if name not in searches:
            searches[name] = _takes_budget(name, think, game)
        if searches[name]:
            final[seat] = f"{name}:{think}"
            thinkers.add(seat)
        else:
            final[seat] = spec
    return final, frozenset(thinkers)


def _takes_budget(name: str, think: str, game: Game) -> bool:
    """Whether the bot ``name`` searches, i.e. accepts a budget (``think`` is known valid)."""
    try:
        make_bot(name, game)  # an unknown name is reported as written, without the budget
    except KarnakError as exc:
        raise _opponent_error(exc, game) from None
    return takes_budget(name)


def play_command(
    game_name: GameArg,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help=players_help()),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the deal (default: a random one, printed).")
    ] = None,
    name: Annotated[str | None, typer.Option(help="Your seat's name.")] = None,
    seat: Annotated[int | None, typer.Option(help="Your seat, counted from 0 (default 0).")] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            help=f"Bot for the other seats, or one per seat, comma-separated: a level "
            f"({', '.join(LEVELS)}) or a bot (default {DEFAULT_OPPONENT}; Egyptia: heuristic "
            f"where it exists); {HUMAN} seats another person at this terminal.",
        ),
    ] = None,
    think: Annotated[
        str | None,
        typer.Option(
            help=f"Think time of search bots per decision, e.g. 2s, 500ms or 2000 iterations "
            f"(default {DEFAULT_THINK}).",
        ),
    ] = None,
    edition: EditionOpt = None,
    expert_provinces: ExpertOpt = False,
    offer_cards: OfferCardsOpt = False,
    cards: CardsOpt = None,
    board: BoardOpt = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue a saved game; its record fixes seats, seed and options."),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help=f"Where to save the record (default: a new file in {RECORDS_DIR}/ under the "
            "current folder, or --resume's).",
        ),
    ] = None,
    full: Annotated[
        bool,
        flag_option(
            "--full",
            help="Show the whole table at every decision (by default a compact screen made "
            "to fit 80x24; the command 'board' shows the whole table).",
        ),
    ] = False,
    no_auto_pass: Annotated[
        bool,
        flag_option(
            "--no-auto-pass",
            help="Ask for every move, even your only possible one (by default a move that "
            "needs no choice is played for you after a short pause).",
        ),
    ] = False,
    daily: Annotated[
        bool,
        flag_option(
            "--daily",
            help="The game of the day (Egyptia): practice here on a seed made from the date, "
            "or the server's game of the day with --server.",
        ),
    ] = False,
    day: Annotated[
        str | None,
        typer.Option(help="With --daily: the day, as YYYY-MM-DD (default: today, UTC)."),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(
            help="With --daily: play the server's game of the day, e.g. http://127.0.0.1:8000 "
            "(as a guest, unranked, unless --user is given).",
        ),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option(
            help="With --server: log in as this account, so the game is its ranked attempt "
            "(the password from KARNAK_PASSWORD, else asked without echo).",
        ),
    ] = None,
) -> None:
    """Play a game against bots in the terminal."""
    console = make_console(wrap=True)
    with reported_errors():
        base = resolve_game(game_name)
        practice: date | None = None
        if daily or day is not None or server is not None or user is not None:
            from karnak.cli.daily import (
                ServerPlay,
                daily_of,
                practice_day,
                practice_note,
                practice_seed,
            )

            _check_daily_flags(
                daily=daily,
                server=server,
                user=user,
                given={
                    "--players": players is not None,
                    "--seed": seed is not None,
                    "--seat": seat is not None,
                    "--opponents": opponents is not None,
                    "--resume": resume is not None,
                    "--edition": edition is not None,
                    "--expert-provinces": expert_provinces,
                    "--offer-cards": offer_cards,
                    "--cards": cards is not None,
                    "--board": board is not None,
                },
                offline_only={
                    "--name": name is not None,
                    "--save": save is not None,
                    "--think": think is not None,
                    "--no-auto-pass": no_auto_pass,
                },
            )
            daily_of(base)
            if server is not None:
                ServerPlay(base, console, server, user=user, day=day, full=full).run()
                return
            practice = practice_day(day)
            seed = practice_seed(practice)
            players = 1
            console.print(practice_note(base, practice, seed))
        if resume is not None:
            record, extra = load_record(resume)
            flags = (players, seed, edition, name, board, cards)
            if any(flag is not None for flag in flags) or expert_provinces or offer_cards:
                console.print(
                    Text(
                        "Note: the saved record fixes the seats, names, seed, options and "
                        "board; those flags are ignored.",
                        style="yellow",
                    )
                )
            state, human, bot_names = _resumed(base, record, extra, seat, opponents, think)
            game = state.game
            console.print(
                Text(
                    f"Resuming {resume}: {len(record.actions)} moves replayed and verified; "
                    f"you play {state.players[human]}."
                )
            )
        else:
            game = load_board_for(base, board)
            options = option_values(
                game,
                edition=edition,
                expert_provinces=expert_provinces,
                offer_cards=offer_cards,
                cards=cards,
            )
            state, human, bot_names = _started(game, players, seed, name, seat, opponents, options)
            console.print(
                Text(f"Seed {state.seed} (play the same deal again with --seed {state.seed}).")
            )
        people = frozenset(s for s, n in bot_names.items() if n == HUMAN)
        bot_specs = {s: n for s, n in bot_names.items() if s not in people}
        bot_specs, thinkers = _with_think(bot_specs, think or DEFAULT_THINK, game)
        if think is not None and not thinkers:
            note = "Note: --think applies to search bots only; it changes nothing here."
            console.print(Text(note, style="yellow"))
        bots = _make_bots(bot_specs, game, state.seed)
        opponents_meta = {str(s): bot_specs.get(s, HUMAN) for s in bot_names}
        meta: dict[str, Any] = {"human_seat": human, "opponents": opponents_meta}
        if practice is not None:
            meta["daily_practice"] = practice.isoformat()
        session = PlaySession(
            game=game,
            state=state,
            human=human,
            bots=bots,
            console=console,
            reader=LineReader(console),
            renderer=renderer_for(game),
            save_path=save if save is not None else resume,
            meta=meta,
            thinkers=thinkers,
            others=people,
            auto_pass=not no_auto_pass,
            full=full,
            pause=AUTO_PASS_PAUSE,
        )
        if resume is not None:
            if state.is_over():
                console.print(Text("That game is already over."))
                for part in final_for(session.renderer, state, None if people - {human} else human):
                    console.print(part)
                return
            for person in session.people:
                session.seen[person] = max(0, len(log_lines(state, person)) - RESUME_CONTEXT)
                session.log_titles[person] = "The last moves before the game was saved"
        session.run()
        if practice is not None and session.state.is_over():
            from karnak.cli.daily import daily_of, practice_result

            practice_result(console, game, daily_of(game), session.state.record(), practice)


def _check_daily_flags(
    *,
    daily: bool,
    server: str | None,
    user: str | None,
    given: dict[str, bool],
    offline_only: dict[str, bool],
) -> None:
    """Refuse what does not go with ``--daily``: the day's game fixes the seats, the seed
    and the options; a server's game is saved and named by the server."""
    if not daily:
        raise CliError(_("--day, --server and --user go with --daily"), EXIT_USAGE)
    if user is not None and server is None:
        raise CliError(_("--user goes with --server: practice here needs no account"), EXIT_USAGE)
    refused = [flag for flag, set_ in given.items() if set_]
    if server is not None:
        refused += [flag for flag, set_ in offline_only.items() if set_]
    if refused:
        raise CliError(
            t(
                "--daily plays the game of the day as it is dealt: {flags} cannot go with it",
                flags=", ".join(refused),
            ),
            EXIT_USAGE,
        )


def _started(
    game: Game,
    players: int | None,
    seed: int | None,
    name: str | None,
    seat: int | None,
    opponents: str | None,
    options: dict[str, Any],
) -> tuple[State, int, dict[int, str]]:
    count = default_players(game) if players is None else players
    check_players(game, count)
    human = 0 if seat is None else seat
    if not 0 <= human < count:
        raise CliError(f"--seat must be between 0 and {count - 1}, not {human}", EXIT_USAGE)
    names = game.seat_names(count)
    if name is not None:
        if len(name) > MAX_NAME:
            raise CliError(t("a name has at most {n} characters", n=MAX_NAME), EXIT_USAGE)
        name = safe_text(name) or names[human]
        if name in names[:human] + names[human + 1 :]:
            raise CliError(f"{name!r} is already another seat's name; pick another", EXIT_USAGE)
        names[human] = name
    bot_list = _bot_names(opponents, count - 1, game)
    others = [s for s in range(count) if s != human]
    try:
        state = game.new_state(
            names, seed=secrets.randbelow(1_000_000) if seed is None else seed, options=options
        )
    except KarnakError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None
    return state, human, dict(zip(others, bot_list, strict=True))


def _resumed(
    game: Game,
    record: GameRecord,
    extra: dict[str, Any],
    seat: int | None,
    opponents: str | None,
    think: str | None,
) -> tuple[State, int, dict[int, str]]:
    """The saved game replayed and verified, with its person's seat and its bots.

    The saved bots come back as they were, think times included, unless ``--think`` is
    given: then the saved budgets make way for the new one.
    """
    state = replay_as(game, record)
    count = len(state.players)
    saved_seat = extra.get("human_seat")
    human = seat if seat is not None else saved_seat if isinstance(saved_seat, int) else 0
    if not 0 <= human < count:
        raise CliError(f"--seat must be between 0 and {count - 1}, not {human}", EXIT_USAGE)
    others = [s for s in range(count) if s != human]
    saved = extra.get("opponents")
    if opponents is None and isinstance(saved, dict):
        bot_list = [str(saved.get(str(s), default_opponent(game))) for s in others]
        if think is not None:
            bot_list = [spec.partition(":")[0] for spec in bot_list]
    else:
        bot_list = _bot_names(opponents, count - 1, game)
    return state, human, dict(zip(others, bot_list, strict=True))
