"""What an account asks to receive by e-mail, and the request that changes it.

An account has at most one address, and three switches: "your turn", invitations, and the
daily reminder of the games waiting on it. A new address is unconfirmed: the only e-mail it
ever gets is the confirmation, whose link carries a one-time code (good for two days); once
the code comes back, the address is confirmed and the switches take effect. So nobody can
have Karnak write to somebody else's address more than a confirmation, and those are spaced
(see :mod:`karnak.server.mail.service`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from karnak.server.mail.settings import MAX_ADDRESS, check_address

#: The kinds of e-mail an account can ask for (the notification kinds mailed, and "daily").
SWITCHES = ("turn", "invitation", "daily")


@dataclass(frozen=True)
class Preferences:
    address: str | None = None
    confirmed: bool = False
    #: A confirmation link is out and has not expired.
    pending: bool = False
    turn: bool = True
    invitation: bool = True
    daily: bool = False

    def wants(self, kind: str) -> bool:
        """Whether an e-mail of ``kind`` ("turn", "invitation", "daily") may go out."""
        if self.address is None or not self.confirmed or kind not in SWITCHES:
            return False
        return bool(getattr(self, kind))


def checked(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    try:
        return check_address(value)
    except ValueError as exc:
        raise PydanticCustomError("email_address", str(exc)) from None


#: An address as sent: bounded, then checked (an empty one means none).
Address = Annotated[str, Field(max_length=MAX_ADDRESS)]


class PreferencesIn(BaseModel):
    """The whole of an account's e-mail choices (what is not sent keeps its default)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"address": "ana@example.org", "turn": True, "daily": True}]
        },
    )

    address: Address | None = Field(
        default=None,
        description="the address (checked; a new one gets a confirmation link); "
        "empty or null: no address, nothing is sent",
    )
    turn: bool = Field(default=True, description='"your turn" e-mails')
    invitation: bool = Field(default=True, description="invitations")
    daily: bool = Field(default=False, description="the daily reminder of the games waiting")
    resend: bool = Field(
        default=False, description="send the confirmation link again (an unconfirmed address)"
    )

    @field_validator("address")
    @classmethod
    def _checked(cls, value: str | None) -> str | None:
        return checked(value)


class PreferencesOut(BaseModel):
    #: Whether this server sends e-mail at all (off: no SMTP server configured).
    enabled: bool
    address: str | None
    confirmed: bool
    pending: bool
    turn: bool
    invitation: bool
    daily: bool
    #: The hour (UTC) of the daily reminder, and the fewest hours between two "your turn"
    #: e-mails of one game.
    daily_hour: int
    turn_hours: float

    @classmethod
    def of(cls, preferences: Preferences, enabled: bool, **settings: Any) -> PreferencesOut:
        return cls(
            enabled=enabled,
            address=preferences.address,
            confirmed=preferences.confirmed,
            pending=preferences.pending,
            turn=preferences.turn,
            invitation=preferences.invitation,
            daily=preferences.daily,
            **settings,
        )


class ConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
