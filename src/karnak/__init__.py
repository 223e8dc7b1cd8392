"""Karnak: rules-exact Egyptian board games with bots, clients and a research API.

The package is layered: :mod:`karnak.core` holds what every game shares, each game is a
package under :mod:`karnak.games`, :mod:`karnak.bots` plays any game through the core, and
the clients (:mod:`karnak.cli`) sit on top. Nothing below a client imports a client.
"""

__version__ = "0.1.0"

# Before any engine module is imported: use the compiled hot paths if they match their
# sources, else the sources themselves (karnak.native).
from karnak.native import install as _install_native

_install_native()
