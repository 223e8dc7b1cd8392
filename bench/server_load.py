"""Many games at once against a real server: throughput, latency, errors, lost actions.

Starts ``karnak serve`` on loopback (its own process, a fresh SQLite file, no bots), creates
``--games`` four-player games of human seats, and plays every game at once as four browsers
would: each seat's page holds its WebSocket open, and the seat to move posts a random legal
move with the version its page shows. The latency is timed from the submission to the
moment every seat's socket shows the new version (the broadcast).

At the end every game's version on the server is compared with the moves the drivers saw
accepted: a difference is a lost (or invented) action.

    python bench/server_load.py --games 200 --moves 40 --pause 2 1

``--pause`` is the mean time a player waits before a move (uniform on 0 to twice it); with
several values the benchmark runs once for each, on a fresh server. People take far longer
than 2 s over a decision in Amun-Re, so 2 s is already a crowd of fast players; 1 s shows
how the server behaves near its capacity.

Target on a 2-core machine (the load generator shares it): 200 concurrent games, p99 under
100 ms, no errors, none lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
TARGET_P99_MS = 100.0


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    accepted: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    resent: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    port: int, database: Path, log: Any, synchronous: str = "FULL"
) -> subprocess.Popen[bytes]:
    """The server in its own process; its log goes to a file (a pipe nobody reads would
    fill up and stop the server). The load comes from one client, so the per-client rate
    limits are lifted; ``synchronous`` is SQLite's commit mode (FULL as shipped; NORMAL to
    measure what durable commits cost)."""
    start = (
        "import karnak.server.db as db; "
        f"db.SQLITE_SYNCHRONOUS = {synchronous!r}; "
        "from karnak.cli.main import app; app()"
    )
    command = [
        sys.executable,
        "-c",
        start,
        "serve",
        "--port",
        str(port),
        "--database",
        str(database),
        "--bot-workers",
        "0",
        "--creates-per-minute",
        "1000000",
        "--moves-per-minute",
        "1000000",
        "--max-games",
        "100000",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)


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


class SeatSocket:
    """One seat's page: its WebSocket, the newest view it holds, when each version arrived.

    The load generator shares the machine with the server, so it reads only the version of
    each message as it arrives and parses a view in full only when its seat is to move.
    """

    def __init__(self) -> None:
        self.version = -1
        self.text = ""
        self.arrivals: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def listen(self, socket: Any) -> None:
        async for message in socket:
            found = VERSION.search(message, 0, 400)
            assert found is not None, message[:400]
            version = int(found.group(1))
            self.arrivals.setdefault(version, time.perf_counter())
            if version > self.version:
                self.version, self.text = version, message
            self.changed.set()

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = orjson.loads(self.text)
        return view


#: One TLS context for all the clients (unused on plain HTTP, but each client would
#: otherwise load the certificate store, which costs the load generator seconds).
TLS = ssl.create_default_context()

#: Views start with a few short fields, the version among them.
VERSION = re.compile(r'"version":(\d+)')


async def drive(base: str, moves: int, pause: float, seed: int, tally: Tally) -> None:
    """One game as four browsers play it: each seat's page holds its WebSocket open.

    The seat to move posts a random legal move from the view its socket last showed, with
    that view's version; the latency is the time from the submission until every seat's
    socket shows the new version (the broadcast). Between moves the player waits a random
    time around ``pause`` seconds (uniform on 0 to twice it); 0 plays as fast as it can.
    Each game has its own HTTP connection, as each browser has.
    """
    import random

    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, 4 * pause))  # players arrive over a few seconds
    async with httpx.AsyncClient(base_url=base, timeout=60, verify=TLS) as client:
        try:
            await play_game(client, base, moves, pause, seed, rng, tally)
        except Exception as exc:  # a broken driver is an error of the run, not a crash
            tally.errors.append(f"{type(exc).__name__}: {exc}")


async def play_game(
    client: httpx.AsyncClient,
    base: str,
    moves: int,
    pause: float,
    seed: int,
    rng: Any,
    tally: Tally,
) -> None:
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
    pages = [SeatSocket() for _ in tokens]
    ws_base = base.replace("http://", "ws://")
    async with contextlib.AsyncExitStack() as stack:
        listeners = []
        for page, token in zip(pages, tokens, strict=True):
            socket = await stack.enter_async_context(
                connect(
                    f"{ws_base}/api/games/{game_id}/ws?token={token}",
                    max_size=2**24,
                    open_timeout=60,
                )
            )
            listeners.append(asyncio.create_task(page.listen(socket)))
        try:
            await play(client, game_id, tokens, pages, moves, pause, rng, tally)
        finally:
            for task in listeners:
                task.cancel()


async def play(
    client: httpx.AsyncClient,
    game_id: str,
    tokens: list[str],
    pages: list[SeatSocket],
    moves: int,
    pause: float,
    rng: Any,
    tally: Tally,
) -> None:
    version = 0
    for _ in range(moves):
        await asyncio.sleep(rng.uniform(0, 2 * pause))
        for page in pages:  # every page shows the current position before anyone moves
            while page.version < version:
                page.changed.clear()
                await asyncio.wait_for(page.changed.wait(), 30)
        view = pages[0].view()
        if view["status"] == "finished":
            return
        seat = view["to_move"][0]
        mine = view if seat == 0 else pages[seat].view()
        choice = rng.choice(mine["legal"])["text"]
        sent = time.perf_counter()
        for attempt in range(3):
            try:
                answer = await client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": tokens[seat]},
                    json={"version": mine["version"], "action": choice},
                )
                break
            except httpx.TransportError:
                # A kept-alive connection the server closed as the request went out: the
                # page sends again, which is safe (a repeated move is answered as played).
                if attempt == 2:
                    raise
                tally.resent += 1
        if answer.status_code != 200:
            tally.errors.append(f"move: {answer.status_code} {answer.text[:100]}")
            return
        tally.accepted[game_id] += 1
        version = orjson.loads(answer.content)["version"]
        for page in pages:
            while version not in page.arrivals:
                page.changed.clear()
                await asyncio.wait_for(page.changed.wait(), 30)
        tally.latencies.append(max(page.arrivals[version] for page in pages) - sent)


async def run(games: int, moves: int, pause: float, port: int) -> dict[str, Any]:
    tally = Tally()
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await wait_until_up(client)
        started = time.perf_counter()
        await asyncio.gather(*(drive(base, moves, pause, 1000 + g, tally) for g in range(games)))
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
        "resent": tally.resent,
        "error_samples": tally.errors[:5],
        "lost_actions": lost,
    }


def measure(
    games: int, moves: int, pause: float, synchronous: str = "FULL"
) -> tuple[dict[str, Any], list[str]]:
    """One run against a fresh server: the report and the server log's error lines."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "server.log"
        with log_path.open("wb") as log:
            server = start_server(port, Path(folder) / "load.sqlite3", log, synchronous)
            try:
                report = asyncio.run(run(games, moves, pause, port))
            finally:
                server.send_signal(signal.SIGINT)
                try:
                    server.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    server.kill()
        server_errors = [
            line
            for line in log_path.read_text(errors="replace").splitlines()
            if "Traceback" in line or "ERROR" in line
        ]
    report["server_errors"] = len(server_errors)
    report["target_met"] = (
        report["p99_ms"] < TARGET_P99_MS
        and report["errors"] == 0
        and report["lost_actions"] == 0
        and not server_errors
    )
    return report, server_errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40, help="moves played in each game")
    parser.add_argument(
        "--pause",
        type=float,
        nargs="+",
        default=[2.0, 1.0],
        help="mean seconds a player waits before each move; several values: one run each",
    )
    parser.add_argument(
        "--synchronous",
        nargs="+",
        default=["FULL"],
        choices=["FULL", "NORMAL"],
        help="SQLite commit modes to run (FULL: durable, as shipped; NORMAL: the reference)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    clean = True
    runs = [(pause, mode) for pause in args.pause for mode in args.synchronous]
    for pause, mode in runs:
        report, server_errors = measure(args.games, args.moves, pause, mode)
        report["synchronous"] = mode
        clean = clean and not server_errors and not report["errors"] and not report["lost_actions"]
        if args.json:
            print(json.dumps(report))
            continue
        print(
            f"[synchronous={mode}] "
            f"{report['games']} concurrent games, a move every {pause:g} s on average: "
            f"{report['actions']} actions in {report['seconds']} s = "
            f"{report['actions_per_second']} actions/s; submission to broadcast "
            f"p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms; errors {report['errors']}, "
            f"lost actions {report['lost_actions']}, moves sent again {report['resent']}; "
            f"target {'met' if report['target_met'] else 'MISSED'}"
        )
        for sample in report["error_samples"]:
            print("  error:", sample)
        for line in server_errors[:5]:
            print("  server log:", line)
    return 0 if clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
