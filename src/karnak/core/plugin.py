"""A game as one plugin: all that Karnak's generic layers need to find in a game's package.

A :class:`GamePlugin` is a plain, frozen value a game package exports (``PLUGIN`` in
``karnak.games.<game>.plugin``). It names, as ``"module:attribute"`` references, the parts
the generic layers look up: the rules (a :class:`~karnak.core.game.Game`), the bot knowledge
(a :class:`~karnak.core.knowledge.Knowledge`), the terminal drawing, the web page (a
:class:`WebPage`) and the board data module. The references are imported only when a layer
asks for its part, so the engine never imports Rich, and a server never imports a terminal.

Every part but the rules is optional, and each layer has a plain fallback for a game that
lacks one: the terminal shows the observation as data, the page draws a plain list of the
moves, the ``heuristic`` bot is not offered and the search plays random rollouts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from karnak.core.errors import KarnakError

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.daily import DailyGame
    from karnak.core.game import Game
    from karnak.core.knowledge import Knowledge
    from karnak.core.state import State
    from karnak.core.terminal import GameRenderer
    from karnak.i18n import Domain


class PluginError(KarnakError, LookupError):
    """A plugin names a part that cannot be imported, or a part of the wrong kind."""


def load_reference(reference: str) -> Any:
    """``"package.module:attribute"`` -> that attribute, imported now."""
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise PluginError(f"{reference!r} is not a 'module:attribute' reference")
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise PluginError(f"{module_name} has no {attribute!r} (named by {reference!r})") from None


#: What the generic layers hand a game's drawing code of a position: one seat's observation
#: (a spectator's when the seat is None), never the state. Each game declares its shape
#: (a ``TypedDict`` in ``karnak.games.<game>.view``, named by :attr:`GamePlugin.observation`).
View = Mapping[str, Any]
#: What a seat's page draws and teaches (its hand, hints for its moves; the guide), from the
#: game, that seat's view, the seat (None: a spectator) and its legal moves.
#: A game's rule for moves that need no click (see :attr:`GamePlugin.forced_move`).
ForcedMove = Callable[["Game", View, int], "Action | None"]
PageData = Callable[["Game", View, "int | None", "Sequence[Action]"], "dict[str, Any]"]


@dataclass(frozen=True)
class WebPage:
    """A game's part of the web page.

    ``board_svg`` draws the board from a spectator's view (public information only, so one
    drawing serves every seat and spectator); ``page_data`` is what belongs to one seat (its
    hand, hints for its moves), built from that seat's view; ``guide`` teaches the decision
    at hand; ``lobby`` helps the lobby offer the game's options; ``replay`` is what a
    finished game's replay shows beyond a spectator's view (nothing is hidden once a game is
    over, so it alone reads the state).

    At a crowd table (more seats than :data:`karnak.server.views.CROWD_SEATS`) every page
    gets a view at every new step, so what each one carries counts 99 times over:
    ``crowd_view`` turns a seat's observation into what its page gets there (its own part
    in full, the others in short), and ``player_sheet`` gives one player's part in full as
    a reader sees it in its own observation, which the page fetches when asked
    (``GET /api/games/{id}/sheets/{seat}``). Both read only the reader's observation, so
    they show nothing the full view would not. A game without them sends the whole
    observation to a crowd too.

    ``static`` is the folder of the game's browser files, served under
    ``/static/games/<game>/``: ``script`` (an ES module exporting ``render(view, ctx)``) and
    ``stylesheets`` are loaded by the game page for this game only.
    """

    board_svg: Callable[[Game, View], str]
    page_data: PageData
    guide: PageData | None = None
    lobby: Callable[[Game], dict[str, Any]] | None = None
    replay: Callable[[State], dict[str, Any]] | None = None
    #: ``(game, the seat's observation, the seat or None)`` -> the observation a crowd's
    #: page gets.
    crowd_view: Callable[[Game, View, int | None], dict[str, Any]] | None = None
    #: ``(game, the reader's observation, a player's seat)`` -> that player's part in full.
    player_sheet: Callable[[Game, View, int], dict[str, Any]] | None = None
    static: Path | None = None
    script: str | None = None
    stylesheets: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableDefaults:
    """How a table of the game is set when nobody says.

    ``players``: seats when the command line does not say (None: four, within the game's
    range). ``opponent``: the bot spec ``karnak play`` seats against a person (None: the
    default level).
    """

    players: int | None = None
    opponent: str | None = None


@dataclass(frozen=True)
class GamePlugin:
    """One game, as the generic layers find it. Only ``name`` and ``rules`` are required."""

    #: The registry key: lower case, as in URLs, records and ``karnak play NAME``.
    name: str
    #: ``"module:attribute"`` of the :class:`~karnak.core.game.Game`.
    rules: str
    #: Other spellings accepted for ``name`` (``amun-re``).
    aliases: tuple[str, ...] = ()
    #: ``"module:attribute"`` of the ``TypedDict`` that declares the game's observation (the
    #: view every client draws from); its JSON schema is what the page scripts may read.
    observation: str | None = None
    #: ``"module:attribute"`` of the game's :class:`~karnak.core.knowledge.Knowledge`.
    knowledge: str | None = None
    #: ``"module:attribute"`` of a zero-argument factory of the terminal renderer.
    terminal: str | None = None
    #: ``"module:attribute"`` of the game's :class:`WebPage`.
    web: str | None = None
    #: Module with the board data: ``load_board(path)`` and ``default_board_text()`` or
    #: ``DEFAULT_BOARD`` (``karnak board GAME --dump`` and ``--board FILE``).
    board_data: str | None = None
    #: Modules worth compiling with mypyc (``karnak.native.build``), where search and
    #: training spend their time: only modules of the ``karnak`` distribution are compiled.
    compiled: tuple[str, ...] = ()
    #: The bot spec of each level (``easy`` .. ``expert``) where it differs from the standard.
    levels: Mapping[str, str] = field(default_factory=dict)
    table: TableDefaults = TableDefaults()
    #: The version of the game's research environments (``karnak/Aton-v1``,
    #: ``karnak.envs.aton_v1``): bump it whenever what they observe, pay or accept changes
    #: (tests/envs/test_registration.py pins a fingerprint of each version).
    env_version: int = 1
    #: ``"module:attribute"`` of the game's translation domain (a
    #: :class:`karnak.i18n.Domain` with the game's catalogues in its package's ``locale/``):
    #: its pages, guide, log lines and terminal in every language Karnak speaks.
    texts: str | None = None
    #: ``"module:attribute"`` of ``forced_move(game, public_view, seat) -> Action | None``:
    #: the seat's only possible move when it changes nothing and the *public* view alone
    #: shows that it is the only one (a harvest with no card that could be played), so a
    #: client may play it for the seat after a short pause without telling anyone anything.
    forced_move: str | None = None
    #: ``"module:attribute"`` of the game's :class:`~karnak.core.daily.DailyGame`, if it can
    #: be played as the game of the day (alone, the same deal for everyone).
    daily: str | None = None

    def game(self) -> Game:
        from karnak.core.game import Game

        game = load_reference(self.rules)
        if not isinstance(game, Game):
            raise PluginError(f"{self.rules} is not a Game (the {self.name} plugin's rules)")
        return game

    def load_knowledge(self) -> Knowledge | None:
        from karnak.core.knowledge import Knowledge

        if self.knowledge is None:
            return None
        knowledge = load_reference(self.knowledge)
        if not isinstance(knowledge, Knowledge):
            raise PluginError(f"{self.knowledge} is not a Knowledge")
        return knowledge

    def terminal_renderer(self) -> GameRenderer | None:
        if self.terminal is None:
            return None
        factory = load_reference(self.terminal)
        renderer: GameRenderer = factory()
        return renderer

    def text_domain(self) -> Domain | None:
        from karnak.i18n import Domain

        if self.texts is None:
            return None
        domain = load_reference(self.texts)
        if not isinstance(domain, Domain):
            raise PluginError(f"{self.texts} is not a karnak.i18n.Domain")
        return domain

    def forced_move_rule(self) -> ForcedMove | None:
        if self.forced_move is None:
            return None
        rule: ForcedMove = load_reference(self.forced_move)
        if not callable(rule):
            raise PluginError(f"{self.forced_move} is not callable")
        return rule

    def daily_game(self) -> DailyGame | None:
        from karnak.core.daily import DailyGame

        if self.daily is None:
            return None
        daily = load_reference(self.daily)
        if not isinstance(daily, DailyGame):
            raise PluginError(f"{self.daily} is not a karnak.core.daily.DailyGame")
        return daily

    def web_page(self) -> WebPage | None:
        if self.web is None:
            return None
        page = load_reference(self.web)
        if not isinstance(page, WebPage):
            raise PluginError(f"{self.web} is not a WebPage")
        return page
