"""The language of the text being made now: one context variable, set per request or command.

A web request sets it from the account's setting or the browser's ``Accept-Language`` and the
terminal from ``--lang`` or the environment; every :class:`~karnak.i18n.domain.Domain` reads
it when it translates. A context variable (not a global) lets one server answer a German and
a French request at the same time, each in its own language.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from karnak.i18n.languages import ENGLISH, normalise

_language: ContextVar[str] = ContextVar("karnak_language", default=ENGLISH)


def current_language() -> str:
    """The language texts are translated into now (``en`` unless someone set another)."""
    return _language.get()


def set_language(language: str) -> None:
    """Sets the language for the rest of this context (a command's whole run)."""
    _language.set(_checked(language))


@contextmanager
def use_language(language: str) -> Iterator[str]:
    """Translates into ``language`` inside the ``with`` block, then restores the previous one."""
    token = _language.set(_checked(language))
    try:
        yield language
    finally:
        _language.reset(token)


def _checked(language: str) -> str:
    checked = normalise(language, pseudo=True)
    if checked is None:
        raise ValueError(f"unsupported language {language!r}")
    return checked
