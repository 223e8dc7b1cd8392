"""Karnak's games for research: integer ids, tensors, and the adapters to the frameworks.

Every adapter stands on :class:`~karnak.envs.idgame.IdState` (one seat at a time, ids,
observations, rewards), so they agree with each other. The frameworks themselves are imported
only when an adapter is asked for: ``pip install karnak`` gives the engine and
:mod:`karnak.envs.idgame` with NumPy alone, and ``pip install 'karnak[rl]'`` adds PettingZoo,
Gymnasium and OpenSpiel.

    >>> from karnak.envs import pettingzoo_env
    >>> env = pettingzoo_env("aton")                    # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from karnak.envs.idgame import TERMINAL, IdGame, IdState

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
