"""Password hashing with argon2id (the argon2-cffi library), the current standard for it.

Hashing is deliberately slow (tens of milliseconds): callers run it in a worker thread, never
in the event loop. Passwords are bounded (8 to 200 characters) so that nobody can make the
server hash a megabyte.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from karnak.core.errors import KarnakError

MIN_PASSWORD, MAX_PASSWORD = 8, 200

_HASHER = PasswordHasher()
#: Verified against when the name is unknown, so that a wrong name takes as long as a wrong
#: password (no timing tells which names exist).
_DUMMY = _HASHER.hash("karnak: no such account")


class PasswordError(KarnakError, ValueError):
    """A password that cannot be used (too short, too long); the message says why."""


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise PasswordError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise PasswordError(f"a password has at most {MAX_PASSWORD} characters")


def hash_password(password: str) -> str:
    check_password(password)
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (None: an unknown account, always False,
    after the same work as a real check)."""
    if len(password) > MAX_PASSWORD:
        return False
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether a stored hash was made with weaker parameters than today's."""
    return _HASHER.check_needs_rehash(stored)
