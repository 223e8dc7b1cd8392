"""The terminal client: ``karnak play``, ``simulate``, ``replay``, ``board`` and ``games``.

Only the clients depend on Typer and Rich, so the engine, the bots and the research API stay
importable without them. Each module has one job: ``main`` wires the commands, ``common``
holds what every command shares (consoles, errors, options), ``render`` finds a game's
drawing code through its plugin (each game draws itself in ``karnak.games.<game>.terminal``)
and falls back to a plain one.
"""
