"""Amun-Re in every language Karnak speaks: the game's translation domain, ``amunre``.

Its catalogues live in this package (``locale/<lang>/LC_MESSAGES/amunre.po``), so the game
brings its words with it. Modules of the game import their functions from here::

    from karnak.games.amunre.i18n import _, t, ngettext

The rules write their log lines in English as templates (``log.add("...")``); a client
translates them as it shows them (:meth:`karnak.i18n.Domain.event_text`).
"""

from __future__ import annotations

from pathlib import Path

from karnak.i18n import N_, Domain

DOMAIN = Domain(
    "amunre",
    Path(__file__).resolve().parent / "locale",
    log_templates=True,
    #: Log arguments whose values are words of the game, translated with the line.
    translated_args=frozenset({"province", "card", "cards", "leader", "kingdom"}),
)
_ = DOMAIN.gettext
t = DOMAIN.t
ngettext = DOMAIN.ngettext
pgettext = DOMAIN.pgettext

__all__ = ["DOMAIN", "N_", "_", "ngettext", "pgettext", "t"]
