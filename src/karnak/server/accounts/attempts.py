"""Log-in attempts counted per account name, whoever makes them.

The per-client allowance (``account_attempts_per_minute``) stops one address from guessing
fast, but not a crowd of addresses (a botnet, a pool of proxies) taking turns at one name.
So every log-in attempt also counts against the *name* it tries, from any address:
``login_attempts_per_name`` in ``login_name_minutes`` (10 in 15 minutes by default); past
it, 429 with Retry-After until the sliding window lets one more in.

How it is kept sound and simple:

- **Counted before the password is checked**, and every attempt counts, the right one too.
  Counting only failures would mean checking first and counting after, and a thousand
  guesses sent at the same moment would all be checked before any was counted. With the
  count first, the ``limits`` library's atomic hit (in Redis when a broker is set, shared
  by every process) lets exactly the allowance through; a person logging in once uses one
  of ten, and a success resets nothing (the owner logging in would otherwise hand whoever
  is guessing a fresh allowance).
- **Names that exist and names that do not are counted alike**, with the same answer, so
  the refusal tells nothing about which names are accounts. The name is counted by its key
  (case folded, as the log-in looks it up), hashed: no name is written to Redis.

The trade-off, accepted and documented in docs/security.md: someone who keeps trying a name
(ten tries a quarter of an hour) keeps its owner from logging in with a password from a new
browser meanwhile. Sessions already open are not touched (a log-in lasts 30 days), other
names are not touched, and the lock-out ends at most ``login_name_minutes`` after the
attempts stop. An online guesser gets at most about a thousand tries a day per name, far
too few for any password the strength check accepts (karnak.server.accounts.passwords).
"""

from __future__ import annotations

import hashlib
import math

from limits import RateLimitItemPerMinute

from karnak.i18n import t
from karnak.server.accounts.store import name_key
from karnak.server.http_limits import Limiter
from karnak.server.limits import LimitError, ServerSettings

#: The counters' name in the limiter's storage.
COUNTER = "login-name"


def name_counter_key(name: str) -> str:
    """Who an attempt counts against: the looked-up name's key, hashed (the storage never
    holds a name)."""
    return hashlib.sha256(name_key(name.strip()).encode()).hexdigest()[:32]


class NameAttempts:
    """The per-name allowance over ``limiter`` (the server's, shared through Redis)."""

    def __init__(self, limiter: Limiter, settings: ServerSettings) -> None:
        self.limiter = limiter
        self.item = RateLimitItemPerMinute(
            settings.login_attempts_per_name, settings.login_name_minutes
        )
        self.most = settings.login_attempts_per_name
        self.minutes = settings.login_name_minutes

    def count(self, name: str) -> None:
        """Count one log-in attempt at ``name``; LimitError (429) past the allowance."""
        wait = self.limiter.hit(self.item, COUNTER, name_counter_key(name))
        if wait is None:
            return
        wait = min(60.0 * self.minutes, max(1.0, wait))
        raise LimitError(
            t(
                "too many log-in attempts at this name: at most {most} in {minutes} minutes, "
                "from anywhere; try again in {seconds} s",
                most=self.most,
                minutes=self.minutes,
                seconds=math.ceil(wait),
            ),
            status=429,
            retry_after=wait,
        )
