"""``karnak simulate``: bots play many seeded games; a summary table or one JSON line each.

Game ``i`` uses seed ``S + i`` and bot generators derived from that seed only, so any single
game of a run can be played again on its own with the same result.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group, RenderableType
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from karnak.bots import Bot, make_bot
from karnak.bots.arena import bot_rngs
from karnak.bots.base import play_out
from karnak.cli.common import (
    EXIT_USAGE,
    BoardOpt,
    CardsOpt,
    CliError,
    EditionOpt,
    ExpertOpt,
    GameArg,
    OfferCardsOpt,
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
from karnak.cli.records import result_of, save_record
from karnak.core import Game, KarnakError, State
from karnak.core.terminal import seat_text

#: Runs shorter than this finish before a progress bar would be worth looking at.
PROGRESS_FROM = 50


@dataclass
class Tally:
    """Running totals over a simulation, per seat."""

    seats: int
    games: int = 0
    actions: int = 0
    totals: list[int] = field(default_factory=list)
    lows: list[int] = field(default_factory=list)
    highs: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    shared: int = 0
    #: Solo ratings (Egyptia's builder status) by name, for games that rate a solo score.
    statuses: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.totals = [0] * self.seats
        self.lows = [0] * self.seats
        self.highs = [0] * self.seats
        self.wins = [0.0] * self.seats

    def add(self, state: State) -> None:
        scores = state.scores()
        winners = state.winners()
        for seat, score in enumerate(scores):
            self.totals[seat] += score
            self.lows[seat] = score if self.games == 0 else min(self.lows[seat], score)
            self.highs[seat] = score if self.games == 0 else max(self.highs[seat], score)
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        if len(winners) > 1:
            self.shared += 1
        status = tally_status(state)
        if status is not None:
            self.statuses[status] += 1
        self.games += 1
        self.actions += len(state.history)


def play_one(
    game: Game, seed: int, seats: list[str], bots: list[Bot], options: dict[str, object]
) -> State:
    """One bot game; everything random in it follows from ``seed``, so it can be re-run."""
    state = game.new_state(seats, seed=seed, options=options)
    play_out(state, bots, bot_rngs(seed, len(seats)))
    return state


def tally_status(state: State) -> str | None:
    """A finished solo game's rating (Egyptia: Apprentice to Legendary), if it has one."""
    solo_rank = getattr(state, "solo_rank", None)
    status = solo_rank() if callable(solo_rank) else None
    return status if isinstance(status, str) else None


def _bots(spec: str, seats: int, game: Game) -> list[Bot]:
    """One bot per seat from ``--bots``: a single name seats that bot everywhere."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise CliError(
            f"--bots needs one bot name or {seats} comma-separated names, not {len(names)}",
            EXIT_USAGE,
        )
    try:
        return [make_bot(name, game) for name in names]
    except KarnakError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


def simulate_command(
    game_name: GameArg,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help=players_help()),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; then +1 per game.")] = 0,
    bots: Annotated[
        str, typer.Option(help="Bot for every seat, or one per seat, comma-separated.")
    ] = "random",
    as_json: Annotated[
        bool, flag_option("--json", help="One JSON object per game on stdout, nothing else.")
    ] = False,
    record: Annotated[
        Path | None, typer.Option(help="Write each game's record into this directory.")
    ] = None,
    edition: EditionOpt = None,
    expert_provinces: ExpertOpt = False,
    offer_cards: OfferCardsOpt = False,
    cards: CardsOpt = None,
    board: BoardOpt = None,
) -> None:
    """Let bots play many games and summarise the results."""
    console = make_console()
    with reported_errors():
        game = load_board_for(resolve_game(game_name), board)
        if players is None:
            players = default_players(game)
        check_players(game, players)
        if games < 1:
            raise CliError(f"--games must be at least 1, not {games}", EXIT_USAGE)
        options = option_values(
            game,
            edition=edition,
            expert_provinces=expert_provinces,
            offer_cards=offer_cards,
            cards=cards,
        )
        seat_bots = _bots(bots, players, game)
        seats = game.seat_names(players)
        if record is not None:
            try:
                record.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CliError(f"cannot create {record}: {exc.strerror or exc}") from None
        tally = Tally(players)
        started = time.perf_counter()
        with _progress(games) as advance:
            for game_seed in range(seed, seed + games):
                state = play_one(game, game_seed, seats, seat_bots, options)
                tally.add(state)
                if record is not None:
                    _write_record(state, record / f"{game.name}-{game_seed}.json")
                if as_json:
                    line = {
                        "seed": game_seed,
                        "scores": state.scores(),
                        "winners": state.winners(),
                        "ranks": state.ranks(),
                        "actions": len(state.history),
                    }
                    status = tally_status(state)
                    if status is not None:
                        line["status"] = status
                    typer.echo(json.dumps(line))
                advance()
        elapsed = time.perf_counter() - started
        if not as_json:
            console.print(_summary(tally, seats, [b.name for b in seat_bots], elapsed, game))


def _write_record(state: State, path: Path) -> None:
    """A finished game's record with its result (and, inside it, any corrected board)."""
    record = state.record()
    record.result = result_of(state)
    try:
        save_record(record, path)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr for long runs at a terminal; nothing otherwise.

    It goes to stderr so that ``--json`` output on stdout stays clean, and it disappears
    when done so that the summary table is all that remains.
    """
    err = make_console(stderr=True)
    if total < PROGRESS_FROM or not err.is_terminal:
        yield lambda: None
        return
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("playing", total=total)
        yield lambda: progress.advance(task)


def _summary(
    tally: Tally, seats: list[str], bot_names: list[str], elapsed: float, game: Game
) -> RenderableType:
    games = tally.games
    seat_count = "1 player (solo)" if len(seats) == 1 else f"{len(seats)} players"
    table = Table(title=f"{game.title}: {games} game(s), {seat_count}", title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Bot")
    table.add_column("Mean score", justify="right")
    table.add_column("Min", justify="right")
    table.add_column("Max", justify="right")
    table.add_column("Wins", justify="right")
    table.add_column("Win %", justify="right")
    for seat in range(len(seats)):
        wins = tally.wins[seat]
        table.add_row(
            str(seat),
            seat_text(seats, seat),
            bot_names[seat],
            f"{tally.totals[seat] / games:.2f}",
            str(tally.lows[seat]),
            str(tally.highs[seat]),
            f"{wins:g}" if wins == int(wins) else f"{wins:.2f}",
            f"{100 * wins / games:.1f}",
        )
    rate = games / elapsed if elapsed > 0 else float("inf")
    caption = Text(
        f"{tally.actions / games:.1f} actions per game · {tally.shared} shared win(s), "
        f"counted as fractions · {rate:.1f} games/s ({elapsed:.2f} s)"
    )
    if tally.statuses:
        shown = ", ".join(f"{name} {count}" for name, count in tally.statuses.most_common())
        caption.append(f"\nSolo builder status: {shown}")
    return Group(table, caption)
