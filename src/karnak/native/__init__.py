"""Compiled hot paths: the engines' busiest modules, built with mypyc and used only when
asked for and when they match their sources.

Why
    Search bots and training loops spend nearly all their time in a few modules (the dice,
    the games' states, boards and tensors, the search and the heuristics). Compiled with
    mypyc, the same source runs 1.6 to 2 times faster. Pure Python stays the
    reference: it is what runs wherever nothing was compiled, and a test plays the same
    games both ways and compares every answer.

How
    ``python -m karnak.native.build`` (``make native``; ``make setup`` runs it) compiles
    :data:`karnak.native.build.MODULES` into extension files named ``<module>.mypyc.so``
    next to their sources, where Python's own import never looks, and writes a manifest of
    each source's SHA-256. :func:`install` puts a finder in front of the import system that
    loads those files instead of the sources, but only if every compiled source is
    unchanged and the interpreter is the one they were built for. Otherwise everything runs
    as pure Python, with one warning when the build is stale.

Who asks
    Importing :mod:`karnak` installs nothing by itself: a library stays out of its host's
    import system unless asked. The entry points ask: the ``karnak`` command (before it
    imports anything else) and the server's ASGI factory (``karnak.server.asgi``). A
    program of its own (a training script, a notebook) asks in one of two ways, before it
    imports any engine::

        import karnak.native
        karnak.native.install()

    or with ``KARNAK_NATIVE=1`` in the environment, which makes ``import karnak`` install
    it. :func:`install` sets ``KARNAK_NATIVE=1`` when the variable is not set, so the
    processes it starts (the server's bot workers, the arena's games) use the same build.
    ``KARNAK_NATIVE=0`` forces pure Python whoever asks; ``python -m karnak.native`` says
    what an entry point would run.
"""

from karnak.native.loader import NativeStatus, install, status

__all__ = ["NativeStatus", "engines", "install", "status"]


def engines() -> str:
    """Which engines run, as benchmark reports write it: ``compiled`` or ``pure Python``."""
    return "compiled" if status().active else "pure Python"
