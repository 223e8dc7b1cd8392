"""The questions every game state answers.

A state is a deterministic, mutable state machine. Mutability is deliberate: pure Python
pays dearly for copying on every step, so ``apply_unchecked`` changes the state in place
(like python-chess's ``push``) and search takes an explicit :meth:`State.clone` first.
The checked :meth:`State.apply` is the entry point for people and clients; it refuses an
illegal action with :class:`IllegalActionError` and leaves the state untouched.

Legality has one source: :meth:`legal_actions`. The checked path accepts exactly what it
lists, and the unchecked path assumes the caller took its action from that list.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from karnak.core.errors import IllegalActionError
from karnak.core.events import Event, EventLog
from karnak.core.rng import Rng

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.game import Game
    from karnak.core.record import GameRecord
    from karnak.core.tensors import FloatVector

LEGAL_SHOWN = 12


class InfoSet:
    """What one seat knows, offered to a search bot as a source of sampled worlds.

    Bots receive this instead of the state. Its only questions are the seat's own
    observation and :meth:`sample`, whose worlds depend on nothing the seat cannot see, so a
    bot that searches through it plays the same whatever the hidden cards are.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int):
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def sample(self, rng: Rng) -> State:
        """A full world consistent with the seat's information (a fresh copy each time),
        without the history: a search reads positions, not logs, and copying the log into
        every world would cost each iteration."""
        return self._state.resample(self.seat, rng, history=False)


class State(ABC):
    """Base class of every game state."""

    game: Game
    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, Action]]
    log: EventLog

    # --- whose decision ------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now: one seat, or several at a sealed simultaneous step.

        Empty exactly when the game is over.
        """

    def is_simultaneous(self) -> bool:
        """True at a sealed step where several seats commit without seeing each other."""
        return False

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if the seat has nothing to decide).

        A seat to move gets its decision. A seat that is not to move may still have optional
        moves that nobody waits for (Egyptia: a builder waiting for the others may use a
        ship); games without such moves return an empty list for it.
        """

    # --- applying ------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` after checking it; raise if it is illegal."""
        if self.is_over():
            raise IllegalActionError("the game is over; no more actions are accepted", seat=seat)
        if not 0 <= seat < len(self.players):
            raise IllegalActionError(
                f"there is no seat {seat}; seats are 0 to {len(self.players) - 1}", seat=seat
            )
        movers = self.to_move()
        legal = self.legal_actions(seat)
        if seat not in movers and not legal:
            waiting = ", ".join(self.players[s] for s in movers)
            raise IllegalActionError(
                f"it is not {self.players[seat]}'s decision now; waiting for {waiting}",
                seat=seat,
            )
        if action not in legal:
            texts = [a.to_text() for a in legal]
            shown = ", ".join(texts[:LEGAL_SHOWN])
            if len(texts) > LEGAL_SHOWN:
                shown += f", ... ({len(texts)} in all)"
            reason = self.explain_illegal(seat, action)
            raise IllegalActionError(
                f"{self.players[seat]} cannot {action.to_text()!r}: {reason}. Legal now: {shown}",
                seat=seat,
                legal=texts,
            )
        self.apply_unchecked(seat, action)

    def apply_text(self, seat: int, text: str) -> Action:
        """Parse ``text`` as an action of this game and apply it checked; returns the action."""
        action = self.game.parse_action(text)
        self.apply(seat, action)
        return action

    @abstractmethod
    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Fast path for search and replay of trusted records: no legality check."""

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is illegal for ``seat`` now (games override for precise reasons)."""
        return "it is not among the legal actions at this point"

    def private_step(self, seat: int, before: State) -> bool:
        """Whether the move ``seat`` just made (turning ``before`` into this state) showed
        the other seats nothing at all, not even that a move was made.

        True only for a step of the seat's own inside a sealed round (Egyptia's plague,
        payment, building). A server then leaves every other seat's view untouched, its
        version number included, so nobody can count another's private steps.
        """
        return False

    # --- the end -------------------------------------------------------------------
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]:
        """Points of each seat (final once the game is over)."""

    @abstractmethod
    def ranking_key(self, seat: int) -> tuple[int, ...]:
        """The tuple that orders seats at the end: points first, then the game's tie-breaks."""

    def ranks(self) -> list[int]:
        """Standard competition ranks (1 = best); tied seats share a rank."""
        keys = [self.ranking_key(s) for s in range(len(self.players))]
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    def winners(self) -> list[int]:
        """Seats that share first place (a shared victory lists several)."""
        return [s for s, r in enumerate(self.ranks()) if r == 1]

    def returns(self) -> list[float]:
        """Research-style outcome: +1 split among winners, 0 otherwise (after the end)."""
        if not self.is_over():
            return [0.0] * len(self.players)
        winners = self.winners()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(self.players))]

    # --- what a seat may see -------------------------------------------------------
    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """All that ``seat`` may see now and nothing more (``None``: a spectator)."""

    def information_state(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows: its observation plus the history it witnessed.

        The history is the seat's view of the log, which already hides what the seat did
        not see (other hands, sealed commitments before the reveal).
        """
        return {"observation": self.observation(seat), "history": self.log_lines(seat)}

    @abstractmethod
    def resample(self, seat: int, rng: Rng, *, history: bool = True) -> State:
        """A copy in which everything hidden from ``seat`` is re-dealt consistently.

        Search bots use it to sample worlds they cannot tell apart from the true one. The
        result must depend only on what ``seat`` knows and on ``rng``, never on the true
        hidden arrangement (tested by the games' property suites).

        With ``history`` (the default) the world keeps the seat's own view of the log, so
        its ``information_state(seat)`` equals this state's: OpenSpiel's
        ``resample_from_infostate`` contract. Without it the world has no log (faster; what
        search uses through :meth:`InfoSet.sample`).
        """

    def _keep_history(self, world: State, seat: int) -> None:
        """Give a re-dealt ``world`` this state's log as ``seat`` saw it (and nothing else)."""
        world.log = self.log.seen_by(seat)

    # --- the same as fixed-size tensors (karnak.core.tensors) ---------------------
    def observation_tensor(self, seat: int) -> FloatVector:
        """What ``seat`` sees now as a float32 vector laid out by
        ``game.observation_layout`` (built from the state, never from anything hidden
        from the seat; tested like :meth:`observation`)."""
        raise NotImplementedError(f"{self.game.title} has no observation tensor yet")

    def information_state_tensor(self, seat: int) -> FloatVector:
        """What ``seat`` knows (its observation and a fixed-size summary of what it
        witnessed) as a float32 vector laid out by ``game.information_state_layout``."""
        raise NotImplementedError(f"{self.game.title} has no information state tensor yet")

    def observation_string(self, seat: int) -> str:
        """The observation tensor's string form: what ``seat`` sees, in a few lines."""
        raise NotImplementedError(f"{self.game.title} has no observation string yet")

    def information_state_string(self, seat: int) -> str:
        """The information state's string form: the observation string and the seat's
        history (its view of the log)."""
        return self.observation_string(seat) + "\n" + "\n".join(self.log_lines(seat))

    def infoset(self, seat: int) -> InfoSet:
        """A handle on what ``seat`` knows, for search: it yields worlds, not this state."""
        return InfoSet(self, seat)

    def log_lines(self, seat: int | None = None, *, everything: bool = False) -> list[str]:
        return self.log.lines(seat, everything=everything)

    # --- copies, records, serialisation --------------------------------------------
    @abstractmethod
    def clone(self, *, log: bool = True) -> State:
        """An independent copy; ``log=False`` drops the event log for fast search."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything needed to restore the state exactly (includes hidden information)."""

    def common_json(self) -> dict[str, Any]:
        """The part of ``to_json`` every game shares: the game, seats, seed and options, the
        generator, the moves and the log. A game adds its own fields to it."""
        return {
            "game": self.game.name,
            "version": self.game.version,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.state,
            "history": [[s, a.to_text()] for s, a in self.history],
            "log": [e.to_json() for e in self.log],
            "log_enabled": self.log.enabled,
        }

    def restore_common(self, data: Mapping[str, Any]) -> None:
        """Put back what :meth:`common_json` wrote (the generator, the moves, the log)."""
        self.rng = Rng(int(data["rng"]))
        self.history = [(int(s), self.game.parse_action(t)) for s, t in data["history"]]
        self.log = EventLog(bool(data.get("log_enabled", True)))
        self.log.events = [Event.from_json(e) for e in data["log"]]

    def record(self) -> GameRecord:
        from karnak.core.record import GameRecord

        return GameRecord(
            game=self.game.name,
            version=self.game.version,
            options=dict(self.options),
            seed=self.seed,
            seats=list(self.players),
            actions=[(seat, action.to_text()) for seat, action in self.history],
            variant=self.game.variant_data(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
