"""Open tables: games that wait for their players, the rematch, and starting them.

A table is a game not started yet: its game, options and turn timer, and its seats, each
open (perhaps reserved for an invited account), taken (by an account, or by a guest under
a name) or a bot. How it goes, and why:

- **Who acts.** A logged-in person acts with their session (a write carries the CSRF token);
  a guest with a *ticket*, a secret the server gives out when the guest creates a table or
  joins one. A guest's ticket becomes their seat's secret token when the game starts, so
  the seat's link is ``/games/<id>?token=<ticket>``: the server never stores a secret it
  would have to give back later, only the ticket's hash, which becomes the seat's.
- **Creating.** Seats are ``human`` (the creator's own, one at most: an account's under its
  name, a guest's under the name given), ``open`` (optionally reserved at once for an
  account by name) and ``bot`` (a level, easy to master, or a bot spec). The creator may
  fill the remaining seats with bots (any time), invite and withdraw invitations, and cancel
  the table; a table with no open seat starts at once.
- **Joining.** With a session the seat becomes the account's (the game's seat then belongs
  to it: its session opens the game without a link); a guest gives a name, which must not
  be an account's (nobody plays under another's name) nor taken at the table. An invited
  account joins its reserved seat; nobody else can take it. A joiner may leave before the
  start; an invited account that leaves without sitting declines the invitation.
- **Starting.** When the last open seat is taken, or the creator fills the rest with bots,
  the game is created through GameService.create (the accounts' seats bound to them, the
  guests' seats to their tickets); the accounts seated are told (kind ``table``), but not
  the one whose action started it, who sees it at once. The table leaves the public list
  and its row stays as a pointer to its game (a guest's ticket leads there; a rematch asked
  again finds it).
- **Bounds.** Seats as the game allows (Egyptia up to 99); names as a seat's name
  (karnak.server.inputs); one account, or one guest's address, creates or sits at
  ``open_tables_per_client`` open tables at most (ServerSettings; 422 beyond); the server
  holds :data:`MAX_OPEN_TABLES` open tables at most (429 beyond); a table not started
  :data:`TABLE_LIFETIME` after its creation expires (it is deleted, and its invitations
  lead nowhere); a table sends at most :data:`INVITATIONS_PER_SEAT` invitations a seat
  (re-inviting the same account to the same seat sends nothing). Creating, joining and a
  rematch count as game creations of the client (``creates_per_minute``); the other writes
  as moves (``moves_per_minute``).
- **Rematch.** From a finished game, any seat holder (by its link or its session) asks for
  the same table again: the same game, options and timer, every seat moved on by one (seat
  1 to seat 2, the last to seat 1), the bots in their new seats, the accounts invited to
  theirs (kind ``invitation``), the guests' seats open. Whoever asks is its creator and
  takes their own new seat (a guest under the same name, with a new ticket). A game has one
  rematch: asking again (anyone) returns the same table, and takes the asker's new seat
  when it is still free for them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from karnak.bots.base import make_bot
from karnak.bots.levels import is_level, level_spec
from karnak.core.errors import KarnakError
from karnak.core.game import Game
from karnak.core.registry import get_game
from karnak.i18n import N_, _, t, use_language
from karnak.server.bot_limits import check_bots
from karnak.server.bot_names import default_bot_names
from karnak.server.capacity import Creator
from karnak.server.cluster.mutex import ClusterMutex
from karnak.server.db import utcnow
from karnak.server.http_limits import client_key
from karnak.server.limits import LimitError
from karnak.server.notifications import bounds
from karnak.server.notifications.bounds import Sender
from karnak.server.notifications.service import account_language
from karnak.server.rooms import BOT, HUMAN, hash_token, new_token
from karnak.server.service import DEFAULT_LEVEL, MAX_TURN_TIMER, SeatRequest
from karnak.server.tables.store import (
    OPEN,
    SEAT_ACCOUNT,
    SEAT_BOT,
    SEAT_GUEST,
    STARTED,
    Table,
    TableSeat,
    TableStore,
)
from karnak.server.tables.turns import TurnWatcher, names
from karnak.server.timebank.clock import TimeControlError, control_of

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.accounts.service import AccountService
    from karnak.server.accounts.store import Account
    from karnak.server.executor import DatabaseExecutor
    from karnak.server.notifications.service import Notifier
    from karnak.server.rooms import Room
    from karnak.server.service import GameService

T = TypeVar("T")

#: How long a table waits for its players before it expires (seconds).
TABLE_LIFETIME = 24 * 3600.0
#: Open tables on the server at once.
MAX_OPEN_TABLES = 1000
#: When a full server may be asked again (seconds).
FULL_RETRY_AFTER = 60.0
#: Invitations one table may send, per seat.
INVITATIONS_PER_SEAT = 2
#: Expired tables are looked for at most this often (seconds).
SWEEP_EVERY = 5.0
SWEEP_INTERVAL = dt.timedelta(seconds=SWEEP_EVERY)
#: Open tables listed at most (the public list, one account's).
MAX_LISTED = 200
#: A new table's id: as long as a game's.
ID_BYTES = 9

#: What a table's seat may be asked to be at creation.
WISH_HUMAN, WISH_OPEN, WISH_BOT = "human", "open", "bot"


class TableError(KarnakError):
    """A table request that cannot be met now (taken, started, not yours...)."""

    status = 409


class NoTableError(TableError, LookupError):
    status = 404


class NotYoursError(TableError, PermissionError):
    status = 403


class TableInputError(TableError, ValueError):
    status = 422


NO_TABLE = N_("there is no table with this id (it may have been cancelled, or it expired)")


@dataclass(frozen=True)
class Actor:
    """Who is asking: an account (by its session), a guest's ticket (its hash), and the
    hash of the client's address (a guest's tables are counted by it)."""

    account: Account | None = None
    ticket_hash: str | None = None
    client: str = ""

    @property
    def account_id(self) -> int | None:
        return None if self.account is None else self.account.id


def sender_of(actor: Actor) -> Sender:
    """Who an actor is to the notification bounds: their account, else their address."""
    return Sender(actor.account_id, actor.client)


def client_hash(host: str | None) -> str:
    """The hash of a client's address as the rate limits count it (no address is stored)."""
    return hashlib.sha256(client_key(host).encode()).hexdigest()


@dataclass(frozen=True)
class SeatWish:
    """A seat as the creator asks for it."""

    kind: str
    name: str | None = None
    bot: str | None = None
    #: An open seat reserved for the account of this name.
    invite: str | None = None


@dataclass(frozen=True)
class Outcome:
    table: Table
    #: A guest's new ticket (shown once: it is their seat's link once the game starts).
    ticket: str | None = None
    #: Whether this request made the table (a rematch asked again finds it made).
    created: bool = False


@dataclass(frozen=True)
class Role:
    """What the asker is at a table."""

    creator: bool
    seat: int | None
    invited_seat: int | None


def seat_of(table: Table, actor: Actor) -> int | None:
    for seat in table.seats:
        if seat.kind == SEAT_ACCOUNT and actor.account_id is not None:
            if seat.account == actor.account_id:
                return seat.seat
        elif (
            seat.kind == SEAT_GUEST
            and actor.ticket_hash is not None
            and secrets.compare_digest(seat.ticket_hash or "", actor.ticket_hash)
        ):
            return seat.seat
    return None


def is_creator(table: Table, actor: Actor) -> bool:
    if actor.account_id is not None:
        return table.creator_account == actor.account_id
    if actor.ticket_hash is not None and table.creator_ticket_hash is not None:
        return secrets.compare_digest(table.creator_ticket_hash, actor.ticket_hash)
    return False


def invited_seat(table: Table, actor: Actor) -> int | None:
    if actor.account_id is None:
        return None
    for seat in table.seats:
        if seat.is_open and seat.invited == actor.account_id:
            return seat.seat
    return None


def role(table: Table, actor: Actor) -> Role:
    return Role(is_creator(table, actor), seat_of(table, actor), invited_seat(table, actor))


def with_seat(table: Table, seat: TableSeat) -> Table:
    seats = list(table.seats)
    seats[seat.seat] = seat
    return dataclasses.replace(table, seats=seats)


def taken_names(table: Table) -> set[str]:
    return {seat.name.casefold() for seat in table.seats if seat.name and not seat.is_open}


def unique_name(wanted: str, used: set[str]) -> str:
    """``wanted``, or the first of "wanted (bot)", "wanted 2"... that nobody has."""
    for candidate in (wanted, f"{wanted} (bot)", *(f"{wanted} {n}" for n in range(2, 200))):
        if candidate.casefold() not in used and len(candidate) <= 40:
            used.add(candidate.casefold())
            return candidate
    raise TableInputError(_("no free name for a bot"))  # pragma: no cover - 200 tries


@dataclass
class Letters:
    """Notifications to send once the table's lock is released; ``sender``: the person
    whose action they follow, if they count against what that person may cause others to be
    told (karnak.server.notifications.bounds: a block or a bound drops them)."""

    sent: list[tuple[int, str, str | Callable[[], str], str | None]] = dataclasses.field(
        default_factory=list
    )
    sender: Sender | None = None

    def add(self, account: int, kind: str, text: str | Callable[[], str], link: str | None) -> None:
        """``text``: the words, or a function that writes them in the current language
        (called in the reader's: its account's setting)."""
        self.sent.append((account, kind, text, link))


class TableService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        games: GameService,
        accounts: AccountService,
        notifier: Notifier,
    ) -> None:
        self.store = TableStore(engine)
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.games = games
        self.accounts = accounts
        self.notifier = notifier
        self.settings = games.settings
        #: Bounds (tests shrink them).
        self.lifetime = TABLE_LIFETIME
        self.max_open = MAX_OPEN_TABLES
        #: What time it is for the tables: when one is created, started, expires, and when
        #: the expired are next looked for. Tests put a fake clock here instead of waiting.
        self.clock: Callable[[], dt.datetime] = utcnow
        #: Whose turn it is, for the accounts (turn notifications, "my games" order).
        self.turns = TurnWatcher(games, notifier)
        #: Every change of a table happens under this lock, one after the other (tables
        #: change seldom; one lock keeps the per-client counts exact too). It holds across
        #: every server process (karnak.server.cluster.mutex).
        self._mutex = ClusterMutex(engine, executor, "tables")
        self._swept: dt.datetime | None = None

    async def _db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call in the database threads (the event loop never waits on disk)."""
        return await self.executor.run(call, *args)

    # ------------------------------------------------------------------ reading
    def expires_at(self, table: Table) -> dt.datetime | None:
        if table.status != OPEN:
            return None
        return table.created_at + dt.timedelta(seconds=self.lifetime)

    def _alive(self, table: Table) -> bool:
        expires = self.expires_at(table)
        return expires is None or expires > self.clock()

    async def _sweep(self) -> None:
        """Delete the expired tables (at most every few seconds)."""
        now = self.clock()
        if self._swept is not None and self._swept <= now < self._swept + SWEEP_INTERVAL:
            return
        self._swept = now
        await self._db(self.store.expire, now - dt.timedelta(seconds=self.lifetime))

    async def table(self, table_id: str) -> Table:
        """The table, open or started; NoTableError if there is none (or it expired)."""
        await self._sweep()
        found = await self._db(self.store.load, table_id)
        if found is None or not self._alive(found):
            raise NoTableError(_(NO_TABLE))
        return found

    async def listed(self, limit: int) -> list[Table]:
        """The open tables, newest first."""
        await self._sweep()
        return [t for t in await self._db(self.store.open_tables, limit) if self._alive(t)]

    async def tables_of(self, account: int) -> list[Table]:
        """The open tables an account created, sits at or is invited to."""
        await self._sweep()
        found = await self._db(self.store.tables_of, account, MAX_LISTED)
        return [t for t in found if self._alive(t)]

    def check_ticket(self, table: Table, actor: Actor) -> None:
        """A ticket must belong to someone at the table (its creator or a guest's seat)."""
        if actor.ticket_hash is None:
            return
        if seat_of(table, actor) is None and not is_creator(table, actor):
            raise NotYoursError(_("this ticket belongs to nobody at this table"))

    # ------------------------------------------------------------------ creating
    async def create(
        self,
        actor: Actor,
        game_name: str,
        wishes: Sequence[SeatWish],
        options: Mapping[str, Any] | None = None,
        turn_timer: float | None = None,
        time_control: Mapping[str, float] | None = None,
    ) -> Outcome:
        """A new table. ``time_control`` ({"per_move": s, "bank": s}) is the time bank its
        game will have; checked now, so that a table never fails to start over it."""
        game = get_game(game_name)
        game.check_player_count(len(wishes))
        resolved = game.resolve_options(options or {})
        if turn_timer is not None and not 1 <= turn_timer <= MAX_TURN_TIMER:
            raise TableInputError(
                t(
                    "a turn timer is between 1 second and {most} seconds",
                    most=format(MAX_TURN_TIMER, "g"),
                )
            )
        try:
            control = control_of(time_control)
        except TimeControlError as exc:
            raise TableInputError(str(exc)) from exc
        if control is not None and turn_timer is not None:
            raise TableInputError(_("a game has a turn timer or a time bank, not both"))
        kinds = [wish.kind for wish in wishes]
        if kinds.count(WISH_HUMAN) > 1:
            raise TableInputError(
                _(
                    "at a table, a 'human' seat is your own (one at most): the others are "
                    "'open' (for anyone, or for an invited account) or 'bot'"
                )
            )
        ticket = new_token() if actor.account is None else None
        ticket_hash = hash_token(ticket) if ticket is not None else None
        defaults = game.seat_names(len(wishes))
        bots = kinds.count(WISH_BOT)
        seats: list[TableSeat] = []
        invited: set[int] = set()
        for index, wish in enumerate(wishes):
            name = (wish.name or "").strip() or None
            if wish.kind == WISH_HUMAN:
                if actor.account is not None:
                    seat = TableSeat(
                        index, SEAT_ACCOUNT, name=actor.account.name, account=actor.account.id
                    )
                else:
                    if name is not None:
                        await self._check_guest_name(name)
                    seat = TableSeat(
                        index,
                        SEAT_GUEST,
                        name=name or defaults[index],
                        ticket_hash=ticket_hash,
                        client=actor.client,
                    )
            elif wish.kind == WISH_BOT:
                seat = TableSeat(
                    index, SEAT_BOT, name=name, bot=self.bot_spec(game, wish.bot, bots)
                )
            elif wish.kind == WISH_OPEN:
                seat = TableSeat(index)
                if wish.invite:
                    account = await self._invitee(wish.invite)
                    if account.id == actor.account_id or account.id in invited:
                        raise TableInputError(
                            t(
                                "seat {seat}: {name} has a seat at this table already",
                                seat=index + 1,
                                name=account.name,
                            )
                        )
                    await self.notifier.check(sender_of(actor), account.id, bounds.INVITE)
                    invited.add(account.id)
                    seat = TableSeat(index, invited=account.id, invited_name=account.name)
            else:
                raise TableInputError(
                    t("seat {seat}: a seat is 'human', 'open' or 'bot'", seat=index + 1)
                )
            seats.append(seat)
        used: set[str] = set()
        for seat in seats:
            if seat.name:
                if seat.name.casefold() in used:
                    raise TableInputError(
                        t("two seats are named {name}; names must differ", name=repr(seat.name))
                    )
                used.add(seat.name.casefold())
        check_bots([seat.bot for seat in seats], game, self.settings)  # LimitError
        table = Table(
            id=secrets.token_urlsafe(ID_BYTES),
            game=game.name,
            options=resolved,
            turn_timer=turn_timer,
            seats=seats,
            time_control=control.to_json() if control is not None else None,
            creator_account=actor.account_id,
            creator_ticket_hash=ticket_hash,
            creator_client=actor.client,
            created_at=self.clock(),
        )
        letters = Letters(sender=sender_of(actor))
        async with self._mutex.hold():
            await self._check_held(actor)
            await self._check_capacity()
            table = await self._insert(table, actor, letters)
            self._invite_letters(table, seats, self._inviter(actor, table), letters)
        await self._send(letters)
        return Outcome(table, ticket, created=True)

    async def _insert(self, table: Table, actor: Actor, letters: Letters) -> Table:
        """Store a new table; one without open seats starts at once."""
        if any(seat.is_open for seat in table.seats):
            await self._db(self.store.insert, table)
            return table
        started = await self._start(table)
        await self._db(self.store.insert, started)
        self._started_letters(started, actor, letters)
        return started

    def bot_spec(self, game: Game, wanted: str | None, bots: int) -> str:
        """A bot's spec from a level (easy to master: the spec it is at a table of ``bots``
        bot seats on this server), a spec, or nothing (the default level, Medium)."""
        limits = {
            "max_think": self.settings.max_think,
            "max_game_think": self.settings.max_game_think,
        }
        text = (wanted or "").strip().lower() or DEFAULT_LEVEL  # Medium, not the strongest
        if is_level(text):
            return level_spec(text, game, max(1, bots), **limits)
        make_bot(text, game)  # a bad name or budget is refused here, with the list
        return text

    async def _check_guest_name(self, name: str) -> None:
        """A guest's name must not be, nor look like, an account's (look-alikes compared
        as account names are: karnak.server.accounts.names)."""
        if await self.accounts.look_alike(name) is not None:
            raise TableInputError(
                t(
                    "the name {name} belongs to an account, or looks like an account's: log "
                    "in to play under it, or choose another name",
                    name=repr(name),
                )
            )

    async def _invitee(self, name: str) -> Account:
        account = await self.accounts.by_name(name)
        if account is None:
            raise TableInputError(t("there is no account named {name}", name=repr(name)))
        return account

    async def _check_held(self, actor: Actor) -> None:
        held = await self._db(self.store.held, actor.account_id, actor.client)
        most = self.settings.open_tables_per_client
        if held >= most:
            template = (
                N_(
                    "you hold {held} open tables already, the most one account may ({most}, "
                    "open_tables_per_client): cancel or leave one, or wait for one to start"
                )
                if actor.account is not None
                else N_(
                    "you hold {held} open tables already, the most one address may ({most}, "
                    "open_tables_per_client): cancel or leave one, or wait for one to start"
                )
            )
            raise LimitError(t(template, held=held, most=most))

    async def _check_capacity(self) -> None:
        count = await self._db(self.store.open_count)
        if count >= self.max_open:
            raise LimitError(
                t(
                    "this server holds {count} open tables, its most ({most}); join one of "
                    "them, or try again later",
                    count=count,
                    most=self.max_open,
                ),
                status=429,
                retry_after=FULL_RETRY_AFTER,
            )

    # ------------------------------------------------------------------ joining, leaving
    async def join(
        self, actor: Actor, table_id: str, seat: int | None = None, name: str | None = None
    ) -> Outcome:
        letters = Letters()
        async with self._mutex.hold():
            table = await self._open_table(table_id, actor)
            mine = seat_of(table, actor)
            if mine is not None:
                raise TableError(t("you sit at this table already (seat {seat})", seat=mine + 1))
            target = self._seat_to_take(table, actor, seat)
            ticket = None
            if actor.account is not None:
                taken = TableSeat(
                    target, SEAT_ACCOUNT, name=actor.account.name, account=actor.account.id
                )
            else:
                shown = (name or "").strip()
                if not shown:
                    raise TableInputError(_("a guest joins with a name (or logs in first)"))
                await self._check_guest_name(shown)
                ticket_hash = actor.ticket_hash  # the creator's own ticket, if so
                if ticket_hash is None:
                    ticket = new_token()
                    ticket_hash = hash_token(ticket)
                taken = TableSeat(
                    target, SEAT_GUEST, name=shown, ticket_hash=ticket_hash, client=actor.client
                )
            assert taken.name is not None
            if taken.name.casefold() in taken_names(table):
                raise TableError(t("the name {name} is taken at this table", name=repr(taken.name)))
            if not is_creator(table, actor):
                await self._check_held(actor)
            table = self._drop_reservations(table, actor.account_id)
            table = await self._save_or_start(with_seat(table, taken), actor, letters)
        await self._send(letters)
        return Outcome(table, ticket)

    def _seat_to_take(self, table: Table, actor: Actor, wanted: int | None) -> int:
        if wanted is not None:
            if not 0 <= wanted < len(table.seats):
                raise TableInputError(
                    t("this table has seats 0 to {last}", last=len(table.seats) - 1)
                )
            chosen = table.seats[wanted]
            if not chosen.is_open:
                raise TableError(t("seat {seat} is taken", seat=wanted + 1))
            if chosen.invited is not None and chosen.invited != actor.account_id:
                raise TableError(t("seat {seat} is kept for an invited player", seat=wanted + 1))
            return wanted
        reserved = invited_seat(table, actor)
        if reserved is not None:
            return reserved
        for seat in table.seats:
            if seat.is_open and seat.invited is None:
                return seat.seat
        raise TableError(
            _("no seat is open at this table (the seats left are kept for invited players)")
        )

    @staticmethod
    def _drop_reservations(table: Table, account: int | None) -> Table:
        """An account that sits down is no longer waited for on another seat."""
        if account is None:
            return table
        return dataclasses.replace(
            table,
            seats=[
                dataclasses.replace(s, invited=None, invited_name=None)
                if s.is_open and s.invited == account
                else s
                for s in table.seats
            ],
        )

    async def leave(self, actor: Actor, table_id: str) -> Table:
        """Leave one's seat before the start (an invited account declines its seat)."""
        async with self._mutex.hold():
            table = await self._open_table(table_id, actor)
            mine = seat_of(table, actor)
            reserved = invited_seat(table, actor)
            if mine is not None:
                table = with_seat(table, TableSeat(mine))
            elif reserved is not None:
                table = with_seat(table, TableSeat(reserved))
            else:
                raise TableError(_("you have no seat at this table"))
            await self._db(self.store.save, table)
        return table

    async def _open_table(self, table_id: str, actor: Actor) -> Table:
        table = await self.table(table_id)
        self.check_ticket(table, actor)
        if table.status != OPEN:
            raise TableError(
                t(
                    "this table has started: its game is {address}",
                    address="/games/" + str(table.game_id),
                )
            )
        return table

    # ------------------------------------------------------------------ the creator's
    async def _creators_table(self, table_id: str, actor: Actor, refusal: str) -> Table:
        table = await self._open_table(table_id, actor)
        if not is_creator(table, actor):
            raise NotYoursError(_(refusal))
        return table

    async def fill(self, actor: Actor, table_id: str, bot: str | None = None) -> Table:
        """Fill every open seat with a bot (``bot``: a level or spec) and start."""
        letters = Letters()
        async with self._mutex.hold():
            table = await self._creators_table(
                table_id, actor, N_("only the table's creator may fill it with bots")
            )
            game = get_game(table.game)
            bots = sum(1 for s in table.seats if s.kind == SEAT_BOT or s.is_open)
            spec = self.bot_spec(game, bot, bots)
            filled = dataclasses.replace(
                table,
                seats=[
                    TableSeat(s.seat, SEAT_BOT, bot=spec) if s.is_open else s for s in table.seats
                ],
            )
            table = await self._save_or_start(filled, actor, letters)
        await self._send(letters)
        return table

    async def cancel(self, actor: Actor, table_id: str) -> None:
        letters = Letters()
        async with self._mutex.hold():
            table = await self._creators_table(
                table_id, actor, N_("only the table's creator may cancel it")
            )
            await self._db(self.store.delete, table.id)
            title = get_game(table.game).title
            for seat in table.seats:
                account = seat.account if seat.kind == SEAT_ACCOUNT else seat.invited
                if account is not None and account != actor.account_id:
                    letters.add(account, "table", f"The table of {title} was cancelled.", None)
        await self._send(letters)

    async def invite(self, actor: Actor, table_id: str, seat: int, name: str) -> Table:
        """Keep an open seat for the account of ``name``, and tell it (unless it blocked
        the asker, or the asker reached a bound of what they may notify it: refused)."""
        letters = Letters(sender=sender_of(actor))
        async with self._mutex.hold():
            table = await self._creators_table(
                table_id, actor, N_("only the table's creator may invite")
            )
            if not 0 <= seat < len(table.seats):
                raise TableInputError(
                    t("this table has seats 0 to {last}", last=len(table.seats) - 1)
                )
            if not table.seats[seat].is_open:
                raise TableError(t("seat {seat} is taken", seat=seat + 1))
            account = await self._invitee(name)
            if account.id == actor.account_id or any(
                s.kind == SEAT_ACCOUNT and s.account == account.id for s in table.seats
            ):
                raise TableError(t("{name} has a seat at this table already", name=account.name))
            if table.seats[seat].invited == account.id:
                return table  # kept for them already: nothing new to tell
            await self.notifier.check(sender_of(actor), account.id, bounds.INVITE)
            sent = await self._db(self.store.invitations_sent, table.id)
            if sent >= INVITATIONS_PER_SEAT * len(table.seats):
                raise LimitError(
                    t(
                        "this table has sent {sent} invitations, its most ({most} a seat)",
                        sent=sent,
                        most=INVITATIONS_PER_SEAT,
                    )
                )
            table = self._drop_reservations(table, account.id)
            reserved = TableSeat(seat, invited=account.id, invited_name=account.name)
            table = with_seat(table, reserved)
            await self._db(self.store.save, table)
            self._invite_letters(table, [reserved], self._inviter(actor, table), letters)
        await self._send(letters)
        return table

    async def withdraw(self, actor: Actor, table_id: str, seat: int) -> Table:
        """Open a reserved seat to anyone again."""
        async with self._mutex.hold():
            table = await self._creators_table(
                table_id, actor, N_("only the table's creator may withdraw an invitation")
            )
            if not 0 <= seat < len(table.seats):
                raise TableInputError(
                    t("this table has seats 0 to {last}", last=len(table.seats) - 1)
                )
            if not table.seats[seat].is_open or table.seats[seat].invited is None:
                raise TableError(t("seat {seat} is kept for nobody", seat=seat + 1))
            table = with_seat(table, TableSeat(seat))
            await self._db(self.store.save, table)
        return table

    # ------------------------------------------------------------------ rematch
    async def rematch(self, room: Room, seat: int, actor: Actor) -> Outcome:
        """The rematch of a finished game, asked for by the holder of ``seat``."""
        if not room.is_over:
            raise TableError(_("a rematch can be asked for once the game is over"))
        letters = Letters(sender=sender_of(actor))
        async with self._mutex.hold():
            await self._sweep()
            existing = await self._db(self.store.by_rematch, room.id)
            if existing is not None and not self._alive(existing):
                await self._db(self.store.delete, existing.id)
                existing = None
            if existing is not None:
                outcome = await self._rematch_seat(existing, room, seat, actor, letters)
            else:
                outcome = await self._new_rematch(room, seat, actor, letters)
        await self._send(letters)
        return outcome

    async def _new_rematch(self, room: Room, asker: int, actor: Actor, letters: Letters) -> Outcome:
        count = len(room.seats)
        ticket = new_token() if actor.account is None else None
        ticket_hash = hash_token(ticket) if ticket is not None else None
        seats: list[TableSeat] = [TableSeat(n) for n in range(count)]
        for info in room.seats:
            to = (info.seat + 1) % count
            if info.is_bot:
                seats[to] = TableSeat(to, SEAT_BOT, name=info.name, bot=info.bot)
            elif (
                info.seat == asker
                and actor.account is not None
                and info.account == actor.account_id
            ):
                seats[to] = TableSeat(
                    to, SEAT_ACCOUNT, name=actor.account.name, account=actor.account.id
                )
            elif info.seat == asker and actor.account is None and info.account is None:
                seats[to] = TableSeat(
                    to, SEAT_GUEST, name=info.name, ticket_hash=ticket_hash, client=actor.client
                )
            elif info.account is not None:
                found = await self.accounts.account(info.account)
                # one who blocked the asker (or was notified by them enough) is not
                # invited: their seat stays open to anyone
                if found is not None and await self.notifier.may_notify(sender_of(actor), found.id):
                    seats[to] = TableSeat(to, invited=found.id, invited_name=found.name)
        table = Table(
            id=secrets.token_urlsafe(ID_BYTES),
            game=room.game.name,
            options=dict(room.state.options),
            turn_timer=room.turn_timer,
            seats=seats,
            time_control=room.time_control.to_json() if room.time_control else None,
            creator_account=actor.account_id,
            creator_ticket_hash=ticket_hash,
            creator_client=actor.client,
            rematch_of=room.id,
            created_at=self.clock(),
        )
        await self._check_held(actor)
        await self._check_capacity()
        inviter = self._inviter(actor, table, fallback=room.seats[asker].name)
        table = await self._insert(table, actor, letters)
        self._invite_letters(table, seats, inviter, letters, rematch=True)
        return Outcome(table, ticket, created=True)

    async def _rematch_seat(
        self, table: Table, room: Room, asker: int, actor: Actor, letters: Letters
    ) -> Outcome:
        """Asked again: the same table, and the asker's new seat if it is still free for
        them."""
        if table.status != OPEN or seat_of(table, actor) is not None:
            return Outcome(table)
        info = room.seats[asker]
        target = table.seats[(asker + 1) % len(table.seats)]
        ticket = None
        if actor.account is not None and target.is_open and target.invited == actor.account_id:
            taken = TableSeat(
                target.seat, SEAT_ACCOUNT, name=actor.account.name, account=actor.account.id
            )
        elif (
            actor.account is None
            and info.account is None
            and target.is_open
            and target.invited is None
            and info.name.casefold() not in taken_names(table)
        ):
            ticket = new_token()
            taken = TableSeat(
                target.seat,
                SEAT_GUEST,
                name=info.name,
                ticket_hash=hash_token(ticket),
                client=actor.client,
            )
        else:
            return Outcome(table)
        await self._check_held(actor)
        table = self._drop_reservations(table, actor.account_id)
        table = await self._save_or_start(with_seat(table, taken), actor, letters)
        return Outcome(table, ticket)

    # ------------------------------------------------------------------ starting
    async def _save_or_start(self, table: Table, actor: Actor, letters: Letters) -> Table:
        """Store the table; when no seat is open any more, start its game first."""
        if any(seat.is_open for seat in table.seats):
            await self._db(self.store.save, table)
            return table
        started = await self._start(table)
        await self._db(self.store.save, started)
        self._started_letters(started, actor, letters)
        return started

    async def _start(self, table: Table) -> Table:
        """Create the table's game (nothing is stored of the table if that fails: the
        request that would have started it is refused, and the table stays as it was)."""
        game = get_game(table.game)
        # a bot seat nobody named is named by its level ("Medium bot": karnak.server.bot_names)
        by_level = default_bot_names(
            [s.bot if s.kind == SEAT_BOT and not s.name else None for s in table.seats],
            game,
            taken=[s.name for s in table.seats if s.name],
        )
        used = {s.name.casefold() for s in table.seats if s.name}
        seats: list[TableSeat] = []
        requests: list[SeatRequest] = []
        for seat in table.seats:
            if seat.kind == SEAT_BOT:
                if not seat.name:
                    named = by_level[seat.seat] or f"Bot {seat.seat + 1}"
                    seat = dataclasses.replace(seat, name=unique_name(named, used))
                requests.append(SeatRequest(BOT, seat.name, seat.bot))
            elif seat.kind == SEAT_ACCOUNT:
                requests.append(SeatRequest(HUMAN, seat.name, account=seat.account))
            elif seat.kind == SEAT_GUEST:
                requests.append(SeatRequest(HUMAN, seat.name, token_hash=seat.ticket_hash))
            else:  # pragma: no cover - only a full table starts
                raise TableError(t("seat {seat} is still open", seat=seat.seat + 1))
            seats.append(seat)
        created = await self.games.create(
            table.game,
            requests,
            table.options,
            None,
            table.turn_timer,
            table.time_control,
            # the table's creator holds the game toward its share of the running games
            creator=Creator(table.creator_client, table.creator_account),
        )
        return dataclasses.replace(
            table, seats=seats, status=STARTED, game_id=created.room.id, started_at=self.clock()
        )

    # ------------------------------------------------------------------ telling
    def _inviter(self, actor: Actor, table: Table, fallback: str | None = None) -> str:
        if actor.account is not None:
            return actor.account.name
        own = seat_of(table, actor)
        if own is not None and table.seats[own].name:
            return table.seats[own].name or ""
        return fallback or "A player"

    def _invite_letters(
        self,
        table: Table,
        seats: Sequence[TableSeat],
        inviter: str,
        letters: Letters,
        *,
        rematch: bool = False,
    ) -> None:
        title = get_game(table.game).title
        link = f"/tables/{table.id}"
        for seat in seats:
            if seat.invited is None:
                continue
            letters.add(
                seat.invited,
                "invitation",
                functools.partial(
                    invitation_text, inviter, title, len(table.seats), seat.seat + 1, rematch
                ),
                link,
            )

    def _started_letters(self, table: Table, actor: Actor, letters: Letters) -> None:
        title = get_game(table.game).title
        for seat in table.seats:
            if (
                seat.kind != SEAT_ACCOUNT
                or seat.account is None
                or seat.account == actor.account_id
            ):
                continue
            others = [s.name or "" for s in table.seats if s.seat != seat.seat]
            letters.add(
                seat.account,
                "table",
                functools.partial(started_text, title, others),
                f"/games/{table.game_id}",
            )

    async def _send(self, letters: Letters) -> None:
        for account, kind, words, link in letters.sent:
            text = words if isinstance(words, str) else await self._written_for(account, words)
            if letters.sender is not None:
                await self.notifier.notify_from(letters.sender, account, kind, text, link)
            else:
                await self.notifier.notify(account, kind, text, link)

    async def _written_for(self, account: int, write: Callable[[], str]) -> str:
        """``write()`` in the account's language (its setting, else English)."""
        language = await self.executor.run(account_language, self.notifier.engine, account)
        with use_language(language):
            return write()


def invitation_text(inviter: str, title: str, players: int, seat: int, rematch: bool) -> str:
    """An invitation to a table (or a rematch), in the current language."""
    if rematch:
        return t(
            "{inviter} asks for a rematch of {game}: seat {seat} is kept for you.",
            inviter=inviter,
            game=title,
            seat=seat,
        )
    return t(
        "{inviter} invites you to a table of {game} ({players} players): seat {seat} is kept "
        "for you.",
        inviter=inviter,
        game=title,
        players=players,
        seat=seat,
    )


def started_text(title: str, others: list[str]) -> str:
    """A table's start, told to a seat's account, in the current language."""
    if others:
        return t(
            "Your table of {game} (with {names}) has started: your game is on.",
            game=title,
            names=names(others),
        )
    return t("Your table of {game} has started: your game is on.", game=title)
