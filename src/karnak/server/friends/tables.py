"""The friendships' table (migration 0007_social), and the blocks (0014_defense).

One row per pair of accounts, whatever its state, so that two people can never hold two
requests to each other at once (the ``pair`` key is unique: the smaller id first). The row
keeps who asked: a request is answered by the other one only.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow

PENDING = "pending"
ACCEPTED = "accepted"
DECLINED = "declined"


def pair_key(one: int, other: int) -> str:
    """The pair's key, the same whoever asks: ``"3:8"`` for accounts 3 and 8."""
    low, high = sorted((one, other))
    return f"{low}:{high}"


class FriendshipRow(Base):
    __tablename__ = "friendships"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pair: Mapped[str] = mapped_column(String(24), unique=True)
    requester_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    requested_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: PENDING, ACCEPTED or DECLINED (a declined request stays, so that it is not repeated)
    status: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    #: When the request was accepted or declined.
    answered_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)


class BlockRow(Base):
    """An account (``blocker_id``) blocks another (``blocked_id``; migration 0014_defense):
    the blocked one's invitations, friend requests and chat lines do not reach the blocker
    (karnak.server.friends.blocks)."""

    __tablename__ = "blocks"
    __table_args__ = (UniqueConstraint("blocker_id", "blocked_id", name="uq_blocks_pair"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    blocker_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
