"""Each game's part of the web page, found through its plugin (``WebPage``).

A game without one still plays in the browser: the page shows its observation and a plain
list of its moves (``static/plain.js``). :func:`karnak.server.views.seat_view` puts a game's
page data under ``view["page"]`` and its guide under ``view["page"]["guide"]``.

Each game's browser files are served from its own package under ``/static/games/<game>/``,
and the JSON Schema of the observation it declares at
``/api/games/<game>/observation-schema`` (:func:`mount_game_static` sets up both).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from karnak.core.plugin import WebPage
from karnak.core.registry import UnknownGameError, get_plugin, plugins
from karnak.core.view_schema import observation_schema
from karnak.i18n import t


@cache
def _page(name: str) -> WebPage | None:
    return get_plugin(name).web_page()


def page_for(name: str) -> WebPage | None:
    """The web page of the game ``name``, or None for a game without one (or unknown)."""
    try:
        return _page(name)
    except UnknownGameError:
        return None


#: Where each game's browser files are served (``/static/games/<game>/<file>``).
GAME_STATIC_URL = "/static/games"


def client_assets(name: str) -> dict[str, Any]:
    """The game's script and stylesheets as URLs, for the game page to load (the ``client``
    of every view); no script means the page's plain drawing."""
    page = page_for(name)
    if page is None or page.static is None:
        return {"script": None, "stylesheets": []}
    base = f"{GAME_STATIC_URL}/{name}"
    return {
        "script": f"{base}/{page.script}" if page.script else None,
        "stylesheets": [f"{base}/{sheet}" for sheet in page.stylesheets],
    }


async def get_observation_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of what one seat of the game ``name`` sees: the
    ``observation`` of every view of its games, as the game declares it."""
    from karnak.server.errors import ApiError  # the errors module imports the service

    try:
        plugin = get_plugin(name)
    except UnknownGameError:
        raise ApiError(404, t("there is no game {game}", game=repr(name[:40]))) from None
    schema = _schema(plugin.name)
    if schema is None:
        raise ApiError(404, f"{plugin.name} declares no observation schema")
    return schema


@cache
def _schema(name: str) -> dict[str, Any] | None:
    return observation_schema(get_plugin(name))


def mount_game_static(app: FastAPI) -> None:
    """Serve each game's browser files from its own package, under its own name, and the
    games' observation schemas."""
    from karnak.server.errors import error_responses

    app.add_api_route(
        "/api/games/{name}/observation-schema",
        get_observation_schema,
        methods=["GET"],
        operation_id="observation_schema",
        responses=error_responses(404, 422),
    )
    for name in plugins():
        page = page_for(name)
        if page is not None and page.static is not None:
            app.mount(
                f"{GAME_STATIC_URL}/{name}",
                StaticFiles(directory=page.static),
                name=f"static-{name}",
            )
