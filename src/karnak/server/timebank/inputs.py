"""The time control as a request gives it (``POST /api/games``, an open table's options)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from karnak.server.timebank.clock import MAX_BANK, MAX_PER_MOVE, MIN_BANK, MIN_PER_MOVE


class TimeControlIn(BaseModel):
    """A time per move and a bank for each person, in seconds (see docs/players.md)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"per_move": 86400, "bank": 259200}]},
    )

    per_move: float = Field(
        ge=MIN_PER_MOVE,
        le=MAX_PER_MOVE,
        allow_inf_nan=False,
        description="seconds a move, renewed at each move (1 minute to 7 days)",
    )
    bank: float = Field(
        ge=MIN_BANK,
        le=MAX_BANK,
        allow_inf_nan=False,
        description="seconds of bank once a move's time is used up; it never grows back "
        "(0 to 30 days)",
    )

    def to_dict(self) -> dict[str, float]:
        return {"per_move": self.per_move, "bank": self.bank}
