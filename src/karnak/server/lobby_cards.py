"""The lobby's game cards: a picture of each game's own board and the "Play now" table.

The lobby shows every game the server plays as a card: a picture of its board, its players
and length, and a "Play now" button that starts a game against bots at the default level
and opens the player's seat. Nothing here names a game: the picture is the game's web page
(:class:`karnak.core.plugin.WebPage`) drawing the board of a fresh game from a spectator's
view, the same drawing a game page starts with.

A picture depends only on the game, its rules version and the reader's language (a board's
labels are translated), so each is drawn once and kept (:func:`card_picture`), and sent with
a long ``Cache-Control``.
"""

from __future__ import annotations

from functools import lru_cache

from karnak.core.game import Game
from karnak.core.registry import UnknownGameError, available_games, get_game
from karnak.i18n import current_language, use_language
from karnak.server.game_pages import page_for

#: The fresh game a picture shows (any seed gives a fair picture; a fixed one, the same).
PICTURE_SEED = 33
#: Seats at a "Play now" table when the game allows them: the player and two bots.
PLAY_NOW_SEATS = 3
#: Where a game's picture is served (``{game}``: its name).
PICTURE_URL = "/api/games/{game}/picture.svg"


def play_now_seats(game: Game) -> int:
    """How many seats a "Play now" table of ``game`` has: :data:`PLAY_NOW_SEATS`, within
    the game's own counts."""
    return max(game.min_players, min(game.max_players, PLAY_NOW_SEATS))


def has_picture(name: str) -> bool:
    """Whether the game ``name`` draws a board (a game without a web page has no picture)."""
    return page_for(name) is not None


def picture_url(name: str) -> str | None:
    return PICTURE_URL.format(game=name) if has_picture(name) else None


def card_picture(name: str) -> str | None:
    """The SVG picture of the game ``name``'s board at the start of a game, in the current
    language; None for a game the server does not play or that draws no board."""
    if name not in available_games():
        return None
    return _drawn(name, get_game(name).newest_version, current_language())


@lru_cache(maxsize=64)
def _drawn(name: str, version: str, language: str) -> str | None:
    try:
        game = get_game(name)
    except UnknownGameError:
        return None
    page = page_for(name)
    if page is None:
        return None
    with use_language(language):
        state = game.new_state(game.seat_names(play_now_seats(game)), seed=PICTURE_SEED)
        return page.board_svg(game, state.observation(None))
