"""Thorsten Gimmler's Aton (2 players): sealed card allocation, temple majorities.

Everything Karnak knows of the game lives in this package, the same way for every game:

- ``rules/``: the state machine over :mod:`karnak.core` (pure Python, no client imports);
- ``data/``: the board figures with their confidence;
- ``view.py``: what one seat may see;
- ``research/``: the tensors and integer action ids of the research adapters;
- ``bot.py``: the heuristic and the knowledge the search borrows;
- ``terminal.py``: the terminal drawing (Rich);
- ``web/``: the web page's board, guide, script and stylesheet;
- ``plugin.py``: the one :class:`~karnak.core.plugin.GamePlugin` that names them all.
"""

from karnak.games.aton.rules.board import Board, load_board
from karnak.games.aton.rules.game import GAME, Aton
from karnak.games.aton.rules.state import AtonState

__all__ = ["GAME", "Aton", "AtonState", "Board", "load_board"]
