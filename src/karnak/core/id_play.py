"""A Karnak game played in integer ids, one seat at a time: the ground every adapter stands on.

Research frameworks want one player to move at a time, a fixed set of integer actions with a
mask, fixed-size float observations and a reward after every step. :class:`IdState` gives
exactly that over any Karnak state, and the PettingZoo, Gymnasium and OpenSpiel adapters and
the batch stepper only translate it, so they agree with each other by construction.

- **One seat at a time.** At a sealed step several seats must commit; they do so lowest seat
  first. Nothing a seat commits is visible to the others before the reveal (the engine's own
  guarantee, tested), so this serial order is the simultaneous step as each seat sees it.
- **Spelled moves.** A move is one id or a short spelling of ids (an Amun-Re offering with
  cards, an Egyptia payment; see :mod:`karnak.core.action_ids`). While a seat spells, it stays
  the seat to move, and its observation counts the ids it has chosen so far (the
  ``spelled`` part at the end of the vector: one entry for each id that can stand in an
  unfinished spelling, ``space.spelling_ids``; none for a game whose moves are all one id),
  so a policy sees where it is in its spelling. Another seat's unfinished spelling is never
  in anyone else's observation.
- **Rewards** follow :mod:`karnak.core.description`: the change of each seat's standing.
- **Length.** A game that reaches ``max_game_length`` ids without ending is cut off
  (``truncated``); only Aton can in principle run that long, and no random game came near.

Every research step runs through this module, so it is in the compiled set
(:mod:`karnak.native`) and imports nothing outside the core: the adapters import it through
:mod:`karnak.envs.idgame`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, SupportsInt

import numpy as np

from karnak.core.action_ids import ActionIdError, BoolVector, Options, Speller, Spelling
from karnak.core.actions import Action
from karnak.core.description import GameDescription, standing
from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.core.registry import get_game
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.core.tensors import FloatVector

ObservationKind = Literal["information_state", "observation"]
OBSERVATION_KINDS: tuple[ObservationKind, ...] = ("information_state", "observation")
#: ``current_player()`` once the game is over or cut off (OpenSpiel's terminal player id).
TERMINAL: Final = -4


def default_players(game: Game) -> int:
    """The smallest table of two or more the game allows (Aton 2, Amun-Re 3, Egyptia 2)."""
    return max(game.min_players, min(2, game.max_players))


class IdGame:
    """One game at one table size, options, reward scheme and observation kind.

    ``observation`` chooses the tensor under each seat's vector: ``"information_state"`` (the
    default: what the seat sees plus a summary of what it witnessed) or ``"observation"``
    (what it sees now).
    """

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        *,
        rewards: str | None = None,
        observation: str = "information_state",
        options: Mapping[str, Any] | None = None,
    ):
        self.game = get_game(game) if isinstance(game, str) else game
        if players is None:
            players = default_players(self.game)
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError(f"players must be a whole number, not {players!r}")
        if observation not in OBSERVATION_KINDS:
            raise InvalidOptionError(
                f"observation must be one of {', '.join(OBSERVATION_KINDS)}, not {observation!r}"
            )
        self.players = players
        self.observation_kind: ObservationKind = (
            "observation" if observation == "observation" else "information_state"
        )
        self.description: GameDescription = self.game.describe(players, options, rewards)
        self.options: dict[str, Any] = dict(self.description.options)
        self.space = self.game.action_space(players, self.options)
        self.speller = Speller(self.space)
        self.tensor_size = (
            self.description.information_state_size
            if self.observation_kind == "information_state"
            else self.description.observation_size
        )
        #: Where each id that can stand in an unfinished spelling is counted in the
        #: ``spelled`` part (after the tensor).
        self.spelling_index = {id_: i for i, id_ in enumerate(self.space.spelling_ids)}
        self.spelled_size = len(self.spelling_index)
        #: The length of each seat's vector: the tensor, then the counts of the ids the seat
        #: has spelled so far of its current move (the description's vector size).
        self.observation_size = self.tensor_size + self.spelled_size
        self.num_actions = self.space.size
        self.max_game_length = self.space.max_game_length

    def observation_bounds(self) -> tuple[FloatVector, FloatVector]:
        """The low and high bound of every entry of a seat's vector: the tensor's declared
        ranges, then 0 to ``space.spelling_repeats`` for each spelled count."""
        layout = (
            self.game.information_state_layout(self.players, self.options)
            if self.observation_kind == "information_state"
            else self.game.observation_layout(self.players, self.options)
        )
        low, high = layout.bounds()
        spelled_low = np.zeros(self.spelled_size, dtype=np.float32)
        spelled_high = np.full(self.spelled_size, self.space.spelling_repeats, dtype=np.float32)
        return np.concatenate((low, spelled_low)), np.concatenate((high, spelled_high))

    def tensor(self, state: State, seat: int) -> FloatVector:
        """``seat``'s tensor of this game's observation kind (a fresh array)."""
        if self.observation_kind == "information_state":
            return state.information_state_tensor(seat)
        return state.observation_tensor(seat)

    def vector(
        self, state: State, seat: int, prefix: Spelling, out: FloatVector | None = None
    ) -> FloatVector:
        """``seat``'s vector: its tensor, then the counts of ``prefix``, what the seat has
        spelled so far of its current move (``()`` for any seat not spelling). With ``out``
        (a float32 array of ``observation_size``, a row of a batch), it is written there and
        ``out`` is returned."""
        return self.vector_of(self.tensor(state, seat), prefix, out)

    def vector_of(
        self, tensor: FloatVector, prefix: Spelling, out: FloatVector | None = None
    ) -> FloatVector:
        """:meth:`vector` from the seat's tensor at hand (``tensor`` itself is returned, not
        a copy, when the game spells nothing and there is no ``out``)."""
        if not self.spelled_size:
            if out is None:
                return tensor
            out[:] = tensor
            return out
        size = self.tensor_size
        if out is None:
            vector = np.zeros(self.observation_size, dtype=np.float32)
            vector[:size] = tensor
        else:
            vector = out
            vector[:size] = tensor
            vector[size:] = 0.0
        index = self.spelling_index
        for action_id in prefix:
            place = index.get(action_id)
            if place is None:  # a game that spells with an id it did not declare
                raise ActionIdError(
                    f"{self.id_name(action_id)} stands in an unfinished spelling but is not "
                    "among the action space's spelling_ids"
                )
            vector[size + place] += 1.0
        return vector

    def new_state(self, seed: int = 0) -> IdState:
        return IdState(self, self.game.new_state(self.players, seed=seed, options=self.options))

    def id_name(self, action_id: int) -> str:
        return self.space.id_name(action_id)

    def __repr__(self) -> str:
        d = self.description
        return f"<IdGame {d.name} players={d.players} rewards={d.rewards} {self.observation_kind}>"


class _Here:
    """What :class:`IdState` worked out for one position (the seat to move and its options),
    with what identifies the position: the state object, the moves it has had, the prefix
    and the cut-off flag."""

    __slots__ = ("moves", "options", "prefix", "seat", "state", "truncated")

    def __init__(
        self,
        state: State,
        moves: int,
        prefix: Spelling,
        truncated: bool,
        seat: int,
        options: Options,
    ):
        self.state = state
        self.moves = moves
        self.prefix = prefix
        self.truncated = truncated
        self.seat = seat
        self.options = options


class IdState:
    """A Karnak state played one id at a time (see the module's text).

    The seat to move and its legal ids are worked out once a position: what ``observe``
    showed, ``step`` checks against without asking the engine again. A position is known by
    its state object, the moves in its history, the prefix and the cut-off flag, so a state
    changed behind this object's back (``id_state.state.apply(...)``) is worked out afresh.

    In a game whose moves can take several ids, the engine's state does not change while a
    seat spells, so the seats' tensors of the state are remembered until it does (known by
    the state object and its number of moves, as above): only the spelled counts at the end
    of a vector change from one id to the next.
    """

    __slots__ = (
        "_here",
        "_tensor_moves",
        "_tensor_state",
        "_tensors",
        "idgame",
        "ids",
        "length",
        "prefix",
        "state",
        "truncated",
    )

    def __init__(self, idgame: IdGame, state: State):
        self.idgame = idgame
        self.state = state
        #: What the seat to move has spelled so far of its current move.
        self.prefix: Spelling = ()
        #: Every id chosen since the start (with the seed, the whole game). Empty in a world
        #: made by :meth:`resample`: the ids that led there include some the seat never saw.
        self.ids: list[int] = []
        #: How many ids have been chosen since the start (public: every seat counts them).
        self.length = 0
        self.truncated = False
        self._here: _Here | None = None
        #: Each seat's tensor of the state as it was after ``_tensor_moves`` moves.
        self._tensors: dict[int, FloatVector] = {}
        self._tensor_state: State | None = None
        self._tensor_moves = -1

    def _position(self) -> _Here:
        """The seat to move and its options here (worked out once a position)."""
        state = self.state
        here = self._here
        if (
            here is not None
            and here.state is state
            and here.moves == len(state.history)
            and here.prefix == self.prefix
            and here.truncated == self.truncated
        ):
            return here
        seat = self.current_player()
        options: Options = (
            {} if seat == TERMINAL else self.idgame.speller.options(state, seat, self.prefix)
        )
        here = _Here(state, len(state.history), self.prefix, self.truncated, seat, options)
        self._here = here
        return here

    # --- whose turn ------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.truncated or self.state.is_over()

    def current_player(self) -> int:
        """The seat to choose an id, or :data:`TERMINAL`."""
        if self.truncated:
            return TERMINAL
        movers = self.state.to_move()
        if len(movers) == 1:
            return movers[0]
        return min(movers) if movers else TERMINAL

    # --- what may be chosen ----------------------------------------------------------
    def legal_ids(self, seat: SupportsInt | None = None) -> list[int]:
        """The ids ``seat`` (default: the seat to move) may choose now; [] if it is not to
        move. (Seats, like ids, may be NumPy integers.)"""
        here = self._position()
        if here.seat == TERMINAL or (seat is not None and int(seat) != here.seat):
            return []
        return sorted(here.options)

    def mask(self, seat: SupportsInt | None = None) -> BoolVector:
        """``legal_ids`` as a boolean vector of the space's size (all False off turn); the
        caller's own array (a new one each call)."""
        here = self._position()
        if here.seat == TERMINAL or (seat is not None and int(seat) != here.seat):
            return np.zeros(self.idgame.num_actions, dtype=np.bool_)
        return self.idgame.speller.mask_of(here.options)

    def apply_id(self, action_id: SupportsInt) -> None:
        """The seat to move chooses ``action_id``: ActionIdError (the state unchanged) if it
        is not legal now, or if the game is over. (SupportsInt, not int: a NumPy integer,
        what a policy's argmax gives, is an id too, and compiled an ``int`` annotation would
        refuse it.)"""
        here = self._position()
        seat = here.seat
        if seat == TERMINAL:
            raise ActionIdError("the game is over: no id can be chosen")
        prefix, action = self.idgame.speller.choose_from(here.options, self.prefix, action_id)
        self.prefix = prefix
        self.ids.append(int(action_id))
        self.length += 1
        self._here = None
        if action is not None:
            self.state.apply_unchecked(seat, action)
        if self.length >= self.idgame.max_game_length and not self.state.is_over():
            self.truncated = True

    def apply_move(self, action: Action, legal: Sequence[Action] | None = None) -> None:
        """The seat to move plays the whole move ``action`` (a bot's choice): the same as
        choosing its spelling id by id, without working out the options of each id. The
        move must be one of the seat's legal moves, found by identity in ``legal`` (the list
        the engine gave for this very position, as a bot's :class:`SeatView` holds it) or,
        without it, in the engine's list; anything else goes through the engine's full
        check (its error, the state unchanged, if it is not legal). A seat half way through
        a spelling, or a move that would meet the game's length limit before its last id,
        goes id by id instead."""
        spelling = self.idgame.speller.spelling(action)
        if (
            self.prefix
            or self.truncated
            or not spelling
            or self.length + len(spelling) >= self.idgame.max_game_length
        ):
            for action_id in spelling:
                self.apply_id(action_id)
            return
        seat = self.current_player()
        if seat == TERMINAL:
            raise ActionIdError("the game is over: no move can be played")
        state = self.state
        # The engines hand out the same move objects as their legal moves, so a bot's choice
        # is found by identity; anything else goes through the engine's full check.
        for candidate in state.legal_actions(seat) if legal is None else legal:
            if candidate is action:
                state.apply_unchecked(seat, action)
                break
        else:
            state.apply(seat, action)
        self.ids.extend(spelling)
        self.length += len(spelling)
        self._here = None

    # --- what a seat sees ------------------------------------------------------------
    def tensor(self, seat: SupportsInt) -> FloatVector:
        """``seat``'s tensor of the state now (remembered while a seat spells: see the
        class's text; not to be written to)."""
        return self._tensor(int(seat))

    def _tensor(self, seat: int) -> FloatVector:
        idgame = self.idgame
        if not idgame.spelled_size:  # every move one id: the state changes at every id
            return idgame.tensor(self.state, seat)
        state = self.state
        moves = len(state.history)
        if state is not self._tensor_state or moves != self._tensor_moves:
            self._tensors = {}
            self._tensor_state = state
            self._tensor_moves = moves
        tensor = self._tensors.get(seat)
        if tensor is None:
            tensor = self._tensors[seat] = idgame.tensor(state, seat)
        return tensor

    def observation(self, seat: SupportsInt, out: FloatVector | None = None) -> FloatVector:
        """``seat``'s vector: its tensor, then the counts of the ids it has spelled so far
        (written into ``out`` if given: see :meth:`IdGame.vector`); the caller's own array."""
        viewer = int(seat)
        spelling = self.prefix if self.prefix and viewer == self.current_player() else ()
        return self.idgame.vector_of(self._tensor(viewer), spelling, out)

    def spelled_string(self, seat: int) -> str:
        if self.prefix and seat == self.current_player():
            names = ", ".join(self.idgame.id_name(i) for i in self.prefix)
            return f"spelled so far: {names}"
        return "spelled so far: nothing"

    def observation_string(self, seat: int) -> str:
        return self.state.observation_string(seat) + "\n" + self.spelled_string(seat)

    def information_state_string(self, seat: int) -> str:
        return self.state.information_state_string(seat) + "\n" + self.spelled_string(seat)

    # --- rewards -----------------------------------------------------------------------
    def standing(self) -> list[float]:
        """Each seat's value now under the reward scheme; the final utilities at the end (a
        cut-off game ends as it stands)."""
        return standing(self.state, self.idgame.description.rewards)

    # --- copies ------------------------------------------------------------------------
    def clone(self) -> IdState:
        other = IdState(self.idgame, self.state.clone(log=True))
        other.prefix = self.prefix
        other.ids = list(self.ids)
        other.length = self.length
        other.truncated = self.truncated
        return other

    def resample(self, seat: SupportsInt, rng: Rng) -> IdState:
        """A world ``seat`` cannot tell from this one: hidden cards re-dealt, its own history
        kept (OpenSpiel's ``resample_from_infostate``). Another seat's unfinished spelling is
        hidden from ``seat``, so the world starts that seat's move afresh. The world keeps the
        count of ids but not the ids themselves (some of them the seat never saw)."""
        viewer = int(seat)
        world = IdState(self.idgame, self.state.resample(viewer, rng, history=True))
        world.length = self.length
        world.truncated = self.truncated
        if viewer == self.current_player():
            world.prefix = self.prefix
        else:
            world.length -= len(self.prefix)
        return world

    def __repr__(self) -> str:
        d = self.idgame.description
        return (
            f"<IdState {d.name} ids={self.length} to_move={self.current_player()} "
            f"prefix={self.prefix}>"
        )
