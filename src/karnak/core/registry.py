"""The games Karnak knows: its own plugins, listed once, and any a distribution adds.

A game is a :class:`~karnak.core.plugin.GamePlugin`. Karnak's own games are named in
:data:`BUILTIN`; a game in its own distribution declares an entry point in the group
:data:`ENTRY_POINT_GROUP` (``karnak.games``), named after the game, whose object is its
plugin::

    [project.entry-points."karnak.games"]
    senet = "senet_for_karnak.plugin:PLUGIN"

Plugins are found at the first lookup and kept; :func:`refresh` looks again (after installing
a distribution in a running interpreter, or in a test). Each plugin's parts are imported
only when a layer asks for them, so listing the games imports no rules.
"""

from __future__ import annotations

import logging
import threading
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from karnak.core.errors import KarnakError
from karnak.core.plugin import GamePlugin, load_reference
from karnak.i18n import t

if TYPE_CHECKING:
    from karnak.core.game import Game

log = logging.getLogger(__name__)

#: Karnak's own games: name -> the plugin's ``"module:attribute"``.
BUILTIN: dict[str, str] = {
    "amunre": "karnak.games.amunre.plugin:PLUGIN",
    "aton": "karnak.games.aton.plugin:PLUGIN",
    "egyptia": "karnak.games.egyptia.plugin:PLUGIN",
}
#: The game a request, a table or a command gets when it names none.
DEFAULT_GAME = "amunre"
#: The entry point group through which another distribution adds a game.
ENTRY_POINT_GROUP = "karnak.games"


class UnknownGameError(KarnakError, LookupError):
    pass


_lock = threading.Lock()
_plugins: dict[str, GamePlugin] | None = None
_aliases: dict[str, str] = {}


def _discover() -> dict[str, GamePlugin]:
    found: dict[str, GamePlugin] = {}
    for name, reference in BUILTIN.items():
        found[name] = _checked(load_reference(reference), reference)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in found:
            log.warning("game plugin %s (%s) ignored: the name is taken", point.name, point.value)
            continue
        try:
            plugin = _checked(point.load(), point.value)
        except Exception as exc:  # a broken third-party game must not take Karnak down
            log.warning("game plugin %s (%s) could not be loaded: %s", point.name, point.value, exc)
            continue
        if plugin.name != point.name:
            log.warning(
                "game plugin %s ignored: its entry point is named %r", plugin.name, point.name
            )
            continue
        found[plugin.name] = plugin
    return found


def _checked(plugin: object, reference: str) -> GamePlugin:
    if not isinstance(plugin, GamePlugin):
        raise UnknownGameError(f"{reference} is not a GamePlugin")
    return plugin


def plugins() -> dict[str, GamePlugin]:
    """Every registered game's plugin, by name (sorted)."""
    global _plugins
    with _lock:
        if _plugins is None:
            found = _discover()
            _plugins = dict(sorted(found.items()))
            _aliases.clear()
            for plugin in found.values():
                for alias in plugin.aliases:
                    _aliases.setdefault(alias.lower(), plugin.name)
        return _plugins


def refresh() -> None:
    """Forget the plugins found so far: the next lookup looks for them again."""
    global _plugins
    with _lock:
        _plugins = None


def available_games() -> list[str]:
    return list(plugins())


def get_plugin(name: str) -> GamePlugin:
    known = plugins()
    key = name.lower()
    key = _aliases.get(key, key)
    plugin = known.get(key)
    if plugin is None:
        raise UnknownGameError(
            t("unknown game {name}; Karnak has: {games}", name=repr(name), games=", ".join(known))
        )
    return plugin


def get_game(name: str) -> Game:
    return get_plugin(name).game()


def plugin_for(game: Game) -> GamePlugin:
    """The plugin of a game object (its ``name``)."""
    return get_plugin(game.name)
