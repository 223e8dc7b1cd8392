"""Sizing figures for docs/operating.md ("Sizing"): memory per running game, a bot worker's
memory, CPU per game of bots (heuristic and search), printed as JSON.

    .venv/bin/python bench/sizing.py          # N=200 games of each kind (N=50 for a quick look)

Memory is the server process's resident set before and after creating N games of each
kind in one server (in-process, SQLite); a bot worker is measured after it has thought;
CPU is ``karnak simulate`` of one game, each alone in its process. The figures depend on
the machine and its load: say which gave them."""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings


def rss_mib(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in cmd:
                found.append(int(entry.name))
    return found


SETTINGS = ServerSettings(
    max_running_games=100_000,
    running_games_per_client=100_000,
    creates_per_minute=1_000_000,
    moves_per_minute=1_000_000,
)
BODIES = {
    "amunre": {"game": "amunre", "seats": [{"kind": "human"}] * 4},
    "aton": {"game": "aton", "seats": [{"kind": "human"}] * 2},
    "egyptia": {"game": "egyptia", "seats": [{"kind": "human"}] * 4},
}


def main() -> None:
    n = int(os.environ.get("N", "200"))
    out: dict[str, object] = {
        "machine": os.uname().nodename,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/k.sqlite3", bot_workers=0, settings=SETTINGS)
        with TestClient(app) as client:
            client.get("/")
            for body in BODIES.values():  # warm up every game's code
                assert client.post("/api/games", json=body).status_code == 201
            for game, body in BODIES.items():
                gc.collect()
                before = rss_mib()
                for _ in range(n):
                    answer = client.post("/api/games", json=body)
                    assert answer.status_code == 201, answer.text
                gc.collect()
                after = rss_mib()
                out[f"{game}: KiB per running game ({n} games)"] = round(
                    (after - before) * 1024 / n, 1
                )
            out["server RSS after all games (MiB)"] = round(rss_mib(), 1)

    # a bot worker process: spawned by the server's BotRunner, measured after it has thought
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/k.sqlite3", bot_workers=1, settings=SETTINGS)
        with TestClient(app) as client:
            body = {
                "game": "amunre",
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3,
            }
            answer = client.post("/api/games", json=body)
            out["bot game created"] = answer.status_code
            deadline = time.monotonic() + 60
            workers: list[int] = []
            while time.monotonic() < deadline and not workers:
                time.sleep(1)
                workers = children(os.getpid())
            time.sleep(3)
            out["bot worker RSS (MiB)"] = [round(rss_mib(pid), 1) for pid in children(os.getpid())]

    # CPU per game of bots, each game alone in its process (karnak simulate)
    for game, players in (("aton", 2), ("amunre", 4), ("egyptia", 4)):
        for bots in ("heuristic", "ismcts:0.25s"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.monotonic()
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    "from karnak.cli.main import app; app()",
                    "simulate",
                    game,
                    "--players",
                    str(players),
                    "--bots",
                    bots,
                    "-n",
                    "1",
                    "--json",
                ],
                capture_output=True,
                text=True,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out[f"{game} x{players} {bots}: CPU s / wall s per game"] = (
                round(cpu, 1),
                round(time.monotonic() - started, 1),
                done.returncode,
            )
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
