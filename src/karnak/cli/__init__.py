"""The terminal client: ``karnak play``, ``simulate``, ``replay``, ``board`` and ``games``.

Only this package depends on Typer and Rich, so the engine, the bots and the research API
stay importable without them. Each module has one job: ``main`` wires the commands,
``common`` holds what every command shares (consoles, errors, options), ``render`` picks
the drawing code of a game and ``amunre_render`` draws Amun-Re.
"""
