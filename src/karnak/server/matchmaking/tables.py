"""Quick match's queue (migration 0020_quickmatch): one ticket per account.

The queue lives in the database, not in a process: every server process matches from the
same rows, and a process that dies takes nobody's place with it.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class MatchTicketRow(Base):
    """An account looking for a game of ``game`` at a table of ``players``.

    ``status``: "waiting" (in the queue), "matching" (taken by a process that is creating
    the game; back to waiting if that process dies before it is done), "matched" (the game
    is ``game_id``), "bots" (the player chose bots: the game is ``game_id``) or "cancelled".
    """

    __tablename__ = "match_tickets"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    #: The account's rating in the game when it asked (mu - 3 sigma; 0 for a newcomer).
    rating: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(12), default="waiting", index=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    #: When a process took the ticket to make its game ("matching").
    matching_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
