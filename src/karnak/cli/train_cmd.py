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
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Annotated

import typer

from karnak.cli.common import CliError, GameArg, make_console, reported_errors, resolve_game

#: The recipe of the shipped Aton policy (docs/research.md, Baselines).
DEFAULT_TIMESTEPS = 200_000


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
) -> None:
    """Train a MaskablePPO policy against bots and export it to NumPy (needs torch)."""
    console = make_console()
    with reported_errors():
        game = resolve_game(game_name)
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
