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
- Each line tells its game apart from the others: its number (the start of its id, as in
  its address), the others at the table, when it started (in words of the reader's
  language, by Babel). A solo game has a score and a status, never a winner; a game the
  account left counts it last, as the ratings do.
- Bounded: :data:`RUNNING_LISTED` running and :data:`FINISHED_LISTED` finished games, the
  newest.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from babel.dates import format_datetime

from karnak.core.errors import KarnakError
from karnak.core.registry import get_game
from karnak.i18n import ENGLISH, SUPPORTED, current_language
from karnak.server.tables.store import MyGame, Table
from karnak.server.timebank.abandonment import rated_places

if TYPE_CHECKING:
    from karnak.server.tables.service import TableService

RUNNING_LISTED = 200
FINISHED_LISTED = 50
#: The characters of a game's id shown as its number ("Aton · game 4fQ2xk").
NUMBER = 6


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


def started_words(moment: dt.datetime | None) -> str | None:
    """When a game started, in the reader's language (Babel): "Jun 3, 2025, 14:05"."""
    if moment is None:
        return None
    language = current_language()
    locale = language if language in SUPPORTED else ENGLISH
    return format_datetime(moment, format="medium", tzinfo=dt.UTC, locale=locale)


def line(found: MyGame) -> dict[str, Any]:
    return {
        "number": found.id[:NUMBER],
        "opponents": [name for seat, name in enumerate(found.players) if seat != found.seat],
        "started_at": found.created_at.isoformat() if found.created_at else None,
        "started": started_words(found.created_at),
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
    """The account's place (as the ratings count it: a seat its person left is last,
    karnak.server.timebank.abandonment.rated_places) and score, and the winners' names
    (those who stayed; none for a solo game, which has a score and a status)."""
    result = found.result or {}
    ranks, scores = result.get("ranks") or [], result.get("scores") or []
    left = set(result.get("left") or ())
    solo = len(found.players) == 1
    places: dict[int, int] = {}
    if ranks:
        places = rated_places({"ranks": ranks, "left": sorted(left)})
    winners = [seat for seat, place in places.items() if place == 1 and seat not in left]
    return {
        "rank": places.get(found.seat),
        "score": scores[found.seat] if found.seat < len(scores) else None,
        "winners": []
        if solo
        else [found.players[w] for w in sorted(winners) if 0 <= w < len(found.players)],
        "solo": solo,
        "left": found.seat in left,
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
