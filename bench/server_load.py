"""Many games at once against a real server: throughput, latency, errors, lost actions.

Starts ``karnak serve`` on loopback (its own process, a fresh SQLite file, no bots), creates
``--games`` four-player games of human seats, and drives every game at once from scripted
clients: each driver watches its game on a spectator WebSocket, fetches the view of the seat
to move, posts a random legal move with the version it saw, and times the interval from the
submission to the moment the spectator socket shows the new version (the broadcast).

At the end every game's version on the server is compared with the moves the drivers saw
accepted: a difference is a lost (or invented) action.

    python bench/server_load.py --games 200 --moves 40 --pause 1

Target on a 2-core machine: 200 concurrent games, p99 under 100 ms, no errors, none lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    accepted: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, database: Path) -> subprocess.Popen[bytes]:
    command = [
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
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def wait_until_up(client: httpx.AsyncClient, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            if (await client.get("/api/games")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > end:
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.2)


async def drive(
    client: httpx.AsyncClient,
    base_ws: str,
    moves: int,
    pause: float,
    seed: int,
    tally: Tally,
) -> None:
    """One game: create it, then play ``moves`` random legal moves, timing each broadcast.

    Between moves the client waits a random time around ``pause`` seconds (uniform on
    0 to twice it), as players do; 0 plays as fast as the server answers.
    """
    import random

    rng = random.Random(seed)
    response = await client.post(
        "/api/games", json={"game": "amunre", "seats": [{"kind": "human"}] * 4, "seed": seed}
    )
    if response.status_code != 201:
        tally.errors.append(f"create: {response.status_code} {response.text[:100]}")
        return
    created = response.json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    tally.accepted[game_id] = 0
    seen = {"version": -1, "to_move": [], "over": False}
    changed = asyncio.Event()
    arrivals: dict[int, float] = {}

    async with connect(f"{base_ws}/api/games/{game_id}/ws", max_size=2**24) as spectator:

        async def listen() -> None:
            async for message in spectator:
                view = json.loads(message)
                arrivals.setdefault(view["version"], time.perf_counter())
                if view["version"] > seen["version"]:
                    seen.update(
                        version=view["version"],
                        to_move=view["to_move"],
                        over=view["status"] == "finished",
                    )
                    changed.set()

        listener = asyncio.create_task(listen())
        try:
            await asyncio.wait_for(changed.wait(), 30)
            await asyncio.sleep(rng.uniform(0, 2 * pause))  # the games do not start in step
            for _ in range(moves):
                if seen["over"]:
                    break
                await asyncio.sleep(rng.uniform(0, 2 * pause))
                seat = seen["to_move"][0]
                mine = (
                    await client.get(f"/api/games/{game_id}", params={"token": tokens[seat]})
                ).json()
                if not mine["legal"]:
                    await asyncio.sleep(0.01)
                    continue
                choice = rng.choice(mine["legal"])["text"]
                target = mine["version"] + 1
                changed.clear()
                sent = time.perf_counter()
                answer = await client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": tokens[seat]},
                    json={"version": mine["version"], "action": choice},
                )
                if answer.status_code != 200:
                    tally.errors.append(f"move: {answer.status_code} {answer.text[:100]}")
                    continue
                tally.accepted[game_id] += 1
                while target not in arrivals:
                    changed.clear()
                    await asyncio.wait_for(changed.wait(), 30)
                tally.latencies.append(arrivals[target] - sent)
        except Exception as exc:  # a broken driver is an error of the run, not a crash
            tally.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            listener.cancel()


async def run(games: int, moves: int, pause: float, port: int) -> dict[str, Any]:
    tally = Tally()
    limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits
    ) as client:
        await wait_until_up(client)
        started = time.perf_counter()
        await asyncio.gather(
            *(
                drive(client, f"ws://127.0.0.1:{port}", moves, pause, 1000 + g, tally)
                for g in range(games)
            )
        )
        elapsed = time.perf_counter() - started
        lost = 0
        for game_id, count in tally.accepted.items():
            view = (await client.get(f"/api/games/{game_id}")).json()
            if view["version"] != count:
                lost += abs(view["version"] - count)
    latencies = sorted(tally.latencies)

    def quantile(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    return {
        "games": games,
        "moves_per_game": moves,
        "pause_seconds": pause,
        "actions": len(latencies),
        "seconds": round(elapsed, 2),
        "actions_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(quantile(0.50), 1),
        "p99_ms": round(quantile(0.99), 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "errors": len(tally.errors),
        "error_samples": tally.errors[:5],
        "lost_actions": lost,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40, help="moves played in each game")
    parser.add_argument(
        "--pause", type=float, default=1.0, help="mean seconds a client waits between moves"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, Path(folder) / "load.sqlite3")
        try:
            report = asyncio.run(run(args.games, args.moves, args.pause, port))
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['games']} concurrent games (pause {report['pause_seconds']} s), "
            f"{report['actions']} actions in "
            f"{report['seconds']} s = {report['actions_per_second']} actions/s; "
            f"submission to broadcast p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms; "
            f"errors {report['errors']}, lost actions {report['lost_actions']}"
        )
        for sample in report["error_samples"]:
            print("  error:", sample)
    return 0 if report["errors"] == 0 and report["lost_actions"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
