"""The time control as a request gives it (``POST /api/games``, an open table's options):
a speed by name (karnak.server.timebank.speeds), or a time per move and a bank."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from karnak.i18n import _
from karnak.server.timebank.clock import MAX_BANK, MAX_PER_MOVE, MIN_BANK, MIN_PER_MOVE
from karnak.server.timebank.speeds import speed_named

SpeedName = Literal["fast", "normal", "slow", "1h", "12h", "24h", "3d", "7d"]


class TimeControlIn(BaseModel):
    """A time per move and a bank for each person, in seconds (see docs/players.md)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"per_move": 86400, "bank": 259200}, {"speed": "normal"}]},
    )

    speed: SpeedName | None = Field(
        default=None,
        description="a speed by name (GET /api/speeds): real-time fast, normal, slow; "
        "turn-based 1h, 12h, 24h, 3d, 7d a move. Without it, per_move and bank",
    )
    per_move: float | None = Field(
        default=None,
        ge=MIN_PER_MOVE,
        le=MAX_PER_MOVE,
        allow_inf_nan=False,
        description="seconds a move, renewed at each move (1 minute to 7 days)",
    )
    bank: float | None = Field(
        default=None,
        ge=MIN_BANK,
        le=MAX_BANK,
        allow_inf_nan=False,
        description="seconds of bank once a move's time is used up; it never grows back "
        "(0 to 30 days)",
    )

    @model_validator(mode="after")
    def _named_or_given(self) -> Self:
        if self.speed is not None:
            if self.per_move is not None or self.bank is not None:
                raise ValueError(_("give a speed by name, or per_move and bank: not both"))
            return self
        if self.per_move is None or self.bank is None:
            raise ValueError(_("give a speed by name, or both per_move and bank"))
        return self

    def to_dict(self) -> dict[str, float]:
        if self.speed is not None:
            named = speed_named(self.speed)
            return {"per_move": named.per_move, "bank": named.bank}
        assert self.per_move is not None and self.bank is not None
        return {"per_move": self.per_move, "bank": self.bank}
