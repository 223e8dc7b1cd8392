"""The ``karnak`` script's entry point: the command line, or a clear word if it is not
installed (``pip install karnak`` is the engine alone; the command line is the ``cli`` extra)."""

from __future__ import annotations

import sys


def main() -> None:
    # The command asks for the compiled hot paths (karnak.native), before any engine is
    # imported: importing karnak alone leaves the import system as it is.
    from karnak.native import install

    install()
    try:
        from karnak.cli.main import app
    except ModuleNotFoundError as missing:
        if missing.name not in {"typer", "rich", "click"}:
            raise
        sys.stderr.write(
            "karnak: the command line is not installed (this is the engine alone). "
            "Install it with: pip install 'karnak[cli]' (or 'karnak[server]' for the server)\n"
        )
        raise SystemExit(2) from None
    app()
