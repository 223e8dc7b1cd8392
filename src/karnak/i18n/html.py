"""Texts of Karnak's HTML pages: an element marked ``data-i18n`` has its text translated.

The server translates a page as it sends it (:func:`translate_html`), so the first paint is in
the reader's language; :func:`extract_html` finds the same texts for the catalogues. An
attribute is translated when the element lists it in ``data-i18n-attrs`` (``title``,
``placeholder``, ``aria-label``...).
"""

from __future__ import annotations

from pathlib import Path


def extract_html(path: Path) -> list[tuple[int, str, list[str], str | None]]:
    """``(line, text, comments, context)`` for each marked text of the page at ``path``."""
    return []
