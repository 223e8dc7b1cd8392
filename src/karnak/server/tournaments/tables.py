"""Tournaments (migrations 0022_tournaments, 0023_tournament_options): a tournament, its
players, its games, its invitations.

A tournament's games are ordinary games of the server: what the tournament keeps is who
sat where in which round, and each game's result once it is over, so its standings can
always be worked out again from these rows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class TournamentRow(Base):
    """``format``: "swiss", "elimination" (two-player games) or "pools" (three seats or
    more). ``status``: "open" (taking players), "running", "finished" or "cancelled"."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(16))
    #: Rounds to play (Swiss and pools; an elimination plays until one is left).
    rounds: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    #: Seats per table for pools (the least and the most).
    least: Mapped[int] = mapped_column(Integer, default=2)
    most: Mapped[int] = mapped_column(Integer, default=2)
    #: The level of the bots that fill the field when it starts (None: no bots).
    bots: Mapped[str | None] = mapped_column(String(16), nullable=True)
    turn_timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The time control of its games (both None: none; never with a turn timer).
    time_per_move: Mapped[float | None] = mapped_column(Float, nullable=True)
    time_bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Only the accounts its creator invited may join.
    invite_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    starts_at: Mapped[dt.datetime | None] = mapped_column(nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    round: Mapped[int] = mapped_column(Integer, default=0)
    creator_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)


class TournamentPlayerRow(Base):
    """A player: an account, or a bot (``bot``: its spec) added when the field was filled."""

    __tablename__ = "tournament_players"
    __table_args__ = (
        UniqueConstraint("tournament_id", "account_id", name="uq_tournament_players_account"),
        UniqueConstraint("tournament_id", "name", name="uq_tournament_players_name"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    #: The rating it started with (seeding, the last tie-break).
    rating: Mapped[float] = mapped_column(Float, default=0.0)
    joined_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class TournamentGameRow(Base):
    """One game of a round: its seats (player names, in seat order; a bye is a game of
    one name and no ``game_id``) and, once over, each seat's place (1 is best)."""

    __tablename__ = "tournament_games"
    __table_args__ = (UniqueConstraint("game_id", name="uq_tournament_games_game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    seats: Mapped[list[Any]] = mapped_column(JSON)
    #: (SQL NULL while the game runs: ``none_as_null``, so "no places yet" can be asked for)
    places: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    #: Seats whose person left (a bot finished for them): they count as last.
    left: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    bye: Mapped[bool] = mapped_column(Boolean, default=False)
    #: A double elimination's bracket: "winners", "losers" or "final" (None elsewhere).
    bracket: Mapped[str | None] = mapped_column(String(8), nullable=True)


class TournamentInvitationRow(Base):
    """An account invited to a tournament that is by invitation."""

    __tablename__ = "tournament_invitations"
    __table_args__ = (
        UniqueConstraint("tournament_id", "account_id", name="uq_tournament_invitations_account"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    invited_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
