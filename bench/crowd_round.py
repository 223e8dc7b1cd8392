"""A crowd table's round against a real server: how long until every page shows the next.

Starts ``karnak serve`` on loopback (its own process, a fresh SQLite file, no bots), creates
one Egyptia game of ``--seats`` human seats (99: a full crowd table), opens every seat's
WebSocket as its page would, and plays ``--rounds`` rounds: each seat, when its page shows
it a move, posts one (the first legal move, so every run plays the same game). The move
that ends a round is timed from its submission to the moment each seat's socket shows the
next round; the figures are the median and the 99th percentile over every socket and round,
the slowest socket of each round, and the size of the view that showed each page the round
(median and largest, in bytes as the server encodes it: a crowd's page gets the other
builders in short, a smaller table's every sheet).

    python bench/crowd_round.py --seats 99 --rounds 5

The load generator (99 sockets reading every view) shares the machine with the server, as
the other server benchmarks do; the report says so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import free_port, start_server, wait_until_up

ROUND = re.compile(r'"round":(\d+)')
#: The largest view a socket takes (a full crowd's view is about half a megabyte).
MAX_MESSAGE = 16 * 1024 * 1024


class Page:
    """One seat's page: its socket, the newest view, when each round first showed."""

    def __init__(self, seat: int, token: str) -> None:
        self.seat, self.token = seat, token
        self.text = ""
        self.round = 0
        self.shown: dict[int, float] = {}
        #: The size (UTF-8 bytes) of the view that first showed each round.
        self.sizes: dict[int, int] = {}
        self.changed = asyncio.Event()

    async def listen(self, socket: Any) -> None:
        async for message in socket:
            found = ROUND.search(message)
            if found is not None:
                number = int(found.group(1))
                if number not in self.shown:
                    self.shown[number] = time.perf_counter()
                    self.sizes[number] = len(message.encode())
                self.round = max(self.round, number)
            self.text = message
            self.changed.set()


async def play_seat(
    client: httpx.AsyncClient, game_id: str, page: Page, ends: dict[int, float], rounds: int
) -> None:
    """Post the seat's first legal move whenever its page shows it one, until the rounds
    are played (or the game is over)."""
    while True:
        await page.changed.wait()
        page.changed.clear()
        view = orjson.loads(page.text)
        if view.get("status") == "finished" or page.round > rounds:
            return
        if not view.get("your_turn") or not view.get("legal"):
            continue
        before, sent = page.round, time.perf_counter()
        answer = await client.post(
            f"/api/games/{game_id}/actions",
            headers={"X-Karnak-Token": page.token},
            json={"version": view["version"], "action": view["legal"][0]["action"]},
        )
        if answer.status_code == 200:
            number = answer.json()["view"].get("observation", {}).get("round")
            if isinstance(number, int) and number > before:
                ends.setdefault(number, sent)  # this move ended the round
        elif answer.status_code != 409:  # 409: the page was behind; it will catch up
            raise RuntimeError(f"seat {page.seat}: {answer.status_code} {answer.text[:200]}")


async def measure(base: str, seats: int, rounds: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await wait_until_up(client)
        created = await client.post(
            "/api/games", json={"game": "egyptia", "seats": [{"kind": "human"}] * seats}
        )
        created.raise_for_status()
        game = created.json()
        pages = [Page(s["seat"], s["token"]) for s in game["seats"]]
        ws = base.replace("http", "ws", 1)
        sockets = [
            await connect(f"{ws}/api/games/{game['id']}/ws?token={p.token}", max_size=MAX_MESSAGE)
            for p in pages
        ]
        listeners = [asyncio.create_task(p.listen(s)) for p, s in zip(pages, sockets, strict=True)]
        ends: dict[int, float] = {}
        started = time.perf_counter()
        await asyncio.gather(*(play_seat(client, game["id"], p, ends, rounds) for p in pages))
        elapsed = time.perf_counter() - started
        await asyncio.sleep(0.5)  # the last views on their way
        for socket in sockets:
            await socket.close()
        for task in listeners:
            task.cancel()
        waits: list[float] = []
        sizes: list[int] = []
        slowest: dict[int, float] = {}
        for number, sent in sorted(ends.items()):
            shown = [p.shown[number] - sent for p in pages if number in p.shown]
            waits += shown
            sizes += [p.sizes[number] for p in pages if number in p.sizes]
            if shown:
                slowest[number] = max(shown)
        if not waits:
            raise RuntimeError("no round ended: nothing to time")
        cuts = statistics.quantiles(waits, n=100) if len(waits) > 1 else waits * 99
        return {
            "seats": seats,
            "rounds_timed": len(slowest),
            "samples": len(waits),
            "p50_ms": round(statistics.median(waits) * 1000, 1),
            "p99_ms": round(cuts[98] * 1000, 1),
            "slowest_socket_per_round_ms": {k: round(v * 1000, 1) for k, v in slowest.items()},
            # the view that showed each page a timed round, in UTF-8 bytes (the server's
            # sockets send it uncompressed)
            "view_bytes_p50": round(statistics.median(sizes)),
            "view_bytes_max": max(sizes),
            "play_seconds": round(elapsed, 1),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=99, help="builders (1 to 99)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds to time (1 to 30)")
    parser.add_argument("--json", action="store_true", help="the report as JSON")
    args = parser.parse_args()
    if not 1 <= args.seats <= 99:
        parser.error("--seats is between 1 and 99")
    if not 1 <= args.rounds <= 30:
        parser.error("--rounds is between 1 and 30")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "server.log"
        with log_path.open("wb") as log:
            server = start_server(port, Path(folder) / "crowd.sqlite3", log)
            try:
                report = asyncio.run(measure(f"http://127.0.0.1:{port}", args.seats, args.rounds))
            finally:
                server.terminate()
                server.wait(timeout=30)
    report["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['seats']} builders, {report['rounds_timed']} rounds timed "
            f"({report['samples']} page updates): p50 {report['p50_ms']} ms, "
            f"p99 {report['p99_ms']} ms; slowest socket by round "
            f"{report['slowest_socket_per_round_ms']}; view {report['view_bytes_p50']} bytes "
            f"(largest {report['view_bytes_max']}) ({report['machine']})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
