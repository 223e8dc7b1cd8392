"""My games: an account's running games, those waiting on it first, its finished games with
their results, and its open tables (GET /api/me/games, the page /me).

- Running games waiting on the account (its seat is to move) come first, the one that has
  waited longest first: since its seat became to move (karnak.server.tables.turns keeps
  that time in memory; after a restart the game's last public change stands in). The
  others follow, the most recently changed first (their last public change).
- Finished games come newest first, each with the account's rank and score and the
  winners' names.
- Every line holds public facts (the game, the players' names, who is to move, the final
  result, times of public changes) and the account's own seat: nothing another seat hides.
  A seat taken over by a bot (its person left) is never "your turn".
- Bounded: :data:`RUNNING_LISTED` running and :data:`FINISHED_LISTED` finished games, the
  newest.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from karnak.core.errors import KarnakError
from karnak.core.registry import get_game
from karnak.server.tables.store import MyGame, Table

if TYPE_CHECKING:
    from karnak.server.tables.service import TableService

RUNNING_LISTED = 200
FINISHED_LISTED = 50


@dataclass(frozen=True)
class MyGames:
    running: list[dict[str, Any]]
    finished: list[dict[str, Any]]
    tables: list[Table]


def title_of(game: str) -> str:
    try:
        return get_game(game).title
    except KarnakError:
        return game


def line(found: MyGame) -> dict[str, Any]:
    return {
        "game_id": found.id,
        "game": found.game,
        "title": title_of(found.game),
        "seat": found.seat,
        "name": found.players[found.seat] if found.seat < len(found.players) else "",
        "players": found.players,
        "status": found.status,
        "your_turn": False,
        "waiting_since": None,
        "updated_at": found.public_updated_at.isoformat(),
        "finished_at": found.finished_at.isoformat() if found.finished_at else None,
        "result": None,
        "url": f"/games/{found.id}",
    }


def result_line(found: MyGame) -> dict[str, Any] | None:
    """The account's rank and score, and the winners' names."""
    result = found.result or {}
    ranks, scores = result.get("ranks") or [], result.get("scores") or []
    winners = result.get("winners") or []
    return {
        "rank": ranks[found.seat] if found.seat < len(ranks) else None,
        "score": scores[found.seat] if found.seat < len(scores) else None,
        "winners": [found.players[w] for w in winners if 0 <= w < len(found.players)],
    }


async def my_games(tables: TableService, account: int) -> MyGames:
    store, games, run = tables.store, tables.games, tables.executor.run
    running = await run(store.games_of, account, "running", RUNNING_LISTED)
    finished = await run(store.games_of, account, "finished", FINISHED_LISTED)
    waiting: list[tuple[float, dict[str, Any]]] = []
    others: list[dict[str, Any]] = []
    for found in running:
        entry = line(found)
        try:
            room = await games.room(found.id)
        except KarnakError as exc:
            entry["status"] = "unavailable"
            entry["reason"] = str(exc)
            others.append(entry)
            continue
        yours = (
            not room.is_over
            and found.seat in room.state.to_move()
            and not room.seats[found.seat].is_bot
        )
        if yours:
            since = tables.turns.since(found.id, found.seat)
            moment = since if since is not None else found.public_updated_at.timestamp()
            entry["your_turn"] = True
            entry["waiting_since"] = dt.datetime.fromtimestamp(moment, dt.UTC).isoformat()
            waiting.append((moment, entry))
        else:
            others.append(entry)
    waiting.sort(key=lambda pair: pair[0])
    done = []
    for found in finished:
        entry = line(found)
        entry["result"] = result_line(found)
        done.append(entry)
    return MyGames(
        running=[entry for _, entry in waiting] + others,
        finished=done,
        tables=await tables.tables_of(account),
    )
