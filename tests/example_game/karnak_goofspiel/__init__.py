"""Goofspiel for Karnak: the example of a game added as one folder, outside Karnak.

Each round a prize card is turned face up, and every player bids one card of their own hand,
sealed; the highest bid takes the prize, a tie for the highest leaves it unclaimed. After as
many rounds as there are prizes, the most prize points wins.

The package has the layout every Karnak game has, less the parts it can do without:

- ``rules/``: the state machine over :mod:`karnak.core` (no client imports);
- ``view.py``: what one seat may see, declared as a ``TypedDict``;
- ``research/``: the integer action ids and tensors the research adapters read;
- ``plugin.py``: the :class:`~karnak.core.plugin.GamePlugin` naming the parts.

It has no bot knowledge, no terminal drawing and no web page: Karnak's fallbacks show it
(the search plays random rollouts, the terminal and the page show the observation as data).
"""
