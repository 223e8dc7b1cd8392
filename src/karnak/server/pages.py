"""The HTML pages: a lobby (also opened on a table), a game page, the account's pages:
static files that talk to the JSON API.

The pages hold no game logic and no secrets beyond the seat token in their own URL: they
render the views the API sends (the board arrives as SVG inside the view) and post moves.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).with_name("static")

router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")


@router.get("/me", include_in_schema=False)
async def my_games_page() -> FileResponse:
    """An account's games and notifications (karnak.server.tables)."""
    return FileResponse(STATIC / "me.html")


@router.get("/tables/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    """A table: the lobby, opened on it (the link of an invitation, of a rematch)."""
    return FileResponse(STATIC / "lobby.html")


@router.get("/admin", include_in_schema=False)
async def admin_page() -> FileResponse:
    """The administrators' page (karnak.server.admin; its API refuses everyone else)."""
    return FileResponse(STATIC / "admin.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico on their own (and for pages without a link, like the
    API's JSON); the site's icon is an SVG, served under that name as what it is."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/games/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC / "game.html")


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    """A player's profile (the page asks /api/players/<name>; an unknown name is told there)."""
    return FileResponse(STATIC / "profile.html")


@router.get("/leaderboard/{game}", include_in_schema=False)
async def leaderboard_page(game: str) -> FileResponse:
    """A game's leaderboard (the page asks /api/leaderboard/<game>)."""
    return FileResponse(STATIC / "leaderboard.html")


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC)
