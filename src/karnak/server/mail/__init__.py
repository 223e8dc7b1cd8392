"""E-mail: what reaches a player who is away ("your turn", invitations, a daily reminder).

- :mod:`.settings`: the SMTP server (off unless configured), the base of the links, the hours;
- :mod:`.preferences` and :mod:`.tables`: each account's address (confirmed by a one-time
  link before anything else is sent to it) and what it asks for;
- :mod:`.service`: which notifications become e-mails, and when not (a page open, one
  "your turn" per game every few hours, invitations per hour), confirmations and their spacing;
- :mod:`.reminders`: the daily reminder of the games waiting, never twice a day;
- :mod:`.compose`: the words, from public facts only, with links that log nobody in;
- :mod:`.sender`: smtplib in a thread of its own behind a bounded queue;
- :mod:`.routes`: ``/api/account/email`` and the service's start and stop.

This package imports nothing at its top, so that ``karnak.server.db`` can import its tables.
"""
