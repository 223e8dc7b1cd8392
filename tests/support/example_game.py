"""The example game (tests/example_game) made known to Karnak as an installed distribution
would be: through its ``karnak.games`` entry point, nothing else.

:func:`installed` writes the distribution's ``dist-info`` folder (its metadata and the
``entry_points.txt`` that ``pip install`` would write from the game's ``pyproject.toml``)
into a temporary folder, puts that folder and the game's package on ``sys.path`` and on
``PYTHONPATH`` (so that subprocesses, a server's bot workers and ``karnak`` commands find it
too), and asks the registry to look again. On leaving, all of it is undone.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from karnak.core import registry

#: The folder of the example game's distribution (its pyproject.toml and its package).
EXAMPLE = Path(__file__).resolve().parents[1] / "example_game"
PACKAGE = "karnak_goofspiel"
NAME = "goofspiel"


@dataclass(frozen=True)
class Installed:
    """Where the example game was installed, and the PYTHONPATH that finds it."""

    site: Path
    pythonpath: str
    #: PYTHONPATH as it was before (None: unset).
    before: str | None

    def env(self) -> dict[str, str]:
        """This process's environment with the PYTHONPATH that finds the game."""
        return {**os.environ, "PYTHONPATH": self.pythonpath}

    def env_without(self) -> dict[str, str]:
        """This process's environment as it was before the game was installed."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return env if self.before is None else {**env, "PYTHONPATH": self.before}


def entry_points_text() -> str:
    """``entry_points.txt`` as an installer writes it from the game's ``pyproject.toml``."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    lines = []
    for group, points in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {value}" for name, value in points.items())
        lines.append("")
    return "\n".join(lines)


def write_dist_info(site: Path) -> Path:
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    folder = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    (folder / "entry_points.txt").write_text(entry_points_text())
    return folder


def forget_cached_lookups() -> None:
    """The registry and the caches keyed by game name look again at their next use."""
    from karnak.server import game_pages

    registry.refresh()
    for cached in (getattr(game_pages, "_page", None), getattr(game_pages, "_schema", None)):
        if cached is not None:
            cached.cache_clear()


@contextlib.contextmanager
def installed(site: Path) -> Iterator[Installed]:
    """The example game, found through its entry point while the block runs."""
    write_dist_info(site)
    paths = [str(site), str(EXAMPLE)]
    saved_path = list(sys.path)
    saved_env = os.environ.get("PYTHONPATH")
    pythonpath = os.pathsep.join([*paths, *([saved_env] if saved_env else [])])
    sys.path[:0] = paths
    os.environ["PYTHONPATH"] = pythonpath
    importlib.invalidate_caches()
    forget_cached_lookups()
    try:
        yield Installed(site, pythonpath, saved_env)
    finally:
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved_env
        for module in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[module]
        importlib.invalidate_caches()
        forget_cached_lookups()
