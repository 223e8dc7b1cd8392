"""Days of the game of the day: UTC calendar days, written ``YYYY-MM-DD``.

Everybody's day is the same day, whatever their clock says: a day's deal is one deal, and
its leaderboard closes for everybody at once, at midnight UTC.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from karnak.core.errors import KarnakError
from karnak.i18n import N_, t
from karnak.server.db import aware

NOT_A_DAY = N_("a day is written YYYY-MM-DD (or 'today'), not {given}")
#: The largest seed the games take from the server (the API's own bound).
SEED_BITS = 62


class DayError(KarnakError, ValueError):
    """Not a day of the game of the day (the message says why): no such page, 404."""

    status = 404


def day_of(moment: dt.datetime) -> dt.date:
    return aware(moment).astimezone(dt.UTC).date()


def day_text(day: dt.date) -> str:
    return day.isoformat()


def parse_iso(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def day_start(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def day_end(day: dt.date) -> dt.datetime:
    """The moment ``day`` is over (the next midnight, UTC)."""
    return day_start(day) + dt.timedelta(days=1)


def parse_day(text: str, today: dt.date, first: dt.date) -> dt.date:
    """``text`` ("today" or ``YYYY-MM-DD``) as a day that can be played: from ``first`` to
    ``today``; else DayError."""
    if text == "today":
        return today
    try:
        if len(text) != 10:
            raise ValueError(text)
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise DayError(t(NOT_A_DAY, given=repr(text[:40]))) from None
    if day > today:
        raise DayError(
            t("{day} has not come yet: today is {today} (UTC)", day=text, today=day_text(today))
        )
    if day < first:
        raise DayError(
            t(
                "the game of the day began on {first}; {day} has none",
                first=day_text(first),
                day=text,
            )
        )
    return day


def day_seed(secret: bytes, game: str, day: dt.date) -> int:
    """The seed of ``game``'s deal on ``day``: a keyed hash of the two, so nobody without
    the server's secret can work out any day's dice, and knowing one day's seed (published
    with its records once the day is over) tells nothing of another's."""
    digest = hmac.new(secret, f"karnak-daily/{game}/{day_text(day)}".encode(), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big") >> (64 - SEED_BITS)
