"""The HTML pages: a lobby (also opened on a table), a game page, the account's pages:
static files that talk to the JSON API.

The pages hold no game logic and no secrets beyond the seat token in their own URL: they
render the views the API sends (the board arrives as SVG inside the view) and post moves.

Each page is sent in the request's language (:mod:`karnak.server.language`): its texts marked
``data-i18n`` translated (:func:`karnak.i18n.html.translate_html`), ``<html lang>`` set, and
the catalogue its scripts translate with inlined as ``<script type="application/json"
id="karnak-i18n">`` (``/static/i18n.js`` reads it): the generic domain, and on a game's page
the game's domain too. A page is built once per language (and game) and then served from
memory.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from karnak.i18n import KARNAK, current_language
from karnak.i18n.domain import Domain
from karnak.i18n.html import translate_html

STATIC = Path(__file__).with_name("static")
#: The id of the inlined catalogue (``/static/i18n.js`` reads it).
CATALOGUE_ID = "karnak-i18n"
_HTML_TAG = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)

router = APIRouter()

_lock = threading.Lock()
_pages: dict[tuple[str, str, str | None], str] = {}


def catalogue(language: str, domains: list[Domain]) -> dict[str, Any]:
    """What the page's scripts translate with: ``{"language", "domains": {name: {"plural",
    "messages"}}}``, the first domain looked up first."""
    found: dict[str, Any] = {}
    for domain in domains:
        payload = domain.messages(language)
        found[domain.name] = {"plural": payload["plural"], "messages": payload["messages"]}
    return {"language": language, "domains": found}


def inline_json(payload: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render(text: str, language: str, domains: list[Domain]) -> str:
    """The page ``text`` in ``language`` (the current language must be ``language``): its
    marked texts translated, ``<html lang>`` set and the scripts' catalogue inlined."""
    translated = translate_html(text, KARNAK)
    translated = _HTML_TAG.sub(f'<html lang="{language}">', translated, count=1)
    script = (
        f'<script type="application/json" id="{CATALOGUE_ID}">'
        f"{inline_json(catalogue(language, domains))}</script>\n"
    )
    match = _HEAD_END.search(translated)
    if match is None:
        return script + translated
    return translated[: match.start()] + script + translated[match.start() :]


def page_html(name: str, game_domain: Domain | None = None) -> str:
    """The static page ``name`` in the current language (built once per language and game)."""
    language = current_language()
    key = (name, language, game_domain.name if game_domain is not None else None)
    found = _pages.get(key)
    if found is None:
        domains = [KARNAK] if game_domain is None else [game_domain, KARNAK]
        found = render((STATIC / name).read_text(encoding="utf-8"), language, domains)
        with _lock:
            _pages[key] = found
    return found


def forget_pages() -> None:
    """Forgets the built pages (after a catalogue or a page changed)."""
    with _lock:
        _pages.clear()


def page(name: str, game_domain: Domain | None = None) -> HTMLResponse:
    return HTMLResponse(
        page_html(name, game_domain), headers={"Content-Language": current_language()}
    )


@router.get("/", include_in_schema=False)
async def lobby() -> HTMLResponse:
    return page("lobby.html")


@router.get("/account", include_in_schema=False)
async def account_page() -> HTMLResponse:
    return page("account.html")


@router.get("/me", include_in_schema=False)
async def my_games_page() -> HTMLResponse:
    """An account's games and notifications (karnak.server.tables)."""
    return page("me.html")


@router.get("/tables/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> HTMLResponse:
    """A table: the lobby, opened on it (the link of an invitation, of a rematch)."""
    return page("lobby.html")


@router.get("/admin", include_in_schema=False)
async def admin_page() -> HTMLResponse:
    """The administrators' page (karnak.server.admin; its API refuses everyone else)."""
    return page("admin.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico on their own (and for pages without a link, like the
    API's JSON); the site's icon is an SVG, served under that name as what it is."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def game_domain_of(request: Request, game_id: str) -> Domain | None:
    """The translation domain of the game ``game_id`` (None: unknown, or without one; the
    page then says so from the API, in the generic domain's words)."""
    from karnak.core.registry import get_plugin
    from karnak.server.api import GAME_ID

    service = getattr(request.app.state, "service", None)
    if service is None or not GAME_ID.fullmatch(game_id):
        return None
    try:
        room = await service.room(game_id)
        return get_plugin(room.game.name).text_domain()
    except Exception:  # an unknown or unavailable game: the page tells it, from the API
        return None


@router.get("/games/{game_id}", include_in_schema=False)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    return page("game.html", await game_domain_of(request, game_id))


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> HTMLResponse:
    """A player's profile (the page asks /api/players/<name>; an unknown name is told there)."""
    return page("profile.html")


@router.get("/daily", include_in_schema=False)
async def daily_page() -> HTMLResponse:
    """The game of the day (the page asks /api/daily and the answers around it)."""
    return page("daily.html")


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> HTMLResponse:
    """The tournaments, and a form to create one (the page asks /api/tournaments)."""
    return page("tournaments.html")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str) -> HTMLResponse:
    """One tournament (the page asks /api/tournaments/<id>)."""
    return page("tournament.html")


@router.get("/leaderboard/{game}", include_in_schema=False)
async def leaderboard_page(game: str) -> HTMLResponse:
    """A game's leaderboard (the page asks /api/leaderboard/<game>)."""
    return page("leaderboard.html")


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC)
