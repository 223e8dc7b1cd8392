"""Aton's web page: the board drawn as SVG, the seat's page data and guide (Python), and
the script and stylesheet that draw them in the browser (``static/``)."""

from __future__ import annotations

from pathlib import Path

from karnak.core.plugin import WebPage
from karnak.games.aton.web import board, guide

PAGE = WebPage(
    board_svg=board.board_svg,
    page_data=board.page_data,
    guide=guide.guide,
    static=Path(__file__).with_name("static"),
    script="aton.js",
    stylesheets=("aton.css",),
)
