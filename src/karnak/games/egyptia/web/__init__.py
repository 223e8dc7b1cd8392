"""Egyptia's web page: the board drawn as SVG, the seat's page data and guide (Python), and
the script and stylesheet that draw them in the browser (``static/``)."""

from __future__ import annotations

from pathlib import Path

from karnak.core.plugin import WebPage
from karnak.games.egyptia.web import board, guide

PAGE = WebPage(
    board_svg=board.board_svg,
    page_data=board.page_data,
    guide=guide.guide,
    lobby=board.lobby,
    replay=board.replay,
    crowd_view=board.crowd_view,
    player_sheet=board.player_sheet,
    static=Path(__file__).with_name("static"),
    script="egyptia.js",
    stylesheets=("egyptia.css",),
)
