"""The versions of Karnak's research environments: one number per game, the one source of
every versioned name.

A game's environments carry one version, as Gymnasium's and PettingZoo's own envs do. It is
in every name they go by:

- the Gymnasium id, ``karnak/<Title>-v<N>`` (the title without spaces or hyphens:
  ``karnak/Aton-v1``, ``karnak/AmunRe-v1``), registered on ``import karnak.envs``;
- the PettingZoo-style module, ``karnak.envs.<game>_v<N>``, with ``env()``, ``raw_env()``
  and ``parallel_env()`` (``from karnak.envs import aton_v1``);
- ``metadata["name"]`` of every environment of the game, ``karnak_<game>_v<N>``.

The version says what an environment *means*: its action ids, its observation layout and
bounds, its reward schemes and their ranges, the illegal-action policy and defaults of the
registered form, the rules version it plays, and what a seeded game shows at each step.
Whenever any of that changes, the version goes up, as the rules versions do
(:class:`~karnak.core.game.Game`): ``tests/envs/test_registration.py`` pins a
fingerprint of each version (:mod:`karnak.envs.fingerprints`) and fails, saying so, when
the behaviour changes under the same number. A game declares its number in its plugin
(``env_version``; 1 until a game first changes it). Only the newest version of each game
is shipped: an old name raises an error that names the current one.

``python -m karnak.envs.fingerprints`` prints every version's names and fingerprints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from karnak.core.game import Game
from karnak.core.registry import get_plugin, plugins
from karnak.envs.illegal import IllegalPolicy

__all__ = [
    "DEFAULT_ENV_VERSION",
    "NAMESPACE",
    "REGISTERED_ILLEGAL",
    "EnvVersion",
    "env_version",
    "env_versions",
    "versioned_name",
]

#: The Gymnasium namespace of every id (``karnak/Aton-v1``).
NAMESPACE = "karnak"
#: A game's environment version when its plugin declares none.
DEFAULT_ENV_VERSION = 1
#: The illegal-action policy of the registered and versioned environments (the checkers
#: sample blind to the mask; see :mod:`karnak.envs.illegal`).
REGISTERED_ILLEGAL: IllegalPolicy = "penalty"
#: ``<game>_v<N>``: a versioned module name.
_MODULE_NAME = re.compile(r"^([a-z][a-z0-9]*)_v(\d+)$")


@dataclass(frozen=True)
class EnvVersion:
    """One game's environments at one version, and the names they go by."""

    #: The registry name of the game (``"amunre"``).
    game: str
    #: The game's title (``"Amun-Re"``).
    title: str
    version: int

    @property
    def gym_name(self) -> str:
        """The title in one word, as a Gymnasium id has it (``"AmunRe"``)."""
        return re.sub(r"[^0-9A-Za-z]", "", self.title)

    @property
    def gym_id(self) -> str:
        return f"{NAMESPACE}/{self.gym_name}-v{self.version}"

    @property
    def name(self) -> str:
        """``metadata["name"]`` of the game's environments (``"karnak_amunre_v1"``)."""
        return f"{NAMESPACE}_{self.game}_v{self.version}"

    @property
    def module_name(self) -> str:
        """The PettingZoo-style module's last name (``"amunre_v1"``)."""
        return f"{self.game}_v{self.version}"

    @property
    def module(self) -> str:
        return f"karnak.envs.{self.module_name}"

    @property
    def gym_kwargs(self) -> dict[str, Any]:
        """What the registered Gymnasium id passes to
        :class:`~karnak.envs.gymnasium.KarnakGymEnv` (``gymnasium.make``'s own keywords,
        ``players=4`` say, are added to these)."""
        return {"game": self.game, "illegal": REGISTERED_ILLEGAL}


def env_version(game: str | Game) -> EnvVersion:
    """The environment version of ``game`` (a name, an alias or a game object)."""
    plugin = get_plugin(game.name if isinstance(game, Game) else game)
    declared = getattr(plugin, "env_version", DEFAULT_ENV_VERSION)
    if isinstance(declared, bool) or not isinstance(declared, int) or declared < 1:
        raise ValueError(f"{plugin.name}: env_version must be a whole number from 1")
    return EnvVersion(plugin.name, plugin.game().title, declared)


def env_versions() -> list[EnvVersion]:
    """The environment version of every game Karnak knows (its own and installed ones)."""
    return [env_version(name) for name in plugins()]


def versioned_name(name: str) -> EnvVersion | None:
    """The version a module name ``<game>_v<N>`` stands for; None if ``name`` is not of
    that form or names no game; LookupError, naming the current one, if ``N`` is not the
    game's current version."""
    match = _MODULE_NAME.match(name)
    if match is None or match.group(1) not in plugins():
        return None
    current = env_version(match.group(1))
    if int(match.group(2)) != current.version:
        raise LookupError(
            f"karnak.envs.{name} is not shipped: {current.title}'s environments are at "
            f"version {current.version} now ({current.module}, {current.gym_id}); see "
            "docs/research.md for what changed"
        )
    return current
