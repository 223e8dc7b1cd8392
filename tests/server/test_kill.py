"""Kill the real server process mid-game (SIGKILL: no shutdown at all), start it again.

Its bot workers must not outlive it: a killed server gets no chance to stop them, so each
worker notices by itself that its server is gone.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.sync.client import connect

from karnak.core import Rng

from .processes import Proc, descendants, kill_all, needs_proc, wait_gone


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(
    database: Path,
    port: int,
    log: Any = subprocess.DEVNULL,
    *options: str,
    workers: int = 1,
) -> subprocess.Popen[bytes]:
    """``karnak serve`` in a process of its own, with ``options`` added to its command line."""
    return subprocess.Popen(
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
            str(workers),
            *options,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=dict(os.environ),
    )


def wait_up(client: httpx.Client) -> None:
    end = time.monotonic() + 60
    while True:
        try:
            if client.get("/api/games").status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < end, "the server did not start"
        time.sleep(0.1)


def kill_and_check_workers(server: subprocess.Popen[bytes], seen: list[Proc]) -> None:
    """SIGKILL ``server``; its worker processes (``seen`` and any left) must follow it."""
    seen.extend(descendants(server.pid))
    server.send_signal(signal.SIGKILL)
    server.wait(timeout=10)
    left = wait_gone(seen, timeout=20)
    assert not left, f"bot workers outlived their killed server: {left}"


@needs_proc
def test_a_killed_server_restarts_with_nothing_lost(tmp_path: Path) -> None:
    database, port = tmp_path / "kill.sqlite3", free_port()
    seen: list[Proc] = []  # every process found below a server, cleaned up at the end
    server = serve(database, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_up(client)
            created = client.post(
                "/api/games",
                json={
                    "seats": [
                        {"kind": "human"},
                        {"kind": "human"},
                        {"kind": "bot", "bot": "heuristic"},
                    ],
                    "seed": 5,
                },
            ).json()
            game_id = created["id"]
            tokens = [s["token"] for s in created["seats"][:2]]
            rng = Rng(3)
            accepted = 0
            while accepted < 25:
                for token in tokens:
                    mine: dict[str, Any] = client.get(
                        f"/api/games/{game_id}", params={"token": token}
                    ).json()
                    if mine["your_turn"]:
                        choice = mine["legal"][rng.below(len(mine["legal"]))]["text"]
                        answer = client.post(
                            f"/api/games/{game_id}/actions",
                            params={"token": token},
                            json={"version": mine["version"], "action": choice},
                        )
                        assert answer.status_code == 200, answer.text
                        accepted += 1
            before = [
                client.get(f"/api/games/{game_id}", params={"token": t}).json() for t in tokens
            ]
            workers = descendants(server.pid)
            assert workers, "the heuristic bot moved, so a bot worker process was started"
        kill_and_check_workers(server, seen)
        server = serve(database, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_up(client)
            after = [
                client.get(f"/api/games/{game_id}", params={"token": t}).json() for t in tokens
            ]
            # every move the clients were told of is there; a bot that was thinking may
            # have moved since the restart, so compare the moves up to the old version
            for old, new in zip(before, after, strict=True):
                assert new["version"] >= old["version"]
                assert new["log"][: len(old["log"])] == old["log"]
        kill_and_check_workers(server, seen)
    finally:
        seen.extend(descendants(server.pid))
        server.kill()
        server.wait(timeout=10)
        kill_all(seen)


def test_the_server_log_never_shows_a_seat_token(tmp_path: Path) -> None:
    """Tokens travel in the links' query strings; request and connection lines would show them."""
    database, port, log_path = tmp_path / "log.sqlite3", free_port(), tmp_path / "server.log"
    with log_path.open("wb") as log:
        server = serve(database, port, log)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                wait_up(client)
                created = client.post("/api/games", json={"seats": [{"kind": "human"}] * 3})
                game_id = created.json()["id"]
                token = created.json()["seats"][0]["token"]
                mine = client.get(f"/api/games/{game_id}", params={"token": token}).json()
                client.get(f"/api/games/{game_id}", params={"token": "wrong" + token})
                with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws?token={token}") as ws:
                    assert json.loads(ws.recv())["version"] == mine["version"]
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=20)
    written = log_path.read_text(errors="replace")
    assert "Karnak on http" in written  # the log was captured
    assert token not in written
