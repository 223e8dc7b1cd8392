"""Stopping a server whose bots are thinking: SIGTERM must not wait for the search."""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from karnak.bots.base import SeatView, make_bot
from karnak.bots.ismcts import ISMCTSBot
from karnak.core import Rng, get_game

from .processes import Proc, alive, cpu_seconds, descendants, kill_all, needs_proc, wait_gone
from .test_kill import free_port, serve, wait_up

#: How long a stopping server may take, from SIGTERM to its exit.
SHUTDOWN_BOUND = 8.0


def test_a_search_stops_when_asked() -> None:
    game = get_game("amunre")
    state = game.new_state(4, seed=3)
    seat = state.to_move()[0]
    bot = make_bot("ismcts:600s", game)
    assert isinstance(bot, ISMCTSBot)
    asked = threading.Event()
    bot.stop = asked.is_set
    threading.Timer(0.3, asked.set).start()
    start = time.monotonic()
    action = bot.choose(SeatView.of(state, seat), Rng(1))
    assert time.monotonic() - start < 10
    assert action in state.legal_actions(seat)


def wait_thinking(server: Proc, workers: int) -> None:
    """Until a bot is surely thinking: the process that thinks (a worker, or the server
    itself with ``workers=0``) has used more processor time than starting up takes."""
    before = cpu_seconds(server)
    end = time.monotonic() + 60
    while True:
        if workers:
            if any(cpu_seconds(proc) > 2.5 for proc in descendants(server.pid)):
                return
        elif cpu_seconds(server) > before + 1.5:
            return
        assert time.monotonic() < end, "no bot started thinking"
        time.sleep(0.1)


def started(pid: int) -> Proc:
    return Proc(pid, int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[19]))


@needs_proc
@pytest.mark.parametrize(
    ("workers", "stop"),
    [(1, signal.SIGTERM), (1, signal.SIGINT), (0, signal.SIGINT)],
    ids=["workers-sigterm", "workers-sigint", "thread-sigint"],
)
def test_a_server_whose_bots_think_stops_quickly(
    tmp_path: Path, workers: int, stop: signal.Signals
) -> None:
    """Four bots that may each think a minute a move (the most this server allows).

    SIGTERM is how a service manager stops the server, SIGINT is Ctrl-C; with ``workers=0``
    the bots think in the server's threads, which the interpreter waits for on its way out.
    """
    port = free_port()
    limits = ("--max-think", "60s", "--max-game-think", "240s")
    server = serve(tmp_path / "stop.sqlite3", port, subprocess.DEVNULL, *limits, workers=workers)
    seen: list[Proc] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_up(client)
            seats = [{"kind": "bot", "bot": "ismcts:60s"}] * 4
            created = client.post("/api/games", json={"seats": seats, "seed": 2})
            assert created.status_code == 201, created.text
        wait_thinking(started(server.pid), workers)
        seen = descendants(server.pid)
        start = time.monotonic()
        server.send_signal(stop)
        server.wait(timeout=60)
        took = time.monotonic() - start
        assert took < SHUTDOWN_BOUND, f"the server took {took:.1f} s to stop"
        assert not wait_gone(seen, timeout=2.0), "processes outlived the stopped server"
        assert not [proc for proc in seen if alive(proc)]
    finally:
        seen.extend(descendants(server.pid))
        server.kill()
        server.wait(timeout=10)
        kill_all(seen)
