"""Karnak's environments under their versioned names (:mod:`karnak.envs.versions`).

On ``import karnak.envs``, where Gymnasium is installed (``pip install 'karnak[rl]'``),
:func:`register_versions` gives each game:

- a **Gymnasium id**, ``karnak/<Title>-v<N>``, registered with ``gymnasium.register``; its
  entry point is a string, so nothing of the environment is imported before
  ``gymnasium.make`` builds one. Gymnasium 1.x has no plugin discovery (the ``gymnasium.envs``
  entry-point group was dropped in 1.0), so the ids exist once ``karnak.envs`` is imported:
  ``import karnak.envs`` (``gymnasium.register_envs(karnak.envs)`` keeps linters from
  calling that import unused), or name the module in the id,
  ``gymnasium.make("karnak.envs:karnak/Aton-v1")``. ``players=`` and the env's other
  keywords pass through ``gymnasium.make``.
- a **PettingZoo-style module**, ``karnak.envs.<game>_v<N>``, with ``env()``, ``raw_env()``
  and ``parallel_env()``, as PettingZoo ships its own (``from pettingzoo.classic import
  chess_v6``): ``from karnak.envs import aton_v1`` or ``import karnak.envs.aton_v1``. The
  modules are made from the game plugins, so every game has one, an installed game too.

Both forms play under the illegal-action penalty (:mod:`karnak.envs.illegal`) so that the
checkers of both frameworks, which sample actions blind to the mask, pass as shipped; any
keyword, ``illegal="raise"`` included, overrides the registered defaults. ``env()`` and
``raw_env()`` are the same unwrapped environment: what the classic envs' wrappers check
(ids out of range, calls before ``reset``) is built into it.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from karnak.envs.versions import REGISTERED_ILLEGAL, EnvVersion, env_versions

if TYPE_CHECKING:
    from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv

__all__ = ["GYMNASIUM_ENTRY_POINT", "register_gymnasium", "register_versions", "versioned_module"]

#: What every registered Gymnasium id builds (the game and the policy come as keywords).
GYMNASIUM_ENTRY_POINT = "karnak.envs.gymnasium:KarnakGymEnv"


def register_gymnasium(versions: list[EnvVersion]) -> list[str]:
    """Register each version's Gymnasium id (idempotent); returns the ids, or [] without
    Gymnasium."""
    try:
        import gymnasium
    except ImportError:
        return []
    for version in versions:
        if version.gym_id not in gymnasium.registry:
            gymnasium.register(
                id=version.gym_id,
                entry_point=GYMNASIUM_ENTRY_POINT,
                kwargs=version.gym_kwargs,
            )
    return [version.gym_id for version in versions]


def versioned_module(version: EnvVersion) -> ModuleType:
    """The PettingZoo-style module of ``version``, in ``sys.modules`` and on
    :mod:`karnak.envs` (made once)."""
    made = sys.modules.get(version.module)
    if made is not None and getattr(made, "VERSION", None) == version:
        return made
    module = ModuleType(
        version.module,
        f"{version.title}'s environments, version {version.version}, as PettingZoo ships its "
        "own: env() (AEC), raw_env() (the same) and parallel_env(), under the illegal-action "
        f"penalty; the Gymnasium id is {version.gym_id} (see karnak.envs.registration).",
    )

    def env(players: int | None = None, **options: Any) -> KarnakAECEnv:
        """The AEC environment (see :class:`karnak.envs.pettingzoo.KarnakAECEnv`)."""
        from karnak.envs.pettingzoo import KarnakAECEnv

        return KarnakAECEnv(version.game, players, **{"illegal": REGISTERED_ILLEGAL, **options})

    def raw_env(players: int | None = None, **options: Any) -> KarnakAECEnv:
        """The AEC environment, unwrapped: the same as ``env()``."""
        return env(players, **options)

    def parallel_env(players: int | None = None, **options: Any) -> KarnakParallelEnv:
        """The Parallel environment (see :class:`karnak.envs.pettingzoo.KarnakParallelEnv`)."""
        from karnak.envs.pettingzoo import KarnakParallelEnv

        return KarnakParallelEnv(
            version.game, players, **{"illegal": REGISTERED_ILLEGAL, **options}
        )

    for function in (env, raw_env, parallel_env):
        function.__module__ = version.module
        function.__qualname__ = function.__name__
        setattr(module, function.__name__, function)
    module.VERSION = version  # type: ignore[attr-defined]
    module.__all__ = ["env", "parallel_env", "raw_env"]  # type: ignore[attr-defined]
    sys.modules[version.module] = module
    package = sys.modules.get("karnak.envs")
    if package is not None:
        setattr(package, version.module_name, module)
    return module


def register_versions() -> list[EnvVersion]:
    """Register every game's versioned names (idempotent; again after a game is installed
    in a running interpreter): its Gymnasium id and its PettingZoo-style module. Nothing
    without Gymnasium (then PettingZoo is missing too: both come with ``karnak[rl]``)."""
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        return []
    versions = env_versions()
    register_gymnasium(versions)
    for version in versions:
        versioned_module(version)
    return versions
