"""Compiled hot paths: the engines' busiest modules, built with mypyc and used only when
they match their sources.

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
    each source's SHA-256. When :mod:`karnak` is imported, :func:`install` puts a finder in
    front of the import system that loads those files instead of the sources, but only if
    every compiled source is unchanged and the interpreter is the one they were built for.
    Otherwise everything runs as pure Python, with one warning when the build is stale.

    ``KARNAK_NATIVE=0`` forces pure Python; ``python -m karnak.native`` says what runs.
"""

from karnak.native.loader import NativeStatus, install, status

__all__ = ["NativeStatus", "engines", "install", "status"]


def engines() -> str:
    """Which engines run, as benchmark reports write it: ``compiled`` or ``pure Python``."""
    return "compiled" if status().active else "pure Python"
