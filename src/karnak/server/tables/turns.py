"""Whose turn it is, for the accounts: "your turn" notifications, and how long each seat
has waited (the order of "my games").

The watcher subscribes to the hub's ``games`` topic (every change of every game) and looks
at the room after each change. What it decides:

- A seat held by an account is told "your turn" (kind ``turn``, linking to the game) when it
  becomes to move: it was not among the seats to move before the change and is after it.
  A seat that stays to move through several decisions (an Amun-Re market turn, an Egyptia
  builder's private steps) is told once.
- Who is to move is public (every view lists it), so whether a notification is sent, and
  when, depends on nothing hidden; its text is built from public facts only (the game, the
  other players' names, the round and phase as a spectator sees them), so it tells nothing
  hidden either. Another seat's private step changes nobody else's turn: it tells nobody.
- At a sealed step (everyone choosing at once) a seat is told at most once per round: an
  Egyptia builder becomes to move twice a round (the column, then the building after the
  reveal) and hears of it once, when the round begins. Amun-Re's offering and Aton's lay-out
  are one sealed step a round anyway; their turns taken in order are told each time.
- Bots and guests (a seat no account holds) are told nothing.
- Waiting since: the time a seat became to move, kept in memory per game and seat (set when
  the seat joins the seats to move, dropped when it leaves them). A server that restarts
  does not know it: the game's last public change stands in (see
  :meth:`TurnWatcher.since`), and the first change the watcher sees of a game it did not
  know tells nobody (a game loaded at start, whose seats were told before the restart).

Calm (issue 33):

- **Not while the page is open.** A seat whose game page is open (its socket, counted in
  every process: karnak.server.notifications.presence) is told nothing: it sees its turn.
  The turn is *owed* instead: when the page has been closed for :data:`GRACE` seconds and
  the seat is still to move (bots that answered at once included), it is told then, and
  that notification is what the e-mail service mails (karnak.server.mail.service). Before,
  the one notice was stored while the page was open, the e-mail service dropped it
  ("connected"), and nothing looked again once the page closed: no e-mail ever went out.
- **One entry per game.** A game's notifications replace each other (Notifier groups them
  by the game's link), and opening the game's page marks them read.
- Texts are in the reader's language (the account's setting, else English).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from babel.lists import format_list

from karnak.i18n import _, current_language, ngettext, use_language
from karnak.server.hub import ALL_GAMES, Event
from karnak.server.notifications.service import account_language

if TYPE_CHECKING:
    from karnak.server.notifications.service import Notifier
    from karnak.server.rooms import Room
    from karnak.server.service import GameService

log = logging.getLogger("karnak.server")

#: Other players named in a notification; a bigger table is "and N others".
NAMED = 4
#: How long a seat's page must have been closed before an owed turn is told (seconds): a
#: page reloaded, or followed from one tab to another, is not "gone".
GRACE = 30.0
#: How often the owed turns are looked at (seconds).
OWED_EVERY = 10.0


def names(listed: list[str]) -> str:
    """``Ana, Bes and Ka`` in the current language; a long list named by its first few."""
    if len(listed) > NAMED:
        rest = len(listed) - NAMED + 1
        more = ngettext("{n} other", "{n} others", rest).format(n=rest)
        return joined([*listed[: NAMED - 1], more])
    if len(listed) <= 1:
        return "".join(listed)
    return joined(listed)


def joined(listed: list[str]) -> str:
    """Names joined as the current language joins them (English without a serial comma)."""
    language = current_language()
    if language not in ("de", "fr"):
        return _("{names} and {last}").format(names=", ".join(listed[:-1]), last=listed[-1])
    return format_list(listed, locale=language)


def public_step(room: Room) -> tuple[Any, str | None]:
    """The round and the phase's name as a spectator sees them."""
    public = room.state.observation(None)
    phase = public.get("phase_name")
    if not phase and "revealed" in public:  # Egyptia names its two steps by the reveal
        phase = "building" if public.get("revealed") else "choosing columns"
    return public.get("round"), phase if isinstance(phase, str) else None


def turn_text(room: Room, seat: int) -> str:
    """What a seat is told, as "Your turn in Amun-Re (with Ana and Bes): round 3, the
    offering.", from public facts only: the game, the others' names, the round and the phase
    a spectator sees."""
    others = [info.name for info in room.seats if info.seat != seat]
    round_, phase = public_step(room)
    game = room.game.title
    if current_language() != "en":
        phase = None  # the phase's name is the game's English word: left out, not mixed in
    where = [_("round {n}").format(n=round_) if isinstance(round_, int) else "", phase or ""]
    said = ", ".join(part for part in where if part)
    if others and said:
        return _("Your turn in {game} (with {names}): {step}.").format(
            game=game, names=names(others), step=said
        )
    if others:
        return _("Your turn in {game} (with {names}).").format(game=game, names=names(others))
    if said:
        return _("Your turn in {game} (alone): {step}.").format(game=game, step=said)
    return _("Your turn in {game} (alone).").format(game=game)


class TurnWatcher:
    def __init__(self, games: GameService, notifier: Notifier) -> None:
        self.games = games
        self.notifier = notifier
        #: Seconds since the epoch: when a seat became to move. Tests put a fake clock here
        #: instead of waiting between moves.
        self.clock: Callable[[], float] = time.time
        #: The seats to move after the last change seen, per game.
        self._movers: dict[str, frozenset[int]] = {}
        #: When each seat to move became so (seconds since the epoch).
        self._since: dict[tuple[str, int], float] = {}
        #: The round in which a seat was last told of a sealed step.
        self._sealed: dict[tuple[str, int], int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Turns not told because the seat's page was open: (game, seat) -> the account,
        #: and since when the page is known closed (None: not seen closed yet).
        self._owed: dict[tuple[str, int], tuple[int, float | None]] = {}
        self._owed_task: asyncio.Task[None] | None = None
        self.subscription = games.hub.subscribe(ALL_GAMES, self._changed)
        presence = getattr(games, "presence", None)
        if presence is not None:
            presence.on_open.append(self._opened)

    def since(self, game_id: str, seat: int) -> float | None:
        """When ``seat`` became to move, if this process saw it happen."""
        return self._since.get((game_id, seat))

    async def settle(self) -> None:
        """Wait for the notifications under way (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _changed(self, event: Event) -> None:
        game_id = event.payload.get("game_id")
        room = self.games.rooms.get(game_id) if isinstance(game_id, str) else None
        if room is None:
            return
        if room.is_over:
            self._forget(room.id)
            return
        movers = frozenset(room.state.to_move())
        before = self._movers.get(room.id)
        if before == movers:
            return
        self._movers[room.id] = movers
        first = before is None  # a game this watcher did not know: tell nobody
        now = self.clock()
        for seat in (before or frozenset()) - movers:
            self._since.pop((room.id, seat), None)
            self._owed.pop((room.id, seat), None)
        sealed = room.state.is_simultaneous()
        round_: Any = None
        told: list[tuple[int, int]] = []
        for seat in sorted(movers - (before or frozenset())):
            if not first or not room.accepted:  # a new game's first movers wait from now
                self._since[(room.id, seat)] = now
            info = room.seats[seat]
            if info.is_bot or info.account is None:
                continue
            if sealed:
                if round_ is None:
                    round_ = public_step(room)[0]
                if isinstance(round_, int):
                    if self._sealed.get((room.id, seat)) == round_:
                        continue  # told of this round's sealed step already
                    self._sealed[(room.id, seat)] = round_
            if not first:
                told.append((info.account, seat))
        for account, seat in told:
            self._tell(account, room, seat)

    def _forget(self, game_id: str) -> None:
        seats = self._movers.pop(game_id, frozenset())
        for seat in seats:
            self._since.pop((game_id, seat), None)
            self._owed.pop((game_id, seat), None)
        for key in [key for key in self._sealed if key[0] == game_id]:
            del self._sealed[key]

    def _tell(self, account: int, room: Room, seat: int, *, owed: bool = False) -> None:
        task = asyncio.get_running_loop().create_task(self._notify(account, room, seat, owed))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify(self, account: int, room: Room, seat: int, owed: bool = False) -> None:
        try:
            presence = getattr(self.games, "presence", None)
            if presence is not None and await presence.anywhere(room.id, seat):
                self._owe(room.id, seat, account)  # its page is open: it sees its turn
                return
            if not self._still_to_move(room, seat, account):
                return  # played already (or the seat changed hands) while this was decided
            language = await self.notifier.executor.run(
                account_language, self.notifier.engine, account
            )
            with use_language(language):
                text = turn_text(room, seat)
            await self.notifier.notify(account, "turn", text, f"/games/{room.id}")
        except Exception:  # a notification lost is logged; the game goes on
            log.exception("could not tell account %s of its turn", account)

    @staticmethod
    def _still_to_move(room: Room, seat: int, account: int) -> bool:
        info = room.seats[seat]
        return (
            not room.is_over
            and seat in room.state.to_move()
            and not info.is_bot
            and info.account == account
        )

    # ------------------------------------------------------------------ owed turns
    def _owe(self, game_id: str, seat: int, account: int) -> None:
        self._owed[(game_id, seat)] = (account, None)
        if self._owed_task is None or self._owed_task.done():
            self._owed_task = asyncio.get_running_loop().create_task(self._watch_owed())

    async def _watch_owed(self) -> None:
        while self._owed:
            await asyncio.sleep(OWED_EVERY)
            with contextlib.suppress(Exception):
                await self.check_owed()

    async def check_owed(self) -> int:
        """Tell the owed turns whose page has been closed for :data:`GRACE` seconds (and
        whose seat is still to move); how many were told. Run every :data:`OWED_EVERY`
        seconds while any is owed (tests call it after moving :attr:`clock`)."""
        presence = getattr(self.games, "presence", None)
        now = self.clock()
        told = 0
        for key, (account, closed_since) in list(self._owed.items()):
            game_id, seat = key
            room = self.games.rooms.get(game_id)
            if room is None or not self._still_to_move(room, seat, account):
                self._owed.pop(key, None)
                continue
            if presence is not None and await presence.anywhere(game_id, seat):
                self._owed[key] = (account, None)
                continue
            if closed_since is None:
                self._owed[key] = (account, now)
                if GRACE > 0:
                    continue
                closed_since = now
            if now - closed_since < GRACE:
                continue
            self._owed.pop(key, None)
            await self._notify(account, room, seat, owed=True)
            told += 1
        return told

    def owed(self) -> list[tuple[str, int]]:
        """The turns owed now (game, seat): for tests and for looking into a server."""
        return sorted(self._owed)

    # ------------------------------------------------------------------ pages opened
    def _opened(self, game_id: str, seat: int) -> None:
        """A page of the seat opened (in this process): its game's notices are read."""
        room = self.games.rooms.get(game_id)
        if room is None or seat >= len(room.seats):
            return
        account = room.seats[seat].account
        if account is None:
            return
        task = asyncio.get_running_loop().create_task(self._read(account, game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, account: int, game_id: str) -> None:
        try:
            await self.notifier.mark_game_read(account, game_id)
        except Exception:
            log.exception("could not mark the notices of game %s read", game_id)
