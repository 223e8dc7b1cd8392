"""What a game declares up front: its metadata, its options, and how to start a state.

Following OpenSpiel, a game is a small immutable description; all play happens in states.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from karnak.core.errors import InvalidOptionError, RulesVersionError
from karnak.i18n import t

if TYPE_CHECKING:
    from karnak.core.action_ids import ActionSpace
    from karnak.core.actions import Action
    from karnak.core.description import GameDescription
    from karnak.core.state import State
    from karnak.core.tensors import TensorLayout


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, allowed values and a line of help.

    ``choices`` lists the allowed values; booleans get ``(False, True)`` automatically.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = field(default=())

    def allowed(self) -> tuple[Any, ...]:
        if self.choices:
            return self.choices
        if isinstance(self.default, bool):
            return (False, True)
        return ()

    def coerce(self, value: Any) -> Any:
        """Accept the value itself or its text form (from a command line or a lobby form)."""
        allowed = self.allowed()
        if isinstance(value, str) and allowed:
            for candidate in allowed:
                if str(candidate).lower() == value.strip().lower():
                    return candidate
            if isinstance(self.default, bool):
                lowered = value.strip().lower()
                if lowered in ("1", "yes", "on", "true"):
                    return True
                if lowered in ("0", "no", "off", "false"):
                    return False
        if allowed and value not in allowed:
            shown = ", ".join(str(a) for a in allowed)
            raise InvalidOptionError(
                f"option {self.name!r} cannot be {value!r}; allowed values: {shown}"
            )
        if isinstance(self.default, bool) and not isinstance(value, bool):
            raise InvalidOptionError(f"option {self.name!r} must be true or false, not {value!r}")
        return value


def version_key(version: str) -> tuple[int, ...]:
    """``"1.10"`` as ``(1, 10)``, so that versions compare as numbers."""
    return tuple(int(part) for part in version.split("."))


@dataclass(frozen=True)
class RulesChange:
    """One rules version of a game: its number and what it changed, in a line."""

    version: str
    change: str


class Game(ABC):
    """Metadata of a game plus the way to start, parse and restore its states.

    Rules versions. ``version`` is the rules version a game is played under; every change
    of behaviour (a record that would replay differently) adds a version to ``rules_history``.
    The engine keeps every version listed there playable: :meth:`at_version` gives the game
    under an older version's rules, so an old record replays as it was played and a stored
    game finishes under the rules it began with. States ask :meth:`rules_at_least` where
    behaviour differs.
    """

    name: str
    title: str
    #: The rules version of this game object: the newest for the registered game, an older
    #: one for a game made by :meth:`at_version`.
    version: str
    #: Every rules version this engine still plays, oldest first, each with its change.
    rules_history: tuple[RulesChange, ...] = ()
    min_players: int
    max_players: int
    #: One line saying what the game is about, for a lobby or a help screen.
    description: str = ""
    #: How long a game typically lasts at the table, as the box says (``"30-45 minutes"``).
    playing_time: str = ""
    options: tuple[OptionSpec, ...] = ()
    default_seat_names: tuple[str, ...] = ()
    #: Whether seats take private steps at once (see ``State.private_step``). Servers then
    #: refuse to take moves back at a table of several seats: whether another seat has moved
    #: since, privately, must not change what a seat is told.
    private_steps: bool = False

    # ------------------------------------------------------------------ rules versions
    @property
    def newest_version(self) -> str:
        """The rules version new games are played under."""
        return type(self).version

    def playable_versions(self) -> tuple[str, ...]:
        """The rules versions this engine can play, oldest first."""
        versions = tuple(change.version for change in self.rules_history)
        return versions if versions else (self.newest_version,)

    def at_version(self, version: str) -> Self:
        """This game under the rules of ``version`` (raises RulesVersionError, naming both
        versions, for a version this engine does not play)."""
        version = str(version)
        if version == self.version:
            return self
        playable = self.playable_versions()
        if version not in playable:
            listed = ", ".join(playable)
            raise RulesVersionError(
                f"it was played under {self.title} rules version {version}, which this Karnak "
                f"cannot play: it plays {self.title} rules version"
                f"{'s' if len(playable) > 1 else ''} {listed} (newest {self.newest_version})",
                wanted=version,
                newest=self.newest_version,
            )
        other = copy.copy(self)
        other.version = version
        return other

    def __copy__(self) -> Self:
        """A shallow copy of the object itself (:meth:`at_version` makes one and changes
        its version), never the registered game that pickling refers to."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        return other

    def __reduce_ex__(self, protocol: Any) -> str | tuple[Any, ...]:
        """Pickled by reference (its name and rules version) where it is the registered game
        or that game under an older version: worker processes and Ray tasks receive games,
        and a compiled board's frozen dataclasses cannot be rebuilt field by field. Any
        other game object (a custom board) pickles as usual."""
        from karnak.core.registry import get_game

        try:
            registered = get_game(self.name)
        except Exception:  # not a registered game: no reference to pickle
            return super().__reduce_ex__(protocol)
        if registered is self:
            return (_registered_game, (self.name, self.version))
        mine = {k: v for k, v in vars(self).items() if k != "version"}
        theirs = {k: v for k, v in vars(registered).items() if k != "version"}
        same = type(self) is type(registered) and mine.keys() == theirs.keys()
        if same and all(mine[k] is theirs[k] for k in mine):
            return (_registered_game, (self.name, self.version))
        return super().__reduce_ex__(protocol)

    def rules_at_least(self, version: str) -> bool:
        """Whether this game plays under ``version``'s rules or newer ones."""
        return version_key(self.version) >= version_key(version)

    # ------------------------------------------------------------------ options
    def resolve_options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Fill in defaults and validate every given option; unknown names are errors."""
        given = dict(options or {})
        resolved: dict[str, Any] = {}
        for spec in self.options:
            resolved[spec.name] = (
                spec.coerce(given.pop(spec.name)) if spec.name in given else (spec.default)
            )
        if given:
            unknown = ", ".join(sorted(given))
            known = ", ".join(s.name for s in self.options) or "none"
            raise InvalidOptionError(
                t(
                    "{game} has no option(s) {unknown}; options: {known}",
                    game=self.title,
                    unknown=unknown,
                    known=known,
                )
            )
        return resolved

    def check_player_count(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            if self.min_players == self.max_players:
                refusal = t(
                    "{game} is for exactly {most} players, not {count}",
                    game=self.title,
                    most=self.max_players,
                    count=count,
                )
            else:
                refusal = t(
                    "{game} is for {least} to {most} players, not {count}",
                    game=self.title,
                    least=self.min_players,
                    most=self.max_players,
                    count=count,
                )
            raise InvalidOptionError(refusal)

    def checked_seats(self, players: Sequence[str] | int, seed: int) -> list[str]:
        """The seat names a new state gets (defaults for a bare count), after checking the
        count, the names and the seed: the common part of every game's ``new_state``."""
        names = self.seat_names(players) if isinstance(players, int) else list(players)
        self.check_player_count(len(names))
        if len(set(names)) != len(names) or not all(n.strip() for n in names):
            raise InvalidOptionError(t("seat names must be distinct and not empty"))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidOptionError(f"the seed must be a whole number, not {seed!r}")
        return names

    def seat_names(self, count: int) -> list[str]:
        """Default names for ``count`` seats (colours where the game has them)."""
        names = list(self.default_seat_names[:count])
        while len(names) < count:
            names.append(f"Player {len(names) + 1}")
        return names

    def variant_data(self) -> dict[str, Any] | None:
        """Data a record must carry to replay this game elsewhere (e.g. a corrected board).

        ``None`` for the game as shipped.
        """
        return None

    def with_variant_data(self, data: Mapping[str, Any]) -> Game:
        """The game as described by a record's variant data (inverse of ``variant_data``)."""
        raise InvalidOptionError(f"{self.title} has no variants")

    @abstractmethod
    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> State:
        """Start a game. ``players`` is a list of seat names or a number of seats.

        ``log=False`` starts it with the event log switched off, as search copies are:
        the same play, without the words for people (random play, rollouts and training
        then skip formatting the deal and the first moves)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text`` (the inverse of ``Action.to_text``)."""

    @abstractmethod
    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """The action described by ``data`` (the inverse of ``Action.to_json``)."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Restore a state written by ``State.to_json``."""

    # --- integer actions (karnak.core.action_ids) ----------------------------------
    def action_space(self, players: int, options: Mapping[str, Any] | None = None) -> ActionSpace:
        """The fixed integer ids of this game's moves at a table of ``players``."""
        raise NotImplementedError(f"{self.title} has no integer action space yet")

    def score_bounds(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int]:
        """The least and the most points a seat can have at any point of a game (bounds, not
        necessarily reached): they give the range of the score-difference rewards."""
        raise NotImplementedError(f"{self.title} declares no score bounds yet")

    def score_targets(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[tuple[str, int], ...]:
        """Named scores a seat may aim at, at a table of ``players`` (a solo game's ranks),
        each with the least points that reach it, lowest first; none by default. The
        ``"status:NAME"`` rewards pay +1 for reaching one (see :mod:`karnak.core.description`)."""
        return ()

    def default_score_target(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """The name of the target ``"status"`` rewards aim at when none is named (one of
        :meth:`score_targets`), or None."""
        return None

    def describe(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        rewards: str | None = None,
    ) -> GameDescription:
        """Type, rewards and their range, length and sizes at a table of ``players``: see
        :mod:`karnak.core.description`."""
        from karnak.core.description import describe

        return describe(self, players, options, rewards)

    # --- tensors (karnak.core.tensors) ---------------------------------------------
    def observation_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        """The named slices of :meth:`State.observation_tensor` at a table of ``players``
        with ``options`` (every seat's tensor has this layout)."""
        raise NotImplementedError(f"{self.title} has no observation tensor yet")

    def information_state_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        """The named slices of :meth:`State.information_state_tensor`."""
        raise NotImplementedError(f"{self.title} has no information state tensor yet")

    def __repr__(self) -> str:
        return f"<Game {self.name} v{self.version}>"


def _registered_game(name: str, version: str) -> Game:
    """The registered game ``name`` under the rules of ``version`` (how games unpickle)."""
    from karnak.core.registry import get_game

    return get_game(name).at_version(version)
