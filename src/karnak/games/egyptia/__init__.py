"""Steven Aramini's Egyptia (1 to 99 players): a roll-and-write on a hex sheet.

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

from karnak.games.egyptia.rules.game import GAME, Egyptia
from karnak.games.egyptia.rules.sheet import Sheet, load_sheet
from karnak.games.egyptia.rules.state import EgyptiaState

__all__ = ["GAME", "Egyptia", "EgyptiaState", "Sheet", "load_sheet"]
