"""Start-up with many stored games: how soon the server answers, and how long loading takes.

Stores ``--games`` running games of ``--seats`` builders (Egyptia, the game with the biggest
tables) in a fresh SQLite file, each with ``--moves`` moves, then measures in the same run:

- ready: ``karnak serve`` started as a process until it answers ``GET /api/games``;
- loaded: the time the server takes to rebuild every running game in the background
  (in-process, the service's own measure);
- reference: rebuilding all of them in one go before answering, as the server did before
  it loaded in the background (the same store call over every id).

    python bench/startup.py --games 2000 --seats 20

The audit that asked for this saw 8.8 s before the first answer with 2,000 twenty-seat games.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx

from karnak.core import Rng, get_game
from karnak.server.bot_runner import BotRunner
from karnak.server.db import make_engine, migrate
from karnak.server.rooms import HUMAN, Accepted, Room, SeatInfo, hash_token, new_token
from karnak.server.service import GameService
from karnak.server.store import GameStore


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fill(database: Path, games: int, seats: int, moves: int) -> None:
    """``games`` running Egyptia games written straight through the store."""
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    store = GameStore(engine)
    game = get_game("egyptia")
    rng = Rng(1)
    for number in range(games):
        names = game.seat_names(seats)
        infos = [SeatInfo(s, names[s], HUMAN, None, hash_token(new_token())) for s in range(seats)]
        seed = number + 1
        room = Room(secrets.token_urlsafe(9), game, game.new_state(names, seed=seed), infos, seed)
        store.create(room)
        for _ in range(moves):
            movers = room.state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = room.state.legal_actions(seat)
            action = legal[rng.below(len(legal))]
            move = room.prepare(seat, action)  # a legal move: the server's own path
            public = None if move.private else room.version_for(None) + 1
            entry = Accepted(len(room.accepted), room.version + 1, seat, action.to_text())
            store.append(room, entry, None, public)
            room.accept(seat, action, move=move)
    engine.dispose()


def ready_time(database: Path) -> float:
    """Seconds from starting ``karnak serve`` to its first answer."""
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from karnak.cli.main import app; app()",
            "serve",
            "--port",
            str(port),
            "--database",
            str(database),
            "--bot-workers",
            "0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            while True:
                try:
                    if client.get("/api/games?limit=1").status_code == 200:
                        return time.perf_counter() - started
                except httpx.TransportError:
                    pass
                if time.perf_counter() - started > 300:
                    raise RuntimeError("the server did not answer within 300 s")
                time.sleep(0.02)
    finally:
        server.terminate()
        server.wait(30)


async def load_times(database: Path) -> tuple[float, float, int]:
    """(background loading as the server does it, all at once as before, games)."""
    engine = make_engine(f"sqlite:///{database}")
    store = GameStore(engine)
    service = GameService(store, BotRunner(0))
    await service.start()
    assert service._loader is not None
    await service._loader
    background = service.loaded_in or 0.0
    count = len(service.rooms)
    await service.stop()
    ids = store.running_ids()
    started = time.perf_counter()
    rooms, failed = store.load_many(ids)
    reference = time.perf_counter() - started
    assert not failed and len(rooms) == count
    engine.dispose()
    return background, reference, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=20)
    parser.add_argument("--moves", type=int, default=0, help="moves played in each game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "startup.sqlite3"
        started = time.perf_counter()
        fill(database, args.games, args.seats, args.moves)
        size = os.path.getsize(database) / 1e6
        print(
            f"stored {args.games} running Egyptia games of {args.seats} builders, "
            f"{args.moves} moves each ({size:.1f} MB) in {time.perf_counter() - started:.1f} s"
        )
        ready = ready_time(database)
        background, reference, count = asyncio.run(load_times(database))
    print(f"ready (karnak serve answers):            {ready:6.2f} s")
    print(f"every running game loaded (background):  {background:6.2f} s  ({count} games)")
    print(f"reference: all loaded before answering:  {reference:6.2f} s")
    print(f"first answer vs the reference:           {ready / reference:6.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
