"""The ratings' tables (migration 0008_ratings): ratings, the games they were decided on, and
every change with its before and after.

Why three tables rather than a rating column on accounts: bots are rated too (they have no
account), each game has its own scale, the history is what the profile's chart draws, and
``rated_games`` is what makes a game count exactly once whatever restarts in between.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class RatingRow(Base):
    """One rating: an account's, or a bot spec's, in one game."""

    __tablename__ = "ratings"
    # NULLs are distinct in a unique constraint (SQLite and PostgreSQL alike): an account's
    # row is unique by (game, account_id), a bot's by (game, bot).
    __table_args__ = (
        UniqueConstraint("game", "account_id", name="uq_ratings_game_account"),
        UniqueConstraint("game", "bot", name="uq_ratings_game_bot"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: The game's name ("amunre", "aton", "egyptia").
    game: Mapped[str] = mapped_column(String(32), index=True)
    #: Exactly one of these two is set.
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: Rated games played, and those finished first (a shared first place counts).
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class RatedGameRow(Base):
    """A finished game the ratings have looked at, rated or not: its row is written in the
    same transaction as the rating changes, so a game can never count twice."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    rated: Mapped[bool] = mapped_column(Boolean)
    #: Why a game is not rated (None when it is).
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class RatingEventRow(Base):
    """One seat's rating change in one rated game (its before and after)."""

    __tablename__ = "rating_events"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_rating_events_game_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    rating_id: Mapped[int] = mapped_column(ForeignKey("ratings.id", ondelete="CASCADE"), index=True)
    #: The rank the rating was given (1 is best; a player who left is last).
    rank: Mapped[int] = mapped_column(Integer)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
