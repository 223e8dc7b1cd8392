"""Passwords: how strong a new one must be, and hashing with argon2id (the argon2-cffi
library), the current standard for it.

Hashing is deliberately slow (tens of milliseconds): callers run it in a worker thread, never
in the event loop. Passwords are bounded (8 to 200 characters) so that nobody can make the
server hash a megabyte.

A new password (sign-up, change, reset) must also be hard to guess: :func:`check_password`
asks zxcvbn (Dropbox's estimator, which knows common passwords, names, keyboard walks,
dates and repeats) and refuses a score below :data:`MIN_SCORE`. Score 3 means "safely
unguessable: moderate protection from an offline slow-hash scenario" (about 10^10 guesses);
argon2id is such a slow hash, and the log-in limits stop online guessing long before that,
while a passphrase of three ordinary words already reaches it. The person's own name and the
site's words count as known to an attacker, so ``Hatshepsut123`` is weak for Hatshepsut.
zxcvbn's time grows quickly with the length (it refuses more than 72 characters): only the
first :data:`SCORED_LENGTH` characters are scored; a longer password is at least as strong.
Control characters are refused outright (a NUL cannot be typed, and is not kept by every
system the password may pass through), and so is a password of spaces alone.
"""

from __future__ import annotations

import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from zxcvbn import zxcvbn  # type: ignore[import-untyped]  # no type hints shipped

from karnak.core.errors import KarnakError
from karnak.core.registry import plugins
from karnak.i18n import N_, _, t

MIN_PASSWORD, MAX_PASSWORD = 8, 200
#: The lowest zxcvbn score (0 to 4) a new password may have (see the module's docstring).
MIN_SCORE = 3
#: The characters of a password zxcvbn scores (it is slow, and refuses, past 72).
SCORED_LENGTH = 64
#: Words anyone attacking this site would try first (with every game's names: site_words()).
SITE_WORDS = ("karnak", "egypt", "pharaoh")


def site_words() -> list[str]:
    """:data:`SITE_WORDS` and the names of every registered game, aliases included."""
    words = list(SITE_WORDS)
    for plugin in plugins().values():
        words += [plugin.name, *plugin.aliases]
    return words


_HASHER = PasswordHasher()
#: Verified against when the name is unknown, so that a wrong name takes as long as a wrong
#: password (no timing tells which names exist).
_DUMMY = _HASHER.hash("karnak: no such account")


class PasswordError(KarnakError, ValueError):
    """A password that cannot be used (too short, too long, too easy to guess); the message
    says why."""


def check_length(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise PasswordError(t("a password has at least {n} characters", n=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise PasswordError(t("a password has at most {n} characters", n=MAX_PASSWORD))


def check_password(password: str, name: str) -> None:
    """Whether ``password`` may become the password of the account called ``name``:
    PasswordError saying why not, with zxcvbn's advice when it is too easy to guess. Every
    way of setting a password calls it (sign-up, change, reset)."""
    check_length(password)
    for char in password:
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise PasswordError(
                t(
                    "a password cannot hold control characters (found U+{code})",
                    code=format(ord(char), "04X"),
                )
            )
    if not password.strip():
        raise PasswordError(_("a password cannot be made of spaces alone"))
    known = [name, *name.split(), *site_words()]
    result = zxcvbn(password[:SCORED_LENGTH], user_inputs=known)
    if result["score"] >= MIN_SCORE:
        return
    feedback = result.get("feedback") or {}
    advice = " ".join(
        _(part.strip())  # zxcvbn's English advice, translated in ZXCVBN_ADVICE
        for part in (feedback.get("warning") or "", *(feedback.get("suggestions") or []))
        if part and part.strip()
    )
    raise PasswordError(
        t(
            "this password is too easy to guess: {advice} A few ordinary words in a row make "
            "a strong one.",
            advice=advice or _("add another word or two; uncommon words are better."),
        )
    )


#: zxcvbn's advice, in its English: marked here so that the catalogue translates it.
ZXCVBN_ADVICE = (
    N_("A word by itself is easy to guess."),
    N_("Add another word or two. Uncommon words are better."),
    N_("All-uppercase is almost as easy to guess as all-lowercase."),
    N_("Avoid dates and years that are associated with you."),
    N_("Avoid recent years."),
    N_("Avoid repeated words and characters."),
    N_("Avoid sequences."),
    N_("Avoid years that are associated with you."),
    N_("Capitalization doesn't help very much."),
    N_("Common names and surnames are easy to guess."),
    N_("Dates are often easy to guess."),
    N_("Names and surnames by themselves are easy to guess."),
    N_("No need for symbols, digits, or uppercase letters."),
    N_("Predictable substitutions like '@' instead of 'a' don't help very much."),
    N_("Recent years are easy to guess."),
    N_('Repeats like "aaa" are easy to guess.'),
    N_('Repeats like "abcabcabc" are only slightly harder to guess than "abc".'),
    N_("Reversed words aren't much harder to guess."),
    N_('Sequences like "abc" or "6543" are easy to guess.'),
    N_("Short keyboard patterns are easy to guess."),
    N_("Straight rows of keys are easy to guess."),
    N_("This is a top-10 common password."),
    N_("This is a top-100 common password."),
    N_("This is a very common password."),
    N_("This is similar to a commonly used password."),
    N_("Use a few words, avoid common phrases."),
    N_("Use a longer keyboard pattern with more turns."),
)


def hash_password(password: str) -> str:
    """The stored form of a password; only its length is checked here (a stored password
    rehashed at log-in keeps working however weak): call :func:`check_password` first for
    a new one."""
    check_length(password)
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
