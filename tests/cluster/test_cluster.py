"""The cluster under traffic: three ``karnak serve`` processes on PostgreSQL with a Redis
broker behind HAProxy, one of them killed with SIGKILL while games are played.

Through the balancer only, the test drives at once: solo Egyptia games that it plays itself
(each with its seat's socket open), games whose human seat never moves so that the turn
timer's bot plays it (Egyptia alone, and Aton against a bot), and a game of three search
bots. A few seconds in, it kills the process that runs the most games' bots and timers.
Then it checks that:

- every game goes on through the balancer: the played games to their end, and the games of
  bots and timers resume within 10 s of the kill (their leases are taken over);
- the sockets the kill closed are opened again through the balancer and get the current
  view, and a socket opened at the end gets each game's current version;
- not one acknowledged move is lost or stored twice: the database holds exactly the moves
  the test was answered 200 for, at the versions it was told, and nothing more;
- every stored game is a sequence of consecutive moves with rising versions.

The figures (kills, games, moves acknowledged, lost, duplicated, takeover time) are printed
for docs/operating.md (``pytest -s`` shows them).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from support.cluster import LocalCluster, client, running_cluster, ws_url

from .helpers import increasing, stored_actions
from .helpers import view as view_of

#: How soon after the kill a game's bots and timers must be moving again (seconds).
TAKEOVER_LIMIT = 10.0
#: When the kill comes, after the traffic started (seconds).
KILL_AFTER = 3.0
#: The longest the played games may take, all together (seconds).
PLAY_LIMIT = 60.0
TURN_TIMER = 2
#: How long a socket opened on a process that is a moment behind may take to catch up.
CATCH_UP = 1.0
#: Statuses a balancer answers while a process dies: the client sends the same move again.
RETRIED = {502, 503, 504}


@dataclass
class Game:
    kind: str  # "played", "timer", "bots"
    id: str
    token: str | None
    created_by: str | None
    acked: list[tuple[int, str]] = field(default_factory=list)  # (version, move) answered 200
    versions: list[tuple[float, int]] = field(default_factory=list)  # (time, version) polled
    finished: bool = False


@dataclass
class Tally:
    statuses: dict[int, int] = field(default_factory=dict)
    transport_errors: int = 0
    resent: int = 0
    refusals: list[str] = field(default_factory=list)  # 4xx and 5xx other than the retried
    reconnects: int = 0
    socket_runs: list[tuple[str | None, list[int]]] = field(default_factory=list)
    socket_problems: list[str] = field(default_factory=list)

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


class Traffic:
    def __init__(self, cluster: LocalCluster) -> None:
        self.cluster = cluster
        self.base = cluster.url
        self.tally = Tally()
        self.games: list[Game] = []
        self.stop = asyncio.Event()
        self.killed_at: float | None = None
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30, trust_env=False)

    # ------------------------------------------------------------------ games
    async def create(self, kind: str, body: dict[str, Any]) -> Game:
        answer = await self.http.post("/api/games", json=body)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        game = Game(
            kind,
            created["id"],
            created["seats"][0]["token"],
            answer.headers.get("x-karnak-process"),
        )
        self.games.append(game)
        return game

    async def get_view(self, game: Game) -> dict[str, Any]:
        params = {"token": game.token} if game.token else {}
        for _ in range(100):
            try:
                answer = await self.http.get(f"/api/games/{game.id}", params=params)
            except httpx.TransportError:
                self.tally.transport_errors += 1
                await asyncio.sleep(0.1)
                continue
            if answer.status_code == 200:
                view: dict[str, Any] = orjson.loads(answer.content)
                return view
            self.tally.count(answer.status_code)
            if answer.status_code not in RETRIED:
                self.tally.refusals.append(f"view {game.id}: {answer.status_code} {answer.text}")
            await asyncio.sleep(0.1)
        raise AssertionError(f"game {game.id}: no view through the balancer")

    # ------------------------------------------------------------------ the played games
    async def play(self, game: Game, seed: int) -> None:
        """Play a solo game to its end as a browser would: each move chosen from the newest
        view, sent again unchanged (same version, same move) until it is answered."""
        rng = random.Random(seed)
        assert game.token is not None
        view = await self.get_view(game)
        while view["status"] != "finished":
            await asyncio.sleep(rng.uniform(0.05, 0.3))
            choice = rng.choice(view["legal"])["text"]
            answer = await self.send(game, choice, view["version"])
            if answer is None:  # refused: look again
                view = await self.get_view(game)
                continue
            game.acked.append((answer["version"], choice))
            view = answer["view"]
        game.finished = True

    async def send(self, game: Game, choice: str, version: int) -> dict[str, Any] | None:
        """The move's answer once it is 200 (None if refused): a dropped connection or a
        balancer's 502 while a process dies is answered by sending the same move again,
        which the server answers as done if the first one was."""
        body = {"version": version, "action": choice}
        for attempt in range(200):
            if attempt:
                self.tally.resent += 1
                await asyncio.sleep(0.1)
            try:
                answer = await self.http.post(
                    f"/api/games/{game.id}/actions", params={"token": game.token}, json=body
                )
            except httpx.TransportError:
                self.tally.transport_errors += 1
                continue
            self.tally.count(answer.status_code)
            if answer.status_code == 200:
                moved: dict[str, Any] = orjson.loads(answer.content)
                return moved
            if answer.status_code in RETRIED:
                continue
            self.tally.refusals.append(
                f"move {game.id} {choice!r} at {version}: {answer.status_code} {answer.text}"
            )
            if answer.status_code >= 500:
                continue  # sent again: the answer says nothing of whether it was applied
            return None
        raise AssertionError(f"game {game.id}: the move {choice!r} was never answered")

    # ------------------------------------------------------------------ watching
    async def watch_socket(self, game: Game) -> None:
        """Keep a socket of the game open through the balancer (the seat's, else a
        spectator's), opened again whenever it closes; each connection's versions kept."""
        while not self.stop.is_set() and not game.finished:
            versions: list[int] = []
            process = None
            floor = game.acked[-1][0] if game.acked else 0  # acknowledged before it opened
            ended = False
            try:
                async with connect(
                    ws_url(self.base, game.id, game.token),
                    proxy=None,
                    open_timeout=10,
                    max_size=2**24,
                ) as socket:
                    if socket.response is not None:
                        process = socket.response.headers.get("x-karnak-process")
                    self.tally.socket_runs.append((process, versions))
                    # a socket may open on a process a moment behind (its broker
                    # messages in flight): it must show the acknowledged version within
                    # CATCH_UP seconds
                    behind_until: float | None = time.monotonic() + CATCH_UP
                    while not self.stop.is_set():
                        if behind_until is not None and time.monotonic() > behind_until:
                            self.tally.socket_problems.append(
                                f"{game.id}: a socket opened through the balancer (on "
                                f"{process}) still showed {versions[-1:]} after {CATCH_UP} s, "
                                f"behind the acknowledged {floor}"
                            )
                            behind_until = None
                        try:
                            message = await asyncio.wait_for(socket.recv(), 0.2)
                        except TimeoutError:
                            continue
                        view = orjson.loads(message)
                        version = view.get("version")
                        if version is None:
                            continue
                        if version >= floor:
                            behind_until = None
                        versions.append(version)
                        if view.get("status") == "finished":
                            ended = True
                            break
                if ended or self.stop.is_set():
                    return
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                pass
            if self.stop.is_set():
                return
            self.tally.reconnects += 1
            await asyncio.sleep(0.2)

    async def poll_versions(self, game: Game) -> None:
        while not self.stop.is_set():
            view = await self.get_view(game)
            game.versions.append((time.monotonic(), view["version"]))
            if view["status"] == "finished":
                game.finished = True
                return
            await asyncio.sleep(0.25)

    def resumed_after_kill(self, game: Game) -> float | None:
        """Seconds from the kill to the game's first new version (None: not yet)."""
        assert self.killed_at is not None
        before = [v for t, v in game.versions if t <= self.killed_at]
        at_kill = before[-1] if before else 0
        for moment, version in game.versions:
            if moment > self.killed_at and version > at_kill:
                return moment - self.killed_at
        return None


def lease_holders(database: str) -> dict[str, str]:
    """Each game's lease holder (``host:pid:nonce``), from the database; {} if unreadable."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT name, holder FROM leases WHERE name LIKE 'game:%'")
            ).all()
        return {name.removeprefix("game:"): holder for name, holder in rows}
    except Exception:
        return {}
    finally:
        engine.dispose()


def choose_victim(cluster: LocalCluster, games: list[Game]) -> tuple[int, list[str], str]:
    """The process that runs the most bot and timer games (by their leases, else by who
    created them), those games' ids, and how they were found."""
    background = [g for g in games if g.kind != "played"]
    holders = lease_holders(cluster.database_url)
    runs: dict[int, list[str]] = {index: [] for index in range(cluster.count)}
    for game in background:
        if holders:
            holder = holders.get(game.id, "")
            for index in runs:
                if f":{cluster.pid(index)}:" in holder:
                    runs[index].append(game.id)
        elif game.created_by and game.created_by.startswith("p"):
            runs[int(game.created_by[1:])].append(game.id)
    victim = max(runs, key=lambda index: len(runs[index]))
    return victim, runs[victim], "leases" if holders else "creator"


def test_a_killed_process_loses_nothing_and_its_games_go_on(tmp_path: Path) -> None:
    with running_cluster(tmp_path, count=3) as cluster:
        figures = asyncio.run(traffic_with_a_kill(cluster))
        figures["errors in the survivors' logs"] = [
            line for line in cluster.errors() if not line.startswith(f"#{figures['killed']}:")
        ]
        # the killed process comes back on its port, and the balancer sends it requests
        victim = figures["killed"]
        started = time.monotonic()
        cluster.restart(victim)
        figures["restart and back in the balancer (s)"] = round(time.monotonic() - started, 1)
        with client(cluster.urls[victim]) as direct, client(cluster.url) as balanced:
            for game_id in figures["game ids"]:
                assert view_of(direct, game_id) == view_of(balanced, game_id)  # finished games
        print("\ncluster figures:")
        for name, value in figures.items():
            print(f"  {name}: {value}")
        assert not figures["errors in the survivors' logs"]


async def traffic_with_a_kill(cluster: LocalCluster) -> dict[str, Any]:
    traffic = Traffic(cluster)
    started = time.monotonic()
    try:
        played = [
            await traffic.create(
                "played", {"game": "egyptia", "seats": [{"name": "Solo"}], "seed": 100 + i}
            )
            for i in range(4)
        ]
        timed = [
            await traffic.create(
                "timer",
                {"game": "egyptia", "seats": [{"name": "Away"}], "turn_timer": TURN_TIMER},
            )
            for _ in range(2)
        ]
        timed += [
            await traffic.create(
                "timer",
                {
                    "game": "aton",
                    "seats": [{"name": "Away"}, {"kind": "bot", "bot": "heuristic"}],
                    "turn_timer": TURN_TIMER,
                },
            )
            for _ in range(2)
        ]
        searching = [
            await traffic.create(
                "bots",
                {"game": "amunre", "seats": [{"kind": "bot", "bot": "ismcts:40"}] * 3},
            )
        ]
        background = timed + searching
        tasks = [asyncio.create_task(traffic.play(g, i)) for i, g in enumerate(played)]
        watchers = [asyncio.create_task(traffic.watch_socket(g)) for g in traffic.games]
        pollers = [asyncio.create_task(traffic.poll_versions(g)) for g in background]

        await asyncio.sleep(KILL_AFTER)
        victim, victims_games, found_by = choose_victim(cluster, traffic.games)
        traffic.killed_at = time.monotonic()
        await asyncio.to_thread(cluster.kill, victim, signal.SIGKILL)
        await asyncio.to_thread(cluster.wait_out, victim, 5.0)
        taken_out = time.monotonic() - traffic.killed_at

        # the background games must move again within the limit (a finished one has moved)
        deadline = traffic.killed_at + TAKEOVER_LIMIT + 5
        while time.monotonic() < deadline:
            if all(traffic.resumed_after_kill(g) is not None or g.finished for g in background):
                break
            await asyncio.sleep(0.2)
        done, pending = await asyncio.wait(tasks, timeout=PLAY_LIMIT)
        traffic.stop.set()
        for task in [*pending, *watchers, *pollers]:
            task.cancel()
        for task in done:
            task.result()  # a driver that failed fails the test here
        await asyncio.gather(*watchers, *pollers, return_exceptions=True)
        assert not pending, f"{len(pending)} played games did not finish in {PLAY_LIMIT:g} s"

        # a socket opened now gets each game's current version (within CATCH_UP seconds)
        fresh_problems = []
        for game in traffic.games:
            view = await traffic.get_view(game)
            async with connect(
                ws_url(cluster.url, game.id, game.token), proxy=None, max_size=2**24
            ) as socket:
                shown = -1
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(CATCH_UP):
                        while shown < view["version"]:
                            shown = orjson.loads(await socket.recv())["version"]
            if shown < view["version"]:
                fresh_problems.append(f"{game.id}: socket at {shown}, game at {view['version']}")
    finally:
        traffic.stop.set()
        await traffic.http.aclose()

    # ------------------------------------------------------------------ the checks
    lost = duplicated = 0
    for game in played:
        stored = [
            (version, text) for _, version, _, text in stored_actions(cluster.database_url, game.id)
        ]
        lost += len(set(game.acked) - set(stored))
        duplicated += len(stored) - len(set(stored) & set(game.acked))
        assert stored == game.acked, f"game {game.id}: stored {stored}, acknowledged {game.acked}"
    for game in traffic.games:
        rows = stored_actions(cluster.database_url, game.id)
        assert [n for n, *_ in rows] == list(range(len(rows))), f"game {game.id}: gaps"
        assert increasing([v for _, v, *_ in rows]), f"game {game.id}: versions {rows}"
    takeovers = {g.id: traffic.resumed_after_kill(g) for g in background}
    late = {
        game_id: seconds
        for game_id, seconds in takeovers.items()
        if seconds is None or seconds > TAKEOVER_LIMIT
    }
    broken_runs = [
        versions for _, versions in traffic.tally.socket_runs if not increasing(versions)
    ]
    figures: dict[str, Any] = {
        "killed": victim,
        "victim chosen by": found_by,
        "kills": 1,
        "games": {
            kind: sum(g.kind == kind for g in traffic.games) for kind in ("played", "timer", "bots")
        },
        "games the victim created": sum(g.created_by == f"p{victim}" for g in traffic.games),
        "moves acknowledged": sum(len(g.acked) for g in played),
        "lost": lost,
        "duplicated": duplicated,
        "moves stored in all games": sum(
            len(stored_actions(cluster.database_url, g.id)) for g in traffic.games
        ),
        "bot and timer games the victim ran": len(victims_games),
        "takeover seconds of those (max)": max(
            (s for g, s in takeovers.items() if s is not None and g in victims_games),
            default=None,
        ),
        "takeover seconds by game": {
            k: None if v is None else round(v, 2) for k, v in takeovers.items()
        },
        "balancer took the process out after (s)": round(taken_out, 2),
        "answers by status": dict(sorted(traffic.tally.statuses.items())),
        "moves sent again": traffic.tally.resent,
        "transport errors": traffic.tally.transport_errors,
        "refusals": traffic.tally.refusals[:10],
        "socket reconnects": traffic.tally.reconnects,
        "sockets on the victim": sum(p == f"p{victim}" for p, _ in traffic.tally.socket_runs),
        "seconds": round(time.monotonic() - started, 1),
        "game ids": [g.id for g in played],
    }
    print(figures)
    assert lost == 0 and duplicated == 0
    assert not late, f"bots and timers not resumed within {TAKEOVER_LIMIT:g} s: {late}"
    assert not broken_runs, f"a socket saw versions go back: {broken_runs}"
    assert not traffic.tally.socket_problems, traffic.tally.socket_problems
    assert not fresh_problems, fresh_problems
    assert not traffic.tally.refusals, traffic.tally.refusals
    return figures
