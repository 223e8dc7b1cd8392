"""One game's authority in memory: who may act, with which version, and what happens then.

A :class:`Room` holds the engine state of one game and the counters that keep clients
honest. It does no I/O: the service persists an action before it calls :meth:`Room.accept`,
so the database never lags behind what anyone has been told.

Versions. Every accepted action increments ``version``. A client submits with the version
it last saw. A submission is fresh when nothing that could matter to it happened since:
its version is at least ``step_started``, the version at which the current decision step
began, and the seat has not moved itself since. At an ordinary step every action starts a
new step, so only the current version is fresh. At a sealed simultaneous step the other
seats' commitments do not start a new step (the seat cannot see them anyway), so two seats
that commit at once from the same version are both accepted; a seat's own moves inside the
step (Aton's exchange, an Egyptia builder's steps) do make its older versions stale; a seat
that has committed is no longer to move, so it cannot commit twice.

Undo. A seat may take back its own last move while its turn lasts, as on Board Game Arena:
never after another seat has acted, never once its turn has passed, and never when the move
showed anyone something hidden (a drawn card, a random draw, a card's identity). The last is
checked without any game-specific code: the move is replayed in worlds re-dealt for each
viewer, and if any viewer's observation after it differs between worlds, it revealed
something. An undo is a change like any other: it increments the version.

Private steps. Some moves show the other seats nothing, not even that they were made (a
builder's own steps inside Egyptia's sealed round; ``State.private_step``). A global counter
would let a seat count them, so every seat has its own version: the room's version less the
private moves of the other seats. Clients only ever see and send their seat's version. Undo
is refused at a table of several seats in such a game, since whether someone else has moved
since would change the answer; so undo and the others' private moves never meet, and a
seat's version grows with every change it can see, across undos and restarts alike.

Duplicates. A submission identical to an action the same seat had accepted after the
version it names is a retry (a double click, a resent request): it is answered as
already done instead of being applied again.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from karnak.core.errors import KarnakError
from karnak.core.rng import Rng
from karnak.i18n import N_, t

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.game import Game
    from karnak.core.record import GameRecord
    from karnak.core.state import State
    from karnak.server.timebank.clock import SeatClock, TimeControl

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


class UndoRefusedError(SubmitError):
    """The last move cannot be taken back (the message says why)."""


#: Worlds re-dealt per viewer when checking that a move revealed nothing.
UNDO_WORLDS = 4
#: Up to this many seats, the undo check looks through every seat's eyes.
UNDO_EVERY_VIEWER_UP_TO = 6
#: At a bigger table, a move within a sealed step is checked through the mover's eyes and
#: those of this many other seats, drawn anew for each move (see Room._undo_viewers).
UNDO_SAMPLED_VIEWERS = 3


def new_token() -> str:
    """An unguessable seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Departure:
    """How a person's seat passed to a bot (see karnak.server.timebank.abandonment): ``how``
    is "left" or "timeout", ``moves`` the number of accepted moves and ``log`` the number of
    log events when it happened (where the log tells it)."""

    how: str
    moves: int
    log: int


@dataclass(frozen=True)
class Ending:
    """How a game ended without its rules' finish (stored as the game's status, with a
    result that says why and no scores): ``how`` is the status ("expired": nobody moved for
    too long, karnak.server.expiry), ``reason`` the words shown to everyone. Such a game is
    over like a finished one (no move, no bot, no timer) and is never rated."""

    how: str
    reason: str

    #: The statuses of a game still played, or finished by its rules.
    PLAYED = ("running", "finished")

    @staticmethod
    def stored(status: str, result: dict[str, Any] | None) -> Ending | None:
        """The ending of a stored game's status and result (None: running or finished)."""
        if status in Ending.PLAYED:
            return None
        return Ending(status, str((result or {}).get("reason") or status))


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    kind: str  # HUMAN or BOT
    bot: str | None
    token_hash: str
    #: The account holding the seat (its session opens the game without the link), if any.
    account: int | None = None
    #: Set when the person left or ran out of time and a bot took the seat over (the seat
    #: is a bot's from then on: ``kind`` is BOT; its link and its account open nothing).
    left: Departure | None = None

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
    #: Seen by its seat only (see "Private steps" above).
    private: bool = False
    #: The mover's own version right after the move.
    seat_version: int = 0


@dataclass(frozen=True)
class Move:
    """A move worked out on a copy of the room's state and not applied yet (see
    :meth:`Room.prepare`): the position after it, and what the move is, decided once for
    both the write and :meth:`Room.accept`."""

    seat: int
    action: Action
    after: State
    #: Whether the current step goes on after it (see :meth:`Room.classify`).
    same_step: bool
    #: Whether nobody else sees it (see "Private steps" above).
    private: bool


def seal_clock() -> dt.datetime:
    """The time a game's seal is judged by (a test moves it to the next day)."""
    return dt.datetime.now(dt.UTC)


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
    #: The state before the last accepted action (for undo), when known.
    previous: State | None = field(default=None, repr=False)
    #: Private moves among ``accepted``: in all, and by seat.
    private_total: int = 0
    private_by: dict[int, int] = field(default_factory=dict, repr=False)
    #: The same counts when the current step started.
    step_private: tuple[int, dict[int, int]] = field(default=(0, {}), repr=False)
    _undo_answer: tuple[int, int, str | None] | None = field(default=None, repr=False)
    #: The game's time per move and bank, and each human seat's clock (karnak.server.timebank).
    time_control: TimeControl | None = None
    clocks: dict[int, SeatClock] = field(default_factory=dict, repr=False)
    #: When the current step began (seconds since the epoch, stored with the game): the turn
    #: timer's deadline is counted from it, the same in every server process. The service
    #: sets it; None until then (a game stored before it was kept).
    step_started_at: float | None = None
    #: Set when the game ended without its rules' finish (an idle game expired).
    ended: Ending | None = None
    #: Until when only the game's seats may look at it, and its record and replay stay
    #: closed (UTC; a game of the day's, until the day is over: karnak.server.daily).
    sealed_until: dt.datetime | None = None

    def take_over(self, other: Room) -> None:
        """Become ``other`` (the same game reloaded from the database), keeping this object:
        the sockets and tasks that hold it see the reloaded game."""
        self.__dict__.update(other.__dict__)

    def sealed(self, now: dt.datetime | None = None) -> bool:
        """Whether the game is still sealed (see ``sealed_until``) at ``now`` (default: now)."""
        if self.sealed_until is None:
            return False
        until = self.sealed_until
        if until.tzinfo is None:  # SQLite gives back naive times, all of them UTC
            until = until.replace(tzinfo=dt.UTC)
        return (now or seal_clock()) < until

    # ------------------------------------------------------------------ who is asking
    def seat_for_account(self, account: int | None) -> int | None:
        """The seat ``account`` holds in this game, or None."""
        if account is None:
            return None
        for info in self.seats:
            if info.account == account and info.left is None:  # a departed seat is a bot's
                return info.seat
        return None

    def departed(self) -> list[int]:
        """The seats whose person left or ran out of time (a bot plays them now)."""
        return [info.seat for info in self.seats if info.left is not None]

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat whose token this is, or None (a spectator or a wrong token)."""
        if not token:
            return None
        digest = hash_token(token)
        for info in self.seats:
            if secrets.compare_digest(info.token_hash, digest):
                return info.seat
        return None

    # ------------------------------------------------------------------ seat versions
    def version_for(self, seat: int | None) -> int:
        """The version ``seat`` (None: a spectator) knows the game at: the room's version
        less the private moves of the other seats."""
        hidden = self.private_total - (self.private_by.get(seat, 0) if seat is not None else 0)
        return self.version - hidden

    def step_version_for(self, seat: int | None) -> int:
        """``seat``'s version when the current step started."""
        total, by = self.step_private
        hidden = total - (by.get(seat, 0) if seat is not None else 0)
        return self.step_started - hidden

    def _start_step(self) -> None:
        self.step_started = self.version
        self.step_private = (self.private_total, dict(self.private_by))

    def _count_private(self, seat: int, change: int) -> None:
        self.private_total += change
        self.private_by[seat] = self.private_by.get(seat, 0) + change

    def bump(self, version: int) -> None:
        """A change without an action (a stored undo): a new step everyone sees."""
        self.version = version
        self._start_step()

    @property
    def is_over(self) -> bool:
        return self.ended is not None or self.state.is_over()

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
        mine = self.version_for(seat)
        if version > mine or version < 0:
            raise BadVersionError(
                t(
                    "version {version} does not exist; the game is at version {now}",
                    version=version,
                    now=mine,
                ),
                version=mine,
            )
        text = action.to_text()
        for earlier in reversed(self.accepted):
            if self.private_total == 0:  # everyone has seen every move: one numbering
                if earlier.version <= version:
                    break
            elif earlier.seat == seat and earlier.seat_version <= version:
                break
            if earlier.seat == seat and earlier.text == text:
                return earlier
        if self.is_over:
            raise GameOverError(t("the game is over"), version=mine)
        if version < self.step_version_for(seat):
            raise StaleVersionError(
                t(
                    "the game has moved on since version {version} (now {now}); look at the "
                    "new position and choose again",
                    version=version,
                    now=mine,
                ),
                version=mine,
            )
        movers = self.state.to_move()
        legal = self.state.legal_actions(seat)
        if seat not in movers and not legal:  # a waiting seat may have optional moves
            waiting = ", ".join(self.state.players[s] for s in movers)
            raise NotYourDecisionError(
                t(
                    "{name} has nothing to decide now; waiting for {waiting}",
                    name=self.state.players[seat],
                    waiting=waiting,
                ),
                version=mine,
            )
        own = self._own_move_since(seat, version)
        if own is not None:
            raise StaleVersionError(
                t(
                    "you moved after version {version} ({move}; now version {now}): look at "
                    "your new position and choose again",
                    version=version,
                    move=repr(own.text),
                    now=mine,
                ),
                version=mine,
            )
        if action not in legal:
            reason = self.state.explain_illegal(seat, action)
            raise IllegalMoveError(
                t("{move} is not allowed now: {reason}", move=repr(text), reason=reason),
                version=mine,
            )
        return None

    def prepare(self, seat: int, action: Action) -> Move:
        """``action`` of ``seat`` played on a copy of the state and classified, for an
        action :meth:`check` has accepted (its legality is not checked again here): the
        room does not change until :meth:`accept` is given the move."""
        after = self.state.clone()
        after.apply_unchecked(seat, action)
        same_step, private = self.classify(seat, after)
        return Move(seat, action, after, same_step, private)

    def classify(self, seat: int, after: State) -> tuple[bool, bool]:
        """What a move of ``seat`` turning the current state into ``after`` is: whether the
        step goes on (``same_step``) and whether the move is private (nobody else sees it).

        A sealed step goes on while only this seat's own part of it happened: its
        commitment, or a private step before it (Aton's exchange): the others' choices,
        made at an earlier version of the same step, stay valid.
        """
        before = self.state
        same_step = before.is_simultaneous() and _within_sealed_step(
            seat, set(before.to_move()), after
        )
        return same_step, same_step and after.private_step(seat, before)

    def _own_move_since(self, seat: int, version: int) -> Accepted | None:
        """``seat``'s own move of the current step made after it saw ``version``, if any.

        Within a sealed step the others' moves leave a seat's choice valid, but its own do
        not: after Aton's exchange, or a step of an Egyptia builder's round, the seat's
        cards or sheet are new, so a move chosen before is stale like any other.
        """
        for entry in reversed(self.accepted):
            if entry.version <= self.step_started:
                return None
            if entry.seat == seat:
                return entry if entry.seat_version > version else None
        return None

    def accept(
        self,
        seat: int,
        action: Action,
        *,
        by_timeout: bool = False,
        version: int | None = None,
        move: Move | None = None,
    ) -> Accepted:
        """Apply an action and advance the counters.

        ``version`` restores a stored game whose versions skip numbers (after an undo).
        ``move`` is the action already worked out by :meth:`prepare` (after :meth:`check`),
        so it is neither applied nor classified twice; without it the action is applied
        through the engine's checked path (a stored game replayed) and classified here.
        """
        previous = self.state
        if move is None:
            after = previous.clone()
            after.apply(seat, action)
            same_step, private = self.classify(seat, after)
        else:
            if (move.seat, move.action) != (seat, action):
                raise ValueError("the move prepared is not the one accepted")
            after, same_step, private = move.after, move.same_step, move.private
        self.state = after
        self.previous = previous
        self.version = self.version + 1 if version is None else version
        if private:
            self._count_private(seat, 1)
        if not same_step:
            self._start_step()
        entry = Accepted(
            len(self.accepted),
            self.version,
            seat,
            action.to_text(),
            by_timeout,
            private,
            self.version_for(seat),
        )
        self.accepted.append(entry)
        return entry

    # ------------------------------------------------------------------ undo
    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back the last move now; None when it may."""
        cached = self._undo_answer
        if cached is not None and cached[:2] == (self.version, seat):
            return cached[2]
        answer = self._undo_refusal(seat)
        self._undo_answer = (self.version, seat, answer)
        return answer

    def _undo_refusal(self, seat: int) -> str | None:
        if self.game.private_steps and len(self.seats) > 1:
            return N_(
                "moves cannot be taken back in a game where the others decide in private "
                "at the same time"
            )
        if not self.accepted:
            return N_("there is no move to take back")
        last = self.accepted[-1]
        if last.seat != seat:
            return N_("only your own last move can be taken back, and the last move was not yours")
        if any(i.left is not None and i.left.moves >= len(self.accepted) for i in self.seats):
            return N_("a player has left the game since")  # a change everyone saw, like a move
        if last.by_timeout:
            return N_("a move the server played when the timer ran out cannot be taken back")
        if self.is_over:
            return N_("the game is over")
        before = self._state_before_last()
        after = self.state
        action = self.game.parse_action(last.text)
        same_turn = seat in after.to_move() or (
            before.is_simultaneous()
            and after.is_simultaneous()
            and set(after.to_move()) == set(before.to_move()) - {seat}
        )
        if not same_turn:
            return N_("your turn has passed")
        for viewer in self._undo_viewers(seat, before, after):
            seen = after.observation(viewer)
            for k in range(UNDO_WORLDS):
                world = before.resample(viewer, Rng(k), history=False)
                if action not in world.legal_actions(seat):
                    return N_("the move depended on cards another player cannot see")
                world.apply_unchecked(seat, action)
                if world.observation(viewer) != seen:
                    return "the move revealed hidden information or a random draw"
        return None

    def _undo_viewers(self, seat: int, before: State, after: State) -> list[int]:
        """Through whose eyes the undo check looks: every seat's, but at a big table (where
        each look costs an observation of the whole table) for a move within a sealed step:
        the mover's and a few other seats', drawn anew for each move. No shipped game
        reaches the sampling today: Amun-Re and Aton have at most 5 seats, and Egyptia
        tables of several refuse undo before the check (private steps); it serves a big
        sealed game without private steps.

        Within a sealed step the room already holds that a seat's own moves show the
        others nothing: their choices made earlier in the step stay valid (see
        :meth:`accept`), and each game's non-interference tests check it. What such a move
        can show is the mover's own information (Aton's exchange draws cards), so the
        mover is always checked in full. A move that ends a step, or any move of a game
        that is not sealed, is checked through every seat's eyes, as at a small table.
        """
        count = len(self.seats)
        if count <= UNDO_EVERY_VIEWER_UP_TO:
            return list(range(count))
        everyone = [seat, *(v for v in range(count) if v != seat)]
        if not (
            before.is_simultaneous() and _within_sealed_step(seat, set(before.to_move()), after)
        ):
            return everyone
        others = everyone[1:]
        rng = Rng(self.seed * 1_000_003 + self.version)
        sample = []
        for _ in range(min(UNDO_SAMPLED_VIEWERS, len(others))):
            sample.append(others.pop(rng.below(len(others))))
        return [seat, *sorted(sample)]

    def _state_before_last(self) -> State:
        if self.previous is None:
            self.previous = self.replayed(len(self.accepted) - 1).state
        return self.previous

    def undo(self) -> Accepted:
        """Remove the last move (after :meth:`undo_refusal` said yes); a new version."""
        self.state = self._state_before_last()
        self.previous = None
        last = self.accepted.pop()
        if last.private:
            self._count_private(last.seat, -1)
        self.version += 1
        self._start_step()
        return last

    def record(self) -> GameRecord:
        return self.state.record()

    def copy(self) -> Room:
        """A copy that accepting moves on leaves this room as it is. The states are shared:
        a room never changes a state in place (:meth:`accept` plays on a clone)."""
        total, by = self.step_private
        return dataclasses.replace(
            self,
            accepted=list(self.accepted),
            private_by=dict(self.private_by),
            step_private=(total, dict(by)),
            clocks=dict(self.clocks),
            _undo_answer=None,
        )

    def replayed(self, steps: int, start: Room | None = None) -> Room:
        """A copy of this room after its first ``steps`` accepted actions (for replays).

        ``start``: such a copy after fewer of them (a replay's snapshot, see
        karnak.server.replays), played on from there instead of from the first move; it is
        left as it is."""
        if start is None:
            names = [info.name for info in self.seats]
            state = self.game.new_state(names, seed=self.seed, options=self.state.options)
            room = Room(self.id, self.game, state, self.seats, self.seed, self.turn_timer)
        else:
            if len(start.accepted) > steps:
                raise ValueError(f"a copy after {len(start.accepted)} moves is past {steps}")
            room = start.copy()
        for entry in self.accepted[len(room.accepted) : steps]:
            room.accept(
                entry.seat,
                self.game.parse_action(entry.text),
                by_timeout=entry.by_timeout,
                version=entry.version,
            )
        return room


def _within_sealed_step(seat: int, movers_before: set[int], after: State) -> bool:
    """Whether a move of ``seat`` at a sealed step left the step going: only the seat's own
    part of it happened (its commitment, or a private step before it), so the seats still
    to decide are those of before, with or without the seat."""
    if not after.is_simultaneous():
        return False
    movers_after = set(after.to_move())
    return movers_before - {seat} <= movers_after <= movers_before
