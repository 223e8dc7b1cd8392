"""Karnak in several languages: gettext catalogues read with Babel, one domain per part.

- :mod:`~karnak.i18n.languages`: the supported languages and how one is chosen (a browser's
  ``Accept-Language``, the terminal's environment);
- :mod:`~karnak.i18n.context`: the language of the text being made now;
- :mod:`~karnak.i18n.domain`: a domain's catalogues and its ``_``/``ngettext``;
- :mod:`~karnak.i18n.catalogs`: the domains Karnak has (its own and each game's), extraction
  and the checks (``make messages``).

The generic domain's functions are imported from here (``from karnak.i18n import _``); a game
imports its own from its package (``karnak.games.<game>.texts``).
"""

from __future__ import annotations

from pathlib import Path

from karnak.i18n.context import current_language, set_language, use_language
from karnak.i18n.domain import N_, Domain, pseudo
from karnak.i18n.languages import (
    ENGLISH,
    LANGUAGE_NAMES,
    PSEUDO,
    SUPPORTED,
    TRANSLATED,
    from_environment,
    negotiate,
    normalise,
)

#: The generic layers' domain: the site, the terminal, the bots.
KARNAK = Domain(
    "karnak",
    Path(__file__).resolve().parent.parent / "locale",
    exclude=("games",),
)
_ = KARNAK.gettext
ngettext = KARNAK.ngettext
pgettext = KARNAK.pgettext
t = KARNAK.t

__all__ = [
    "ENGLISH",
    "KARNAK",
    "LANGUAGE_NAMES",
    "N_",
    "PSEUDO",
    "SUPPORTED",
    "TRANSLATED",
    "Domain",
    "_",
    "current_language",
    "from_environment",
    "negotiate",
    "ngettext",
    "normalise",
    "pgettext",
    "pseudo",
    "set_language",
    "t",
    "use_language",
]
