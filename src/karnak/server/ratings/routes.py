"""Ratings over HTTP: a game's leaderboard, a player's profile, a finished game's changes.

Everything here is public and about finished games only: a rating moves when a game ends
and never while it runs, and a profile lists finished games alone, so nothing a running
game hides (nor even how far it has got) can show through these answers.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel

from karnak.core.registry import available_games, get_game
from karnak.i18n import N_, _, t
from karnak.server.accounts.store import AccountError, clean_name
from karnak.server.api import ApiError, check_game_id
from karnak.server.errors import error_responses
from karnak.server.executor import DatabaseExecutor
from karnak.server.ratings.service import RatingService
from karnak.server.ratings.store import RatingStore

router = APIRouter(prefix="/api")

#: The most entries of a leaderboard one answer holds, and the deepest page.
MAX_PAGE = 100
MAX_OFFSET = 100_000
NO_PLAYER = N_("there is no player with this name")


class LeaderboardEntry(BaseModel):
    place: int
    #: The account's name, or a bot's level in the reader's language ("Medium bot").
    name: str
    kind: str  # "account" or "bot"
    #: A bot's spec ("heuristic"), shown beside its name; None for an account.
    bot: str | None
    #: A bot's level ("medium"), None for an account or a bot that is no level's.
    level: str | None = None
    #: The conservative rating shown: mu - 3 sigma (openskill's ordinal), one decimal.
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


class LeaderboardOut(BaseModel):
    game: str
    title: str
    total: int
    offset: int
    limit: int
    entries: list[LeaderboardEntry]


class SeatChange(BaseModel):
    seat: int
    name: str
    kind: str
    account: str | None
    bot: str | None
    rank: int
    left: bool
    before: float
    after: float
    change: float


class GameRatingsOut(BaseModel):
    game_id: str
    #: "rated", "unrated" (``reason`` says why) or "pending" (not rated yet: ask again).
    status: str
    reason: str | None
    seats: list[SeatChange]


class RatingOut(BaseModel):
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


class HistoryPoint(BaseModel):
    game_id: str
    at: str | None
    rating: float
    before: float
    rank: int
    left: bool


class GameStats(BaseModel):
    game: str
    title: str
    #: Finished games played and won (rated or not; a player who left never won).
    played: int
    wins: int
    rating: RatingOut | None
    history: list[HistoryPoint]


class PlayerIn(BaseModel):
    seat: int
    name: str
    kind: str
    bot: str | None
    account: str | None


class RecentGame(BaseModel):
    id: str
    game: str
    title: str
    finished_at: str | None
    seat: int
    rank: int | None
    score: int | float | None
    won: bool
    left: bool
    winners: list[int]
    rating_change: float | None
    players: list[PlayerIn]


class ProfileOut(BaseModel):
    name: str
    games: list[GameStats]
    recent: list[RecentGame]


def store_of(request: Request) -> RatingStore:
    ratings: RatingService = request.app.state.ratings
    return ratings.store


def executor_of(request: Request) -> DatabaseExecutor:
    """The server's database threads: these reads go there like every other database call
    (karnak.server.executor), not to the default thread pool beside SQLite's single writer."""
    executor: DatabaseExecutor = request.app.state.executor
    return executor


@router.get(
    "/leaderboard/{game}",
    operation_id="leaderboard",
    responses=error_responses(404, 422),
)
async def leaderboard(
    request: Request,
    game: str,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> LeaderboardOut:
    """A game's ratings, best first by ``mu - 3 sigma``: accounts and bots on one scale,
    each with the rated games it played and won."""
    if game not in available_games():
        raise ApiError(
            404,
            t(
                "there is no game {game}; games: {games}",
                game=repr(game[:40]),
                games=", ".join(available_games()),
            ),
        )
    total, entries = await executor_of(request).run(
        store_of(request).leaderboard, game, offset, limit
    )
    return LeaderboardOut(
        game=game,
        title=get_game(game).title,
        total=total,
        offset=offset,
        limit=limit,
        entries=[LeaderboardEntry(**entry) for entry in entries],
    )


@router.get(
    "/games/{game_id}/ratings",
    operation_id="game_ratings",
    responses=error_responses(404, 409, 422),
)
async def game_ratings(request: Request, game_id: str) -> GameRatingsOut:
    """How a finished game changed its players' ratings (409 while it runs)."""
    check_game_id(game_id)
    found = await executor_of(request).run(store_of(request).game_ratings, game_id)
    if found is None:
        raise ApiError(404, _("there is no game with this id"))
    if found["status"] == "running":
        raise ApiError(409, _("ratings change when the game is over"))
    return GameRatingsOut(**found)


@router.get(
    "/players/{name}",
    operation_id="player_profile",
    responses=error_responses(404, 422),
)
async def player_profile(request: Request, name: str) -> ProfileOut:
    """A player's public record: finished games played and won per game, the rating with
    its history, the most recent finished games with their results."""
    try:
        name = clean_name(name)
    except AccountError:
        raise ApiError(404, _(NO_PLAYER)) from None
    found = await executor_of(request).run(store_of(request).profile, name)
    if found is None:
        raise ApiError(404, _(NO_PLAYER))
    return ProfileOut(**found)
