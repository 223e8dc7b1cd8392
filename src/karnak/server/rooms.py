"""One game's authority in memory: who may act, with which version, and what happens then.

A :class:`Room` holds the engine state of one game and the counters that keep clients
honest. It does no I/O: the service persists an action before it calls :meth:`Room.accept`,
so the database never lags behind what anyone has been told.

Versions. Every accepted action increments ``version``. A client submits with the version
it last saw. A submission is fresh when nothing that could matter to it happened since:
its version is at least ``step_started``, the version at which the current decision step
began. At an ordinary step every action starts a new step, so only the current version is
fresh. At a sealed simultaneous step the other seats' commitments do not start a new step
(the seat cannot see them anyway), so two seats that commit at once from the same version
are both accepted; a seat that has committed is no longer to move, so it cannot commit twice.

Duplicates. A submission identical to an action the same seat had accepted after the
version it names is a retry (a double click, a resent request): it is answered as
already done instead of being applied again.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from karnak.core.errors import KarnakError

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.game import Game
    from karnak.core.record import GameRecord
    from karnak.core.state import State

HUMAN = "human"
BOT = "bot"


class SubmitError(KarnakError):
    """A submission the server refuses; ``status`` is the HTTP status that fits it."""

    status = 409

    def __init__(self, message: str, *, version: int):
        super().__init__(message)
        self.version = version


class StaleVersionError(SubmitError):
    """The game has moved on since the version the client saw."""


class NotYourDecisionError(SubmitError):
    """The seat has nothing to decide now."""


class GameOverError(SubmitError):
    """The game has ended."""


class IllegalMoveError(SubmitError):
    status = 422


class BadVersionError(SubmitError):
    status = 400


def new_token() -> str:
    """An unguessable seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    kind: str  # HUMAN or BOT
    bot: str | None
    token_hash: str

    @property
    def is_bot(self) -> bool:
        return self.kind == BOT


@dataclass(frozen=True)
class Accepted:
    """One accepted action: its place in the list, the version it produced, who and what."""

    number: int
    version: int
    seat: int
    text: str
    by_timeout: bool = False


@dataclass
class Room:
    id: str
    game: Game
    state: State
    seats: list[SeatInfo]
    seed: int
    turn_timer: float | None = None
    version: int = 0
    step_started: int = 0
    accepted: list[Accepted] = field(default_factory=list)

    # ------------------------------------------------------------------ who is asking
    def seat_for_token(self, token: str | None) -> int | None:
        """The seat whose token this is, or None (a spectator or a wrong token)."""
        if not token:
            return None
        digest = hash_token(token)
        for info in self.seats:
            if secrets.compare_digest(info.token_hash, digest):
                return info.seat
        return None

    @property
    def is_over(self) -> bool:
        return self.state.is_over()

    def bots_to_move(self) -> list[int]:
        return [s for s in self.state.to_move() if self.seats[s].is_bot]

    def humans_to_move(self) -> list[int]:
        return [s for s in self.state.to_move() if not self.seats[s].is_bot]

    # ------------------------------------------------------------------ submissions
    def check(self, seat: int, version: int, action: Action) -> Accepted | None:
        """Raise a :class:`SubmitError` if the submission cannot be accepted.

        Returns the earlier :class:`Accepted` entry when the submission repeats it (nothing
        is to be done), else None (the caller persists and then calls :meth:`accept`).
        """
        if version > self.version or version < 0:
            raise BadVersionError(
                f"version {version} does not exist; the game is at version {self.version}",
                version=self.version,
            )
        text = action.to_text()
        for earlier in reversed(self.accepted):
            if earlier.version <= version:
                break
            if earlier.seat == seat and earlier.text == text:
                return earlier
        if self.state.is_over():
            raise GameOverError("the game is over", version=self.version)
        if version < self.step_started:
            raise StaleVersionError(
                f"the game has moved on since version {version} (now {self.version}); "
                "look at the new position and choose again",
                version=self.version,
            )
        movers = self.state.to_move()
        if seat not in movers:
            waiting = ", ".join(self.state.players[s] for s in movers)
            raise NotYourDecisionError(
                f"{self.state.players[seat]} has nothing to decide now; waiting for {waiting}",
                version=self.version,
            )
        if action not in self.state.legal_actions(seat):
            reason = self.state.explain_illegal(seat, action)
            raise IllegalMoveError(f"{text!r} is not allowed now: {reason}", version=self.version)
        return None

    def accept(self, seat: int, action: Action, *, by_timeout: bool = False) -> Accepted:
        """Apply a checked action and advance the counters."""
        state = self.state
        sealed_before = state.is_simultaneous()
        movers_before = set(state.to_move())
        state.apply(seat, action)
        self.version += 1
        same_step = (
            sealed_before
            and state.is_simultaneous()
            and set(state.to_move()) == movers_before - {seat}
        )
        if not same_step:
            self.step_started = self.version
        entry = Accepted(len(self.accepted), self.version, seat, action.to_text(), by_timeout)
        self.accepted.append(entry)
        return entry

    def record(self) -> GameRecord:
        return self.state.record()

    def replayed(self, steps: int) -> Room:
        """A copy of this room after its first ``steps`` accepted actions (for replays)."""
        names = [info.name for info in self.seats]
        state = self.game.new_state(names, seed=self.seed, options=self.state.options)
        room = Room(self.id, self.game, state, self.seats, self.seed, self.turn_timer)
        for entry in self.accepted[:steps]:
            room.accept(entry.seat, self.game.parse_action(entry.text), by_timeout=entry.by_timeout)
        return room
