"""Karnak's games for research: integer ids, tensors, and the adapters to the frameworks.

Every adapter stands on :class:`~karnak.envs.idgame.IdState` (one seat at a time, ids,
observations, rewards), so they agree with each other. The frameworks themselves are imported
only when an adapter is asked for: ``pip install karnak`` gives the engine and
:mod:`karnak.envs.idgame` with NumPy alone, and ``pip install 'karnak[rl]'`` adds PettingZoo,
Gymnasium and OpenSpiel.

    >>> from karnak.envs import pettingzoo_env
    >>> env = pettingzoo_env("aton")                    # doctest: +SKIP

Importing this package also registers each game's versioned names where Gymnasium is
installed (:mod:`karnak.envs.registration`): the Gymnasium ids ``karnak/Aton-v1``,
``karnak/AmunRe-v1``, ``karnak/Egyptia-v1`` and the PettingZoo-style modules
``karnak.envs.aton_v1`` ... with ``env()``, ``raw_env()`` and ``parallel_env()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from karnak.envs.idgame import TERMINAL, IdGame, IdState
from karnak.envs.registration import register_versions
from karnak.envs.versions import versioned_name

if TYPE_CHECKING:
    from karnak.envs.gymnasium import KarnakGymEnv
    from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv

__all__ = [
    "TERMINAL",
    "IdGame",
    "IdState",
    "gymnasium_env",
    "pettingzoo_env",
    "pettingzoo_parallel_env",
    "register_openspiel",
    "register_versions",
]


def pettingzoo_env(game: str, **options: Any) -> KarnakAECEnv:
    """A PettingZoo AEC environment of ``game`` (see :mod:`karnak.envs.pettingzoo`)."""
    from karnak.envs.pettingzoo import KarnakAECEnv

    return KarnakAECEnv(game, **options)


def pettingzoo_parallel_env(game: str, **options: Any) -> KarnakParallelEnv:
    """A PettingZoo Parallel environment of ``game`` (see :mod:`karnak.envs.pettingzoo`)."""
    from karnak.envs.pettingzoo import KarnakParallelEnv

    return KarnakParallelEnv(game, **options)


def gymnasium_env(game: str, **options: Any) -> KarnakGymEnv:
    """A Gymnasium environment: one seat of ``game`` against Karnak's bots (see
    :mod:`karnak.envs.gymnasium`)."""
    from karnak.envs.gymnasium import KarnakGymEnv

    return KarnakGymEnv(game, **options)


def register_openspiel() -> list[str]:
    """Register the games with pyspiel as ``karnak_amunre``, ``karnak_aton`` and
    ``karnak_egyptia`` (idempotent); returns the short names (see :mod:`karnak.envs.openspiel`)."""
    from karnak.envs.openspiel import register

    return register()


def __getattr__(name: str) -> Any:
    """A versioned module asked for by another version than the game's current one: an
    ImportError that names the current one (the current ones are made on import)."""
    try:
        version = versioned_name(name)
    except LookupError as error:
        raise ImportError(str(error), name=f"{__name__}.{name}") from None
    if version is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from karnak.envs.registration import versioned_module

    return versioned_module(version)


register_versions()
