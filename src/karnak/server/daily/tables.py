"""The game of the day's tables (migration 0019_daily): the server's secret, and one row per
game played on a day's deal.

Why a secret in the database rather than a seed worked out from the date: anybody can work
out a date, so the dice of every future day would be public. The secret is made once, by
whichever process first needs it, and every process of the server reads the same one, so
all of them deal the same day alike. It never leaves the server.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class DailySecretRow(Base):
    """The one secret every day's seed is derived from (``id`` is always 1)."""

    __tablename__ = "daily_secret"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: 32 random bytes as hex.
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class DailyGameRow(Base):
    """One game on a day's deal: an account's (ranked when it is its game of that very day),
    a guest's (never ranked) or one of the bots that play every day to be beaten."""

    __tablename__ = "daily_games"
    # NULLs are distinct: an account's row is unique by (game, day, account_id), a bot's by
    # (game, day, bot_level); guests have neither and may play any number of games.
    __table_args__ = (
        UniqueConstraint("game", "day", "account_id", name="uq_daily_games_account"),
        UniqueConstraint("game", "day", "bot_level", name="uq_daily_games_bot"),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: The game's name ("egyptia") and the day (``YYYY-MM-DD``, UTC).
    game: Mapped[str] = mapped_column(String(32))
    day: Mapped[str] = mapped_column(String(10), index=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    #: The level ("expert", "master") of a bot's game.
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Whether it counts on the day's leaderboard: an account's game started on its day.
    ranked: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    #: Set when the game is over (with its result), by karnak.server.daily.service.
    finished_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str | None] = mapped_column(String(32), nullable=True)
    penalty: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Seconds from the start to the end (the last tie-break).
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: One symbol a round (karnak.core.daily.DailyResult.marks): the result to share.
    marks: Mapped[str | None] = mapped_column(String(400), nullable=True)
