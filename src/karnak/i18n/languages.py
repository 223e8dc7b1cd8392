"""Which languages Karnak speaks, and how a request, an account or a terminal picks one.

English is the source language: every text is written in English in the code and translated
through gettext catalogues (``<package>/locale/<lang>/LC_MESSAGES/<domain>.po``). ``xx`` is a
*pseudo-locale*: every translated text comes back wrapped in ``⟦…⟧``, so a page or a screen
drawn in it shows at a glance (and a test finds) any text that bypassed the catalogues.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

ENGLISH = "en"
#: The languages players can choose, in the order a menu lists them.
SUPPORTED: tuple[str, ...] = ("en", "de", "fr")
#: Each language's name in itself, for the menus.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}
#: The pseudo-locale (tests and translators only; never negotiated from a browser).
PSEUDO = "xx"
#: The languages with a catalogue of their own (English is the source text).
TRANSLATED: tuple[str, ...] = tuple(lang for lang in SUPPORTED if lang != ENGLISH)
#: An ``Accept-Language`` header is read up to this many characters and entries.
MAX_HEADER = 512
MAX_ENTRIES = 16


def normalise(tag: str | None, *, pseudo: bool = False) -> str | None:
    """A supported language for a tag such as ``de-AT``, ``fr_CH.UTF-8`` or ``FR`` (None if
    unsupported). ``pseudo=True`` also accepts :data:`PSEUDO`."""
    if not tag:
        return None
    base = tag.strip().split(".", 1)[0].replace("_", "-").split("-", 1)[0].lower()
    if base in SUPPORTED or (pseudo and base == PSEUDO):
        return base
    return None


def negotiate(accept_language: str | None) -> str:
    """The best supported language for a browser's ``Accept-Language`` header, else English.

    Entries are ranked by their ``q`` weight (a malformed weight counts as 0, ``q=0`` means
    "not this one"); ties keep the header's order. ``*`` stands for English.
    """
    if not accept_language:
        return ENGLISH
    ranked: list[tuple[float, int, str]] = []
    for index, entry in enumerate(accept_language[:MAX_HEADER].split(",")[:MAX_ENTRIES]):
        tag, _, params = entry.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if not 0.0 < weight <= 1.0:
            continue
        language = ENGLISH if tag.strip() == "*" else normalise(tag)
        if language is not None:
            ranked.append((-weight, index, language))
    return min(ranked)[2] if ranked else ENGLISH


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from ``KARNAK_LANG``, then the POSIX variables ``LANGUAGE``
    (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; else English.
    ``C`` and ``POSIX`` mean English."""
    env = os.environ if environ is None else environ
    explicit = normalise(env.get("KARNAK_LANG"), pseudo=True)
    if explicit is not None:
        return explicit
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            if tag.split(".", 1)[0].upper() in ("C", "POSIX"):
                return ENGLISH
            language = normalise(tag)
            if language is not None:
                return language
        if name != "LANGUAGE":
            return ENGLISH
    return ENGLISH
