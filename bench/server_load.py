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

Several processes (docs/operating.md): ``--processes 1 2 3`` runs the same load, for each
count, against that many ``karnak serve`` processes on a new PostgreSQL database with a Redis
broker, behind HAProxy (karnak.server.cluster.local starts them all on loopback), after one
run of the single-process path (one process, SQLite, no broker) as the reference; it prints
moves a second and p50/p99 for each, and what the shared path costs one process:

    python bench/server_load.py --processes 1 2 3 --games 200 --pause 1

It needs PostgreSQL (``--postgres URL``, default $KARNAK_TEST_POSTGRES_URL: a role that may
create databases), redis-server and haproxy. On a machine with more cores, ``--workers W``
gives each ``karnak serve`` W processes of its own and ``--clients C`` spreads the load
generator over C processes (one alone saturates a core long before a large cluster does).
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
    from karnak.server.cluster.local import GENEROUS_ENV, GENEROUS_LIMITS

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
        *GENEROUS_LIMITS,
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    # every simulated page comes from this one loopback address
    for name, value in GENEROUS_ENV.items():
        env.setdefault(name, value)
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
    async with httpx.AsyncClient(base_url=base, timeout=60, verify=TLS, trust_env=False) as client:
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
                    proxy=None,
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


async def load(base: str, seeds: list[int], moves: int, pause: float) -> Tally:
    """Play the games of ``seeds`` at once against ``base``."""
    tally = Tally()
    await asyncio.gather(*(drive(base, moves, pause, seed, tally) for seed in seeds))
    return tally


def load_in_process(base: str, seeds: list[int], moves: int, pause: float) -> Tally:
    """:func:`load` in a load-generator process of its own (``--clients``)."""
    return asyncio.run(load(base, seeds, moves, pause))


def merged(tallies: list[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.latencies += tally.latencies
        total.accepted.update(tally.accepted)
        total.errors += tally.errors
        total.resent += tally.resent
    return total


async def generate(base: str, seeds: list[int], moves: int, pause: float, clients: int) -> Tally:
    """The load, from this process or from ``clients`` processes (the games dealt out)."""
    if clients <= 1:
        return await load(base, seeds, moves, pause)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(clients, mp_context=context) as pool:
        parts = [seeds[i::clients] for i in range(clients)]
        tallies = await asyncio.gather(
            *(
                loop.run_in_executor(pool, load_in_process, base, part, moves, pause)
                for part in parts
                if part
            )
        )
    return merged(list(tallies))


async def run(
    games: int,
    moves: int,
    pause: float,
    port: int | None = None,
    *,
    base: str = "",
    clients: int = 1,
) -> dict[str, Any]:
    """The load against ``base`` (or the server on ``port``), and its report."""
    base = base or f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as client:
        await wait_until_up(client)
        started = time.perf_counter()
        seeds = [1000 + g for g in range(games)]
        tally = await generate(base, seeds, moves, pause, clients)
        elapsed = time.perf_counter() - started
        lost = 0
        for game_id, count in tally.accepted.items():
            # behind a balancer the answer may come from a process a moment behind
            for _ in range(20):
                view = (await client.get(f"/api/games/{game_id}")).json()
                if view["version"] == count:
                    break
                await asyncio.sleep(0.1)
            lost += abs(view["version"] - count)
    latencies = sorted(tally.latencies)

    def quantile(q: float) -> float:
        if not latencies:
            return float("nan")
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    return {
        "games": games,
        "moves_per_game": moves,
        "pause_seconds": pause,
        "actions": len(latencies),
        "seconds": round(elapsed, 2),
        "actions_per_second": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(quantile(0.50), 1),
        "p99_ms": round(quantile(0.99), 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "errors": len(tally.errors),
        "resent": tally.resent,
        "error_samples": tally.errors[:5],
        "lost_actions": lost,
    }


def measure(
    games: int, moves: int, pause: float, synchronous: str = "FULL", clients: int = 1
) -> tuple[dict[str, Any], list[str]]:
    """One run against a fresh server: the report and the server log's error lines."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "server.log"
        with log_path.open("wb") as log:
            server = start_server(port, Path(folder) / "load.sqlite3", log, synchronous)
            try:
                report = asyncio.run(run(games, moves, pause, port, clients=clients))
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
    return judged(report, server_errors), server_errors


def judged(report: dict[str, Any], server_errors: list[str]) -> dict[str, Any]:
    report["server_errors"] = len(server_errors)
    report["target_met"] = (
        report["p99_ms"] < TARGET_P99_MS
        and report["errors"] == 0
        and report["lost_actions"] == 0
        and not server_errors
    )
    return report


def measure_cluster(
    admin_url: str,
    processes: int,
    games: int,
    moves: int,
    pause: float,
    *,
    workers: int = 1,
    clients: int = 1,
) -> tuple[dict[str, Any], list[str]]:
    """One run through HAProxy against ``processes`` servers on a new PostgreSQL database
    with a Redis broker: the report and the servers' error lines."""
    from karnak.server.cluster.local import LocalCluster

    with (
        tempfile.TemporaryDirectory() as folder,
        LocalCluster(admin_url, Path(folder), count=processes, workers=workers) as cluster,
    ):
        report = asyncio.run(run(games, moves, pause, base=cluster.url, clients=clients))
        server_errors = cluster.errors()
    report["processes"] = processes
    report["workers_each"] = workers
    return judged(report, server_errors), server_errors


def print_report(label: str, report: dict[str, Any], server_errors: list[str]) -> None:
    print(
        f"[{label}] "
        f"{report['games']} concurrent games, a move every {report['pause_seconds']:g} s on "
        f"average: {report['actions']} actions in {report['seconds']} s = "
        f"{report['actions_per_second']} actions/s; submission to broadcast "
        f"p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms; errors {report['errors']}, "
        f"lost actions {report['lost_actions']}, moves sent again {report['resent']}; "
        f"target {'met' if report['target_met'] else 'MISSED'}"
    )
    for sample in report["error_samples"]:
        print("  error:", sample)
    for line in server_errors[:5]:
        print("  server log:", line)


def clean_run(report: dict[str, Any], server_errors: list[str]) -> bool:
    return not server_errors and not report["errors"] and not report["lost_actions"]


def run_processes(args: argparse.Namespace) -> int:
    """``--processes``: the single-process reference, then each process count."""
    admin_url = args.postgres or os.environ.get("KARNAK_TEST_POSTGRES_URL")
    if not admin_url:
        print("--processes needs PostgreSQL: --postgres URL or KARNAK_TEST_POSTGRES_URL")
        return 2
    from karnak.server.cluster.local import missing_parts

    missing = missing_parts(admin_url)
    if missing:
        print("--processes cannot run here:", "; ".join(missing))
        return 2
    clean = True
    for pause in args.pause:
        reference, server_errors = measure(
            args.games, args.moves, pause, "FULL", clients=args.clients
        )
        reference["path"] = "one process, SQLite, no broker"
        clean = clean and clean_run(reference, server_errors)
        rows = [("reference", reference)]
        if args.json:
            print(json.dumps(reference))
        else:
            print_report("1 process, SQLite (the single-process path)", reference, server_errors)
        for count in args.processes:
            report, server_errors = measure_cluster(
                admin_url,
                count,
                args.games,
                args.moves,
                pause,
                workers=args.workers,
                clients=args.clients,
            )
            report["path"] = "HAProxy, PostgreSQL, Redis"
            clean = clean and clean_run(report, server_errors)
            rows.append((f"{count}", report))
            if args.json:
                print(json.dumps(report))
            else:
                each = f" x {args.workers} workers" if args.workers != 1 else ""
                print_report(
                    f"{count} process(es){each}, PostgreSQL + Redis via HAProxy",
                    report,
                    server_errors,
                )
        if not args.json:
            print_summary(rows)
    return 0 if clean else 1


def print_summary(rows: list[tuple[str, dict[str, Any]]]) -> None:
    """Moves a second and latency per process count, and the shared path's cost for one."""
    print(
        f"{'processes':>22} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8}  p99 < {TARGET_P99_MS:g} ms"
    )
    for label, report in rows:
        name = "1 (SQLite, reference)" if label == "reference" else label
        met = "yes" if report["p99_ms"] < TARGET_P99_MS else "NO"
        print(
            f"{name:>22} {report['actions_per_second']:>9} {report['p50_ms']:>8} "
            f"{report['p99_ms']:>8}  {met}"
        )
    reference = rows[0][1]
    one = next((report for label, report in rows if label == "1"), None)
    if one is not None:
        print(
            "the shared path's cost to one process: "
            f"p50 {one['p50_ms'] - reference['p50_ms']:+.1f} ms, "
            f"p99 {one['p99_ms'] - reference['p99_ms']:+.1f} ms "
            f"(moves/s {one['actions_per_second']} against {reference['actions_per_second']})"
        )


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
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        help="process counts to run behind HAProxy on PostgreSQL + Redis (one run each, "
        "after the single-process SQLite reference)",
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="PostgreSQL on this machine whose role may create databases "
        "(default: $KARNAK_TEST_POSTGRES_URL)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="with --processes: processes of each karnak serve"
    )
    parser.add_argument(
        "--clients", type=int, default=1, help="load-generator processes (the games dealt out)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.processes:
        return run_processes(args)
    clean = True
    runs = [(pause, mode) for pause in args.pause for mode in args.synchronous]
    for pause, mode in runs:
        report, server_errors = measure(args.games, args.moves, pause, mode, clients=args.clients)
        report["synchronous"] = mode
        clean = clean and clean_run(report, server_errors)
        if args.json:
            print(json.dumps(report))
            continue
        print_report(f"synchronous={mode}", report, server_errors)
    return 0 if clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
