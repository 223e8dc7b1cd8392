"""``pip install karnak`` is the engine alone: the core, the games, the bots, the arena and the
research layer run with NumPy and openskill and nothing else outside the standard library.

Checked in a fresh interpreter in which every other third-party module fails to import, as it
would on a machine with the engine alone: each engine module imports, a game of every title
plays through the id layer with its tensors and masks, and the ``karnak`` script says which
extra to install instead of a traceback.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

BLOCKER = textwrap.dedent(
    """
    import importlib.abc, sys

    ALLOWED = {"numpy", "openskill", "karnak"}

    class EngineAlone(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            allowed = top in ALLOWED or top in sys.stdlib_module_names
            # private helpers (a leading underscore) and mypyc's compiled halves of allowed
            # packages (openskill ships some) are parts of what is allowed, not extras
            if allowed or top.startswith("_") or top.endswith("__mypyc"):
                return None
            raise ModuleNotFoundError(f"No module named {name!r} (engine alone)", name=top)

    sys.meta_path.insert(0, EngineAlone())
    """
)

ENGINE = textwrap.dedent(
    """
    import importlib, pkgutil
    import karnak

    # every module but the clients' parts of each game (``terminal``, ``web``) and the kit the
    # terminals share (karnak.core.terminal): they come with the ``cli`` and ``server`` extras
    for package in ("karnak.core", "karnak.games", "karnak.bots"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if not {"terminal", "web"} & set(info.name.split(".")):
                importlib.import_module(info.name)
    from karnak.envs import IdGame

    from karnak.core import available_games, get_game

    for name in available_games():
        idgame = IdGame(name, get_game(name).min_players)
        state = idgame.new_state(7)
        for _ in range(60):
            if state.is_terminal():
                break
            seat = state.current_player()
            assert state.observation(seat).shape == (idgame.observation_size,)
            state.apply_id(int(state.mask(seat).nonzero()[0][0]))
    print("engine alone: ok")
    """
)


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_engine_runs_with_numpy_and_openskill_alone() -> None:
    result = run(ENGINE)
    assert result.returncode == 0, result.stderr
    assert "engine alone: ok" in result.stdout


def test_the_blocker_does_block_the_extras() -> None:
    result = run("import typer")
    assert result.returncode != 0 and "engine alone" in result.stderr


def test_the_karnak_script_names_the_missing_extra() -> None:
    result = run("from karnak.cli.entry import main; main()")
    assert result.returncode == 2
    assert "pip install 'karnak[cli]'" in result.stderr
    assert "Traceback" not in result.stderr
