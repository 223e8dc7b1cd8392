"""Karnak: rules-exact Egyptian board games with bots, clients and a research API.

The package is layered: :mod:`karnak.core` holds what every game shares, each game is a
package under :mod:`karnak.games`, :mod:`karnak.bots` plays any game through the core, and
the clients (:mod:`karnak.cli`) sit on top. Nothing below a client imports a client.

Importing karnak changes nothing in the import system. The compiled hot paths
(:mod:`karnak.native`) are used only when asked for, before the engines are imported: by
the entry points (the ``karnak`` command, the server), by a program calling
``karnak.native.install()``, or by ``KARNAK_NATIVE=1`` in the environment (which is also how
the worker processes those start ask for them).
"""

__version__ = "0.1.0"


def _install_if_asked() -> None:
    import os

    if os.environ.get("KARNAK_NATIVE", "").strip():  # the loader is imported only if set
        from karnak.native.loader import asked, install

        if asked():
            install()


_install_if_asked()
del _install_if_asked
