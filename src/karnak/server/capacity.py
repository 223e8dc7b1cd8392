"""The running-games cap, and each creator's share of it.

A server runs at most ``max_running_games`` games at once (their bots, timers and memory are
what it has to give). Creating a game needs no account, so the cap is a target: before these
rules, 500 never-played games (one address for 25 minutes, or 26 addresses at once) locked
everyone out of creating, and a restart kept them locked out, since such games never end.
Three rules keep the cap for the people who play:

- **Only recently active games count.** A running game counts while it was created or changed
  (a move, an undo, a departure) within ``running_game_activity_hours``. A game nobody plays
  stops counting after that; it is not touched (it still exists, and counts again from its
  next move). The count is read from the database at each creation, so a restart changes
  nothing either way.
- **A per-creator share.** Each game stores who created it: the hash of the client's address
  (as the tables store a guest's; no address is kept) and the account, if one was logged in.
  One address, and one account, may each have created at most :func:`share_of` counted
  games (by default the larger of 5 and a twentieth of the cap). Filling the cap then takes
  twenty addresses, each playing its games at least once a day.
- **The check is atomic.** The counts and the new game's row are one transaction taken
  under a lock that every creation takes (karnak.server.store.GameStore.create): PostgreSQL's
  transaction-level advisory lock across the processes, SQLite's write lock taken before the
  first read (``BEGIN IMMEDIATE``). N creations racing for the last place give exactly one
  game.

Behind a reverse proxy the client's address is the one the proxy vouches for
(``--forwarded-allow-ips``); without it every client shares the proxy's address and its share.
A club whose members all play from one address should raise ``running_games_per_client``.
A table's game (karnak.server.tables) is created by whoever fills the table; it counts
toward the creator its caller names (none: the server's cap only).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from karnak.core.errors import KarnakError
from karnak.i18n import N_, t
from karnak.server.db import GameRow, utcnow
from karnak.server.http_limits import client_key
from karnak.server.limits import LimitError, ServerSettings

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

#: The smallest share of one creator, whatever the cap.
MIN_SHARE = 5
#: One creator's share is this fraction of the cap (one twentieth).
SHARE_DIVISOR = 20
#: When a client refused for a full server, or a full share, may try again (seconds).
RETRY_AFTER = 60.0


def client_hash(host: str | None) -> str:
    """The hash of a client's address as the rate limits count it (an IPv6 client by its
    /64): the same value karnak.server.tables stores for a guest."""
    return hashlib.sha256(client_key(host).encode()).hexdigest()


@dataclass(frozen=True)
class Creator:
    """Who creates a game: the hash of the client's address, and the account if any."""

    client: str | None = None
    account: int | None = None

    @classmethod
    def of(cls, host: str | None, account: int | None = None) -> Creator:
        return cls(client_hash(host), account)


def share_of(settings: ServerSettings) -> int:
    """How many counted games one address, or one account, may have created."""
    if settings.running_games_per_client > 0:
        return settings.running_games_per_client
    return max(MIN_SHARE, settings.max_running_games // SHARE_DIVISOR)


@dataclass(frozen=True)
class Quota:
    """What one creation is checked against: the server's cap, the creator's share, and the
    moment from which a game's last change makes it count."""

    most: int
    share: int
    since: dt.datetime
    creator: Creator | None = None

    @classmethod
    def of(
        cls, settings: ServerSettings, creator: Creator | None, now: dt.datetime | None = None
    ) -> Quota:
        window = dt.timedelta(hours=settings.running_game_activity_hours)
        return cls(
            settings.max_running_games, share_of(settings), (now or utcnow()) - window, creator
        )


class CapacityError(KarnakError):
    """The server runs as many counted games as it may (``running`` of them)."""

    def __init__(self, running: int):
        super().__init__(f"{running} games are running")
        self.running = running


class ShareError(KarnakError):
    """The creator (``who``: "address" or "account") has created its share of the counted
    games already."""

    def __init__(self, who: str, held: int, share: int):
        super().__init__(f"your {who} already runs {held} games")
        self.who = who
        self.held = held
        self.share = share


def counted_games(session: Session, since: dt.datetime | None, **creator: object) -> int:
    """The running games changed since ``since`` (all running games for None), of the
    creator given as a column's value (``creator_client=...`` or ``creator_account_id=...``)."""
    query = select(func.count()).select_from(GameRow).where(GameRow.status == "running")
    if since is not None:
        query = query.where(GameRow.updated_at >= since)
    for column, value in creator.items():
        query = query.where(getattr(GameRow, column) == value)
    return int(session.scalar(query) or 0)


def check_share(session: Session, quota: Quota) -> None:
    """ShareError if the quota's creator (its address, else its account) holds its share."""
    creator = quota.creator
    if creator is None:
        return
    for who, column, value in (
        ("address", "creator_client", creator.client),
        ("account", "creator_account_id", creator.account),
    ):
        if value is None:
            continue
        held = counted_games(session, quota.since, **{column: value})
        if held >= quota.share:
            raise ShareError(who, held, quota.share)


def refusal(exc: CapacityError | ShareError, settings: ServerSettings) -> LimitError:
    """What the client is told (429, with when to try again): whose limit is reached, how
    many games count, and how a place frees up."""
    hours = f"{settings.running_game_activity_hours:g}"
    if isinstance(exc, ShareError):
        template = (
            N_(
                "your address already runs {held} games, its most ({share}) on this server; "
                "finish one (a game stops counting after {hours} hours without a move) before "
                "creating another"
            )
            if exc.who == "address"
            else N_(
                "your account already runs {held} games, its most ({share}) on this server; "
                "finish one (a game stops counting after {hours} hours without a move) before "
                "creating another"
            )
        )
        message = t(template, held=exc.held, share=exc.share, hours=hours)
    else:
        message = t(
            "this server already runs {running} games, its most ({most}), counting those "
            "changed in the last {hours} hours; try again when some have finished",
            running=exc.running,
            most=settings.max_running_games,
            hours=hours,
        )
    reason = "share" if isinstance(exc, ShareError) else "cap"
    return LimitError(message, status=429, retry_after=RETRY_AFTER, reason=reason)
