"""The daily reminder: once a day, one e-mail per account listing the games waiting on it.

At the hour set (UTC, ``--mail-daily-hour``, 8 by default), every account that asked for the
reminder at a confirmed address gets one e-mail listing its running games in which its seat
is to move, the longest waiting first; an account with none gets nothing that day. The
round looks at the clock every minute: a server started after the hour sends that day's
round at once, one started before waits for it.

Each account's round is written down before its e-mail is queued
(``mail_preferences.daily_checked_at``), so a restart never sends the same day's reminder
twice; the price is that a reminder lost by a crash at that moment is not sent again (it
says nothing a page would not). The reminder is sent whether or not a page is open: it is
a summary, not an alert. The first reminder comes at the next such hour after it is turned
on (turning it on after the hour does not send that day's at once).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import TYPE_CHECKING

from karnak.i18n import use_language
from karnak.server.mail.compose import Waiting, daily_mail
from karnak.server.mail.sender import one_line

if TYPE_CHECKING:
    from karnak.server.mail.service import MailService

log = logging.getLogger("karnak.server")


def slot_of(now: dt.datetime, hour: int) -> dt.datetime:
    """Today's reminder time (UTC)."""
    return now.astimezone(dt.UTC).replace(hour=hour, minute=0, second=0, microsecond=0)


async def daily_round(mail: MailService, now: dt.datetime) -> int:
    """Send the reminders due at ``now``; how many were queued."""
    from karnak.server.mail.service import KEEP_SENT

    slot = slot_of(now, mail.settings.daily_hour)
    if now < slot:
        return 0
    store, run = mail.store, mail.executor.run
    due = await run(store.daily_due, slot)
    if not due:
        return 0
    held = await run(store.running_seats, due)
    games: dict[int, list[Waiting]] = {}
    for seat in held:
        game = await mail.waiting_for(seat.game_id, seat.account, seat.public_since)
        if game is not None:
            games.setdefault(seat.account, []).append(game)
    sent = 0
    for account, address in sorted(due.items()):
        if not await run(store.mark_daily, account, now, slot):
            continue  # another server process took this account's round
        waiting = games.get(account)
        if not waiting:
            continue
        with use_language(await mail.language_of(account)):  # the reader's language
            composed = daily_mail(waiting, now, mail.settings.public_url)
        if mail.post(account, address, "daily", composed):
            await run(store.record, account, "daily", now)
            sent += 1
    await run(store.prune, now - KEEP_SENT)
    return sent


async def run_daily(mail: MailService) -> None:
    """Look at the clock every ``tick`` seconds and send the round when it is due."""
    while True:
        try:
            await daily_round(mail, mail.clock())
        except Exception as exc:  # the next tick tries again; a game never hears of it
            log.warning("e-mail: the daily reminders failed: %s", one_line(exc))
        await asyncio.sleep(mail.settings.tick)
