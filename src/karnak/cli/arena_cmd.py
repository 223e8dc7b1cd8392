"""``karnak arena``: bots play each other in rotating seats; one row per bot, with a rating.

The games are played by :func:`karnak.bots.arena.run_arena` (in local processes, or as Ray
tasks with ``--ray``: :mod:`karnak.bots.arena_ray`, imported only then); this module only
checks the arguments, shows progress on stderr and renders the result (a table, or one JSON
object).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from karnak.bots import make_bot
from karnak.bots.arena import ArenaGameError, ArenaResult, BotRow, run_arena
from karnak.cli.common import (
    EXIT_USAGE,
    BoardOpt,
    CardsOpt,
    CliError,
    EditionOpt,
    ExpertOpt,
    FlagWordsCommand,
    GameArg,
    OfferCardsOpt,
    bot_error,
    flag_option,
    load_board_for,
    make_console,
    option_values,
    players_text,
    reported_errors,
    resolve_game,
)
from karnak.core import Game, KarnakError, available_games

if TYPE_CHECKING:
    from karnak.bots.arena_ray import RayRunner

#: What ``--ray`` alone stands for: a local Ray (karnak.bots.arena_ray.LOCAL).
LOCAL_RAY = "local"


class ArenaCommand(FlagWordsCommand):
    """``karnak arena``'s command: ``--ray`` takes an address or stands alone.

    Typer's options take a value or none, not an optional one; so a ``--ray`` given last,
    or followed by another option or a game's name, is read as ``--ray=local`` before
    parsing.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, bare_ray(args))


def bare_ray(args: list[str]) -> list[str]:
    """``args`` with a bare ``--ray`` (last, or before another option or a game's name)
    written ``--ray=local``; ``--ray ADDRESS`` and ``--ray=ADDRESS`` are left as they are."""
    games = set(available_games())
    out: list[str] = []
    for position, arg in enumerate(args):
        if arg == "--":
            return out + args[position:]
        following = args[position + 1] if position + 1 < len(args) else None
        if arg == "--ray" and (
            following is None or following.startswith("-") or following.lower() in games
        ):
            out.append(f"--ray={LOCAL_RAY}")
        else:
            out.append(arg)
    return out


def arena_command(
    game_name: GameArg,
    bots: Annotated[
        str,
        typer.Option(
            help="One bot per seat, comma-separated (their number is the number of players), "
            "e.g. ismcts:1s,heuristic,heuristic,heuristic.",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="How many games; a multiple of the players balances the seats."
        ),
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; then +1 per game.")] = 0,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help="Processes to play in (0: one per CPU; default 1); with --ray alone, the "
            "local Ray's CPUs (default: one per CPU).",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            help="Play the games as Ray tasks (pip install 'karnak\\[ray]'): --ray alone "
            "starts a local Ray for the run; --ray ADDRESS joins that cluster (auto, "
            "host:6379, ray://host:10001). The same games and results as local processes.",
        ),
    ] = None,
    as_json: Annotated[
        bool, flag_option("--json", help="The result as one JSON object on stdout.")
    ] = False,
    progress: Annotated[
        bool | None,
        flag_option(
            "--progress/--no-progress",
            help="Progress bar on stderr (default: when stderr is a terminal).",
        ),
    ] = None,
    styled: Annotated[
        bool,
        flag_option(
            "--styled",
            help="Each bot plays its seat's style in each game, as a server's bots do "
            "(a spec's own @style=N is kept either way).",
        ),
    ] = False,
    edition: EditionOpt = None,
    expert_provinces: ExpertOpt = False,
    offer_cards: OfferCardsOpt = False,
    cards: CardsOpt = None,
    board: BoardOpt = None,
) -> None:
    """Let bots play each other in rotating seats and rate them."""
    console = make_console()
    with reported_errors():
        game = load_board_for(resolve_game(game_name), board)
        specs = _specs(bots, game)
        if games < 1:
            raise CliError(f"--games must be at least 1, not {games}", EXIT_USAGE)
        if jobs is not None and jobs < 0:
            raise CliError(f"--jobs must be 0 (one per CPU) or more, not {jobs}", EXIT_USAGE)
        options = option_values(
            game,
            edition=edition,
            expert_provinces=expert_provinces,
            offer_cards=offer_cards,
            cards=cards,
        )
        cpus = os.cpu_count() or 1
        processes = cpus if jobs == 0 else (jobs or 1)
        runner = None
        if ray is not None:
            runner, where = _ray_runner(ray, jobs)
        else:
            where = f"{processes} process(es)"
        if ray is None and processes > cpus and any(":" in spec for spec in specs):
            _note(
                f"{processes} processes on {cpus} CPUs: bots with a think time get less "
                "computing in it than they would alone."
            )
        with _progress_bar(games, progress) as advance:
            try:
                result = run_arena(
                    game,
                    specs,
                    games,
                    seed,
                    options,
                    processes,
                    advance,
                    styled=specs if styled else (),
                    runner=runner,
                )
            except ArenaGameError as exc:
                flags = _option_flags(edition, expert_provinces, offer_cards, cards, board)
                hint = _replay_hint(game, exc, flags)
                raise CliError(f"{exc}. Play it alone with: {hint}") from None
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        else:
            if runner is not None and runner.cpus is not None:
                where += f" with {runner.cpus} CPU(s)"
            console.print(_table(result, where))


def _ray_runner(address: str, jobs: int | None) -> tuple[RayRunner, str]:
    """The runner of ``--ray [ADDRESS]`` and how the caption names it; Ray is imported here,
    so a missing Ray is reported before any game starts."""
    from karnak.bots.arena_ray import LOCAL, RayRunner, import_ray

    import_ray()
    if address.strip() in ("", LOCAL):
        return RayRunner(num_cpus=jobs or None), "a local Ray"
    if jobs is not None:
        _note("--jobs is not used with a Ray address: the cluster's CPUs play the games.")
    return RayRunner(address.strip()), f"the Ray cluster at {address.strip()}"


def _specs(text: str, game: Game) -> list[str]:
    """The bot of each seat; each must be a bot ``game`` has, with a budget it can read."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not game.min_players <= len(specs) <= game.max_players:
        raise CliError(
            f"--bots names one bot per seat: {game.title} is for {players_text(game)}, "
            f"and {len(specs)} bot(s) were given",
            EXIT_USAGE,
        )
    for spec in dict.fromkeys(specs):
        try:
            make_bot(spec, game)
        except KarnakError as exc:
            raise bot_error(exc, game) from None
    return specs


def _note(message: str) -> None:
    make_console(stderr=True).print(Text("Note: " + message, style="yellow"))


def _option_flags(
    edition: str | None,
    expert_provinces: bool,
    offer_cards: bool,
    cards: str | None,
    board: Path | None,
) -> list[str]:
    """The option flags as given, to repeat them in another command."""
    words = []
    if edition is not None:
        words += ["--edition", edition]
    if expert_provinces:
        words.append("--expert-provinces")
    if offer_cards:
        words.append("--offer-cards")
    if cards is not None:
        words += ["--cards", cards]
    if board is not None:
        words += ["--board", str(board)]
    return words


def _replay_hint(game: Game, exc: ArenaGameError, flags: list[str]) -> str:
    """The ``simulate`` command that plays the failed game alone (same seed, seats, bots)."""
    words = ["karnak", "simulate", game.name, "-p", str(len(exc.seats)), "--seed", str(exc.seed)]
    words += ["-n", "1", "--bots", ",".join(exc.seats), *flags]
    return shlex.join(words)


@contextmanager
def _progress_bar(total: int, wanted: bool | None) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr, so that stdout (a table or JSON) stays clean.

    Shown by default only when stderr is a terminal; ``--progress`` forces it (for
    terminals that do not say they are one), ``--no-progress`` hides it.
    """
    if wanted is False or (wanted is None and not _is_terminal(sys.stderr)):
        yield lambda done: None
        return
    err = Console(file=sys.stderr, force_terminal=True) if wanted else make_console(stderr=True)
    columns = (
        TextColumn("playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("playing", total=total)
        yield lambda done: bar.update(task, completed=done)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------- rendering
def _table(result: ArenaResult, where: str) -> RenderableType:
    last = result.seed + result.games - 1
    table = Table(
        title=(
            f"{result.title} arena: {result.games} game(s), {result.players} players, "
            f"seeds {result.seed}-{last}"
        ),
        title_justify="left",
    )
    table.add_column("Bot")
    table.add_column("Entries", justify="right")
    table.add_column("Games", justify="right")
    table.add_column("Per seat", justify="right")
    table.add_column("Wins", justify="right")
    table.add_column("Win % (95% CI)", justify="right")
    table.add_column("Mean score", justify="right")
    table.add_column("Mean rank", justify="right")
    table.add_column("Rating μ ± σ", justify="right")  # noqa: RUF001
    table.add_column("μ − 3σ", justify="right")  # noqa: RUF001
    table.add_column("Think/move", justify="right")
    for row in result.rows:
        table.add_row(
            Text(row.bot, style="bold"),
            str(len(row.entries)),
            str(row.games),
            "/".join(str(c) for c in row.seat_games),
            _wins(row.wins),
            _win_rate(row),
            f"{row.mean_score:.2f}",
            f"{row.mean_rank:.2f}",
            f"{row.mu:.2f} ± {row.sigma:.2f}",
            f"{row.ordinal:.2f}",
            _duration(row.think_per_decision),
        )
    return Group(table, _caption(result, where))


def _caption(result: ArenaResult, where: str) -> Text:
    if result.balanced:
        seats = "every bot sat in every seat equally often"
    else:
        seats = (
            f"{result.games} is not a multiple of {result.players}, so the seats are "
            "slightly unbalanced (see Per seat)"
        )
    elapsed = result.elapsed_seconds
    rate = result.games / elapsed if elapsed > 0 else float("inf")
    return Text(
        f"Seats rotate each game; {seats}. {result.shared_games} shared victory(ies), "
        f"counted as fractions. Rating: openskill Plackett-Luce from the final ranks "
        f"(starts at μ 25, σ 8.33).\n"  # noqa: RUF001
        f"{result.mean_actions:.1f} actions per game · {rate:.2f} games/s "
        f"({elapsed:.2f} s, {where})",
        style="dim",
    )


def _wins(wins: float) -> str:
    return f"{wins:g}" if wins == int(wins) else f"{wins:.2f}"


def _win_rate(row: BotRow) -> str:
    low, high = row.win_interval
    return f"{100 * row.win_rate:.1f} ({100 * low:.1f}-{100 * high:.1f})"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
