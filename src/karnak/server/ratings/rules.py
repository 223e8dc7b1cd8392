"""Which finished games are rated, who is rated in them at which rank, and the update itself.

Pure functions over plain values (no database), so that every rule is tested on its own.

Rated games. A finished game is rated when it has at least two seats, at least one seat is
held by an account, and every human seat is held by an account:

- a solo game (Egyptia alone) is not rated: openskill ranks teams against each other, and a
  lone builder has nobody to be ranked against (its builder status is its measure);
- a guest's seat makes the game unrated: a guest has no rating to move, and counting the
  accounts' places against a nameless seat would let anyone feed an account wins with
  throw-away links;
- a game of bots alone is not rated: anyone may create such games by the dozen and would
  move the bots' ratings at will (the arena, ``karnak arena``, measures bots against bots).

Who is rated. Each account seat under its account's rating, each bot seat under its spec's
rating in that game (``heuristic``, ``ismcts:1s``; shown by its level, "Medium bot", with
the spec beside it), on the same scale as people, so that a person sees where they stand
against each level. One spec in several seats is one
rating, updated as the arena's :class:`~karnak.bots.arena.RatingBook` does it (each seat
rated in turn; mirror seats cancel out), and counts one game.

Ranks. The game's own ranks (``state.ranks()``, stored in the result): ties stay ties, rated
as the average over every way to break them (the arena's rule, which never rewards a worse
place).

Abandonment. Seats whose player left (``result["left"]``, written by the abandonment rules)
are rated under the account that left, ranked last (several who left share the last place),
whatever the bot that took the seat over went on to score; that bot is not rated for the
game. A seat that left with no account to rate makes the game unrated, like a guest.

Drift. A person's skill changes over time, a bot's does not: before each update an account's
sigma grows by openskill's default ``tau`` (capped at the starting sigma), a bot's stays as
it is (the arena's ``tau = 0``). Ratings are shown as openskill's ordinal ``mu - 3 sigma``:
a newcomer starts at 0 and climbs as the evidence grows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from karnak.bots.arena import RATING_MU, RATING_SIGMA, RatingBook
from karnak.i18n import N_

#: openskill's default drift per game (25/300), applied to people only.
ACCOUNT_TAU = RATING_MU / 300
#: The ordinal's z: a rating is shown as ``mu - Z * sigma``.
Z = 3.0


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown everywhere: ``mu - 3 sigma`` (openskill's ordinal)."""
    return mu - Z * sigma


@dataclass(frozen=True)
class Seat:
    """What the rules need of a stored seat."""

    seat: int
    kind: str  # "human" or "bot"
    bot: str | None
    account: int | None


@dataclass(frozen=True)
class Rated:
    """One seat as rated: whose rating (an account id, else a bot spec) and the rank given."""

    seat: int
    account: int | None
    bot: str | None
    rank: int
    left: bool

    @property
    def key(self) -> tuple[int | None, str | None]:
        return (self.account, self.bot)


@dataclass(frozen=True)
class Decision:
    """Whether a game is rated; the seats rated (by seat) or the reason it is not."""

    seats: tuple[Rated, ...] = ()
    reason: str | None = None

    @property
    def rated(self) -> bool:
        return self.reason is None


def decide(seats: Sequence[Seat], result: Mapping[str, Any] | None) -> Decision:
    """Whether the game that ended with ``result`` is rated, and each seat's rated rank."""
    if len(seats) < 2:
        return Decision(reason=N_("a game of one player is not rated"))
    ranks = (result or {}).get("ranks")
    if not isinstance(ranks, list) or len(ranks) != len(seats):
        return Decision(reason=N_("the game's stored result has no ranks"))
    raw_left = (result or {}).get("left") or []
    left = {s for s in raw_left if isinstance(s, int) and 0 <= s < len(seats)}
    accounts = [s.account for s in seats if s.account is not None]
    if not accounts:
        return Decision(reason=N_("a game without an account is not rated"))
    if len(set(accounts)) != len(accounts):
        return Decision(reason=N_("one account held several seats"))
    for seat in seats:
        if seat.account is not None:
            continue
        if seat.seat in left:
            return Decision(reason=N_("a player who left had no account"))
        if seat.kind != "bot":
            return Decision(
                reason=N_("a guest played (a game is rated when every player has an account)")
            )
        if not seat.bot:
            return Decision(reason=N_("a bot seat without a spec"))
    stayed = [s for s in seats if s.seat not in left]
    last = max((int(ranks[s.seat]) for s in stayed), default=0) + 1
    rated = []
    for seat in seats:
        if seat.seat in left:
            rated.append(Rated(seat.seat, seat.account, None, last, left=True))
        elif seat.account is not None:
            rated.append(Rated(seat.seat, seat.account, None, int(ranks[seat.seat]), left=False))
        else:
            rated.append(Rated(seat.seat, None, seat.bot, int(ranks[seat.seat]), left=False))
    return Decision(seats=tuple(rated))


Key = tuple[int | None, str | None]


def update(
    current: Mapping[Key, tuple[float, float]], seats: Sequence[Rated]
) -> dict[Key, tuple[float, float]]:
    """The new (mu, sigma) of every rating in the game, from the current ones (missing:
    a newcomer at openskill's start) and the seats' ranks."""
    labels = [repr(seat.key) for seat in seats]
    book = RatingBook(sorted(set(labels)))
    for seat, label in zip(seats, labels, strict=True):
        mu, sigma = current.get(seat.key, (RATING_MU, RATING_SIGMA))
        if seat.account is not None:
            sigma = min(math.sqrt(sigma * sigma + ACCOUNT_TAU * ACCOUNT_TAU), RATING_SIGMA)
        book.ratings[label] = (mu, sigma)
    book.update(labels, [seat.rank for seat in seats])
    return {seat.key: book.ratings[label] for seat, label in zip(seats, labels, strict=True)}


def start() -> tuple[float, float]:
    return RATING_MU, RATING_SIGMA
