"""``karnak train GAME``: train a MaskablePPO policy and export it for NumPy play.

The run is :func:`karnak.envs.training.train` (its text says what is trained and how). It
writes, under ``--out``: ``policy.npz`` (the exported policy, which the ``policy`` bot and
:mod:`karnak.bots.learned` play without torch), ``model.zip`` (sb3's own file, to go on
training), ``curve.csv`` (the evaluations as they come) and ``training.json`` (the command
line, seeds, steps, time, machine, versions and evaluations). ``--ship`` also copies
``policy.npz`` and ``training.json`` (as ``policy.json``) into the game's package, where the
``policy`` bot finds them: what reproduces the policy Aton ships.

Training needs the ``train`` extra (torch and sb3-contrib); without it the command says so
and what to install.

``--judge`` trains the search's learned judge instead (:mod:`karnak.bots.judge_training`,
NumPy only): ``--games`` self-play games at a table of ``--players`` (default: the
smallest table with an opponent), ``--hidden`` widths, ``--epochs``, ``--seed``. It writes
``judge_<players>.npz`` and its record ``judge_<players>.json`` under ``--out`` (default
runs/judge-GAME-PLAYERS); ``--ship`` copies both into the game's ``research`` package, where
the ``judged`` bot finds them.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from karnak.cli.common import CliError, GameArg, make_console, reported_errors, resolve_game

if TYPE_CHECKING:
    from rich.console import Console

    from karnak.core.game import Game

#: The recipe of the shipped Aton policy (docs/research.md, Baselines).
DEFAULT_TIMESTEPS = 200_000
#: Self-play games of a judge's training (``--judge``).
JUDGE_GAMES = 3000


def train_command(
    game_name: GameArg,
    timesteps: Annotated[
        int, typer.Option("--timesteps", help="Environment steps (the learner's decisions).")
    ] = DEFAULT_TIMESTEPS,
    seed: Annotated[int, typer.Option("--seed", help="Seeds torch, sb3 and the games.")] = 0,
    opponents: Annotated[
        str, typer.Option("--opponents", help="The bot spec at every other seat.")
    ] = "random",
    players: Annotated[
        int | None, typer.Option("--players", help="Table size (default: the envs' table).")
    ] = None,
    hidden: Annotated[
        str, typer.Option("--hidden", help="Hidden layer widths, comma-separated.")
    ] = "64,64",
    eval_every: Annotated[
        int, typer.Option("--eval-every", help="Steps between evaluations.")
    ] = 25_000,
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="Arena games per opponent per evaluation.")
    ] = 40,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default runs/train-GAME).")
    ] = None,
    ship: Annotated[
        bool,
        typer.Option("--ship", help="Copy the policy and its record into the game's package."),
    ] = False,
    judge: Annotated[
        bool,
        typer.Option(
            "--judge",
            help="Train the search's learned judge (a value network, NumPy only) instead.",
        ),
    ] = False,
    games: Annotated[
        int, typer.Option("--games", help="--judge: self-play games to learn from.")
    ] = JUDGE_GAMES,
    epochs: Annotated[int, typer.Option("--epochs", help="--judge: passes over the data.")] = 30,
) -> None:
    """Train a MaskablePPO policy against bots and export it to NumPy (needs torch), or
    with --judge the search's value network (NumPy only)."""
    console = make_console()
    with reported_errors():
        game = resolve_game(game_name)
        if judge:
            _train_judge(game, players, games, epochs, seed, hidden, out, ship, console)
            return
        try:
            widths = tuple(int(w) for w in hidden.split(","))
        except ValueError:
            raise CliError("--hidden takes widths like 64,64") from None
        if not widths or min(widths) < 1 or timesteps < 1 or eval_every < 1 or eval_games < 1:
            raise CliError("--hidden, --timesteps, --eval-every and --eval-games are positive")
        from karnak.envs.training import TrainConfig, require_train_extra, train

        require_train_extra()
        folder = out if out is not None else Path("runs") / f"train-{game.name}"
        config = TrainConfig(
            game=game.name,
            timesteps=timesteps,
            seed=seed,
            opponents=opponents,
            players=players,
            hidden=widths,
            eval_every=eval_every,
            eval_games=eval_games,
            command="karnak " + " ".join(sys.argv[1:]),
        )
        record = train(config, folder, log=console.print)
        console.print(
            f"{record['timesteps']} steps in {record['seconds'] / 60:.1f} min; wrote "
            f"{folder}/policy.npz ({record['policy']['bytes'] // 1024} KB), model.zip, "
            "curve.csv and training.json"
        )
        if ship:
            from karnak.bots.learned import policy_folder

            target = policy_folder(game)
            shutil.copyfile(folder / "policy.npz", target / "policy.npz")
            shutil.copyfile(folder / "training.json", target / "policy.json")
            console.print(f"shipped: {target}/policy.npz and policy.json")


def _train_judge(
    game: Game,
    players: int | None,
    games: int,
    epochs: int,
    seed: int,
    hidden: str,
    out: Path | None,
    ship: bool,
    console: Console,
) -> None:
    """``karnak train GAME --judge``: see :mod:`karnak.bots.judge_training`."""
    from karnak.bots.judge import judge_path
    from karnak.bots.judge_training import JudgeConfig, train_judge

    # by default the smallest table with an opponent (a judge of a solo game is asked for)
    table = players if players is not None else min(max(2, game.min_players), game.max_players)
    if not game.min_players <= table <= game.max_players:
        raise CliError(
            f"{game.title} is played by {game.min_players} to {game.max_players}, not {table}"
        )
    try:
        widths = tuple(int(w) for w in hidden.split(","))
        config = JudgeConfig(
            game=game.name, players=table, games=games, seed=seed, hidden=widths, epochs=epochs
        )
    except ValueError as exc:
        raise CliError(f"cannot train a judge so: {exc}") from None
    folder = out if out is not None else Path("runs") / f"judge-{game.name}-{table}"
    folder.mkdir(parents=True, exist_ok=True)
    model, record = train_judge(game, config, log=console.print)
    record["command"] = "karnak " + " ".join(sys.argv[1:])
    name = f"judge_{table}"
    model.save(folder / f"{name}.npz")
    (folder / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    mse = record["held_out_mse"]
    console.print(
        f"{record['rows']} rows, {record['seconds']['all'] / 60:.1f} min; held-out mean "
        f"squared error: judge {mse['judge']:.4f}, hand-made evaluator "
        f"{mse['hand_evaluator']:.4f}, a constant {mse['constant_mean']:.4f}; wrote "
        f"{folder}/{name}.npz and {name}.json"
    )
    if ship:
        target = judge_path(game, table)
        shutil.copyfile(folder / f"{name}.npz", target)
        shutil.copyfile(folder / f"{name}.json", target.with_suffix(".json"))
        console.print(f"shipped: {target} and {target.with_suffix('.json').name}")
