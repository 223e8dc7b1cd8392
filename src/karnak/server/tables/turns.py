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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from karnak.server.hub import ALL_GAMES, Event

if TYPE_CHECKING:
    from karnak.server.notifications.service import Notifier
    from karnak.server.rooms import Room
    from karnak.server.service import GameService

log = logging.getLogger("karnak.server")

#: Other players named in a notification; a bigger table is "and N others".
NAMED = 4


def names(listed: list[str]) -> str:
    """``Ana, Bes and Ka``; a long list named by its first few."""
    if len(listed) > NAMED:
        return f"{', '.join(listed[: NAMED - 1])} and {len(listed) - NAMED + 1} others"
    if len(listed) <= 1:
        return "".join(listed)
    return f"{', '.join(listed[:-1])} and {listed[-1]}"


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
    company = f"with {names(others)}" if others else "alone"
    round_, phase = public_step(room)
    where = [f"round {round_}" if isinstance(round_, int) else "", phase or ""]
    said = ", ".join(part for part in where if part)
    return f"Your turn in {room.game.title} ({company})" + (f": {said}." if said else ".")


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
        self.subscription = games.hub.subscribe(ALL_GAMES, self._changed)

    def since(self, game_id: str, seat: int) -> float | None:
        """When ``seat`` became to move, if this process saw it happen."""
        return self._since.get((game_id, seat))

    async def settle(self) -> None:
        """Wait for the notifications under way (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _forget(self, game_id: str) -> None:
        seats = self._movers.pop(game_id, frozenset())
        for seat in seats:
            self._since.pop((game_id, seat), None)
        for key in [key for key in self._sealed if key[0] == game_id]:
            del self._sealed[key]

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
            self._tell(account, turn_text(room, seat), f"/games/{room.id}")

    def _tell(self, account: int, text: str, link: str) -> None:
        task = asyncio.get_running_loop().create_task(self._notify(account, text, link))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify(self, account: int, text: str, link: str) -> None:
        try:
            await self.notifier.notify(account, "turn", text, link)
        except Exception:  # a notification lost is logged; the game goes on
            log.exception("could not tell account %s of its turn", account)
