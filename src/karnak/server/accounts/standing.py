"""An account's standing: whether it may log in and be used, and whether it may chat.

Administrators (karnak.server.admin) suspend an account until a time, ban it, or mute it
until a time. The account's rows carry the state; this module reads it, so that log-in,
every session look-up and the chat all decide alike. A suspension whose time has passed is
over by itself: nothing has to run to lift it.
"""

from __future__ import annotations

import datetime as dt

from karnak.core.errors import KarnakError
from karnak.i18n import _, t
from karnak.server.accounts.tables import AccountRow

ACTIVE, SUSPENDED, BANNED = "active", "suspended", "banned"
PLAYER, ADMIN = "player", "admin"


class AccountRefusedError(KarnakError):
    """A suspended or banned account (the message says which, and until when)."""

    status = 403


def aware(moment: dt.datetime) -> dt.datetime:
    """A stored time with its zone (SQLite gives naive UTC times back)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def shown(moment: dt.datetime) -> str:
    return aware(moment).astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def refusal(row: AccountRow, now: dt.datetime) -> str | None:
    """Why the account may not be used now (banned, or suspended until a time still to
    come), or None."""
    if row.status == BANNED:
        return _("this account is banned from this server")
    if row.status == SUSPENDED:
        until = row.suspended_until
        if until is None:
            return _("this account is suspended")
        if aware(until) > now:
            return t("this account is suspended until {time}", time=shown(until))
    return None


def muted(row: AccountRow, now: dt.datetime) -> str | None:
    """Why the account may not write in chat now, or None."""
    if row.muted_until is not None and aware(row.muted_until) > now:
        return t(
            "an administrator muted this account until {time}: its chat lines are refused "
            "until then",
            time=shown(row.muted_until),
        )
    return None
