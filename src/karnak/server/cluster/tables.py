"""The leases' table (migration 0011_cluster): who runs each game's background work."""

from __future__ import annotations

from sqlalchemy import Float, String
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base


class LeaseRow(Base):
    """A lease: ``name`` (``game:<id>`` for a game's bots and timers, ``process:<id>`` for a
    live process) is held by ``holder`` (a process) until ``expires_at`` unless renewed."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(80), primary_key=True)
    holder: Mapped[str] = mapped_column(String(120), index=True)
    #: Seconds since the epoch (the processes' clocks are assumed in step, as NTP keeps them).
    expires_at: Mapped[float] = mapped_column(Float)
