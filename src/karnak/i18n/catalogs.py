"""Karnak's domains, the extraction of their texts, and the checks the tests run.

``python -m karnak.i18n.catalogs update`` (``make messages``) extracts every marked text of
every domain and merges it into each language's ``.po`` file, keeping the translations already
there (a changed English text becomes fuzzy, and shows in English until a translator looks).
``python -m karnak.i18n.catalogs check`` lists what is untranslated.

What extraction finds, per source file:

- Python: ``_``, ``t``, ``ngettext``, ``pgettext``, ``N_`` (and ``add`` in a domain with
  ``log_templates``: a rule's ``self.log.add("template", ...)``);
- the browsers' scripts (``*.js``): ``t("text", {...})``, ``nt("one", "many", n, {...})``;
- HTML pages: the text of elements marked ``data-i18n`` (see :mod:`karnak.i18n.html`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from karnak.i18n import KARNAK
from karnak.i18n.domain import Domain
from karnak.i18n.languages import TRANSLATED

PYTHON_KEYWORDS: dict[str, Any] = {
    "_": None,
    "t": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
SCRIPT_KEYWORDS: dict[str, Any] = {"t": None, "nt": (1, 2), "pt": ((1, "c"), 2)}
COMMENT_TAGS = ("TRANSLATORS:",)
#: Each language's plural forms, as gettext (and the page's script) reads them: two forms in
#: both (French counts 0 as singular). Babel's CLDR data would give French a third form for
#: millions; Karnak's catalogues keep the classic two.
PLURAL_FORMS = {"de": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}


def domains() -> list[Domain]:
    """Karnak's own domain, then each game's (a game without one has no texts to translate)."""
    from karnak.core.registry import plugins

    found = [KARNAK]
    for plugin in plugins().values():
        domain = plugin.text_domain()
        if domain is not None:
            found.append(domain)
    return found


def _source_files(domain: Domain) -> Iterator[tuple[Path, str]]:
    for root in domain.sources:
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root)
            if any(
                relative.parts[: len(Path(ex).parts)] == Path(ex).parts for ex in domain.exclude
            ):
                continue
            if "locale" in relative.parts or "__pycache__" in relative.parts:
                continue
            if path.suffix == ".py":
                yield path, "python"
            elif path.suffix == ".js":
                yield path, "javascript"
            elif path.suffix == ".html":
                yield path, "html"


def extract(domain: Domain):  # type: ignore[no-untyped-def]  # babel is untyped
    """Every text of ``domain`` as a Babel ``Catalog`` (the template, no translations)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    catalog = Catalog(domain=domain.name, project="Karnak", charset="utf-8")
    python_keywords = dict(PYTHON_KEYWORDS)
    if domain.log_templates:
        python_keywords["add"] = None
    base = domain.sources[0]
    for path, method in _source_files(domain):
        if method == "html":
            from karnak.i18n.html import extract_html

            found: list[tuple[int, Any, list[str], str | None]] = list(extract_html(path))
        else:
            keywords = python_keywords if method == "python" else SCRIPT_KEYWORDS
            found = extract_from_file(
                method,
                str(path),
                keywords=keywords,
                comment_tags=COMMENT_TAGS,
                strip_comment_tags=True,
            )
        try:
            location = str(path.relative_to(base))
        except ValueError:
            location = path.name
        for lineno, message, comments, context in found:
            if isinstance(message, tuple) and not message[0]:
                continue
            if not message:
                continue
            catalog.add(
                message, None, [(location, lineno)], auto_comments=comments, context=context
            )
    return catalog


def update(domain: Domain) -> None:
    """Merges the extracted texts into each language's ``.po`` file of ``domain``."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = extract(domain)
    for language in TRANSLATED:
        path = domain.po_path(language)
        if path.is_file():
            with path.open("rb") as source:
                catalog = read_po(source, locale=language, domain=domain.name)
        else:
            catalog = Catalog(locale=language, domain=domain.name, project="Karnak")
        if language in PLURAL_FORMS:
            catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
        catalog.update(template, no_fuzzy_matching=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as target:
            write_po(target, catalog, width=100, omit_header=False, ignore_obsolete=True)
    domain.reload()


def missing(domain: Domain) -> dict[str, list[str]]:
    """language -> the extracted texts of ``domain`` without a (non-fuzzy) translation."""
    from babel.messages.pofile import read_po

    template = extract(domain)
    found: dict[str, list[str]] = {}
    for language in TRANSLATED:
        path = domain.po_path(language)
        translated: set[object] = set()
        if path.is_file():
            with path.open("rb") as source:
                catalog = read_po(source, locale=language, domain=domain.name)
            for message in catalog:
                strings = (
                    message.string if isinstance(message.string, tuple | list) else [message.string]
                )
                if message.id and not message.fuzzy and all(strings):
                    translated.add((message.context, message.id))
        absent = [
            message.id if isinstance(message.id, str) else message.id[0]
            for message in template
            if message.id and (message.context, message.id) not in translated
        ]
        if absent:
            found[language] = absent
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    chosen = set(argv[1:])
    selected = [d for d in domains() if not chosen or d.name in chosen]
    if command == "update":
        for domain in selected:
            update(domain)
            print(f"{domain.name}: {len(extract(domain))} texts")
        return 0
    if command == "check":
        status = 0
        for domain in selected:
            for language, texts in missing(domain).items():
                status = 1
                print(f"{domain.name} [{language}]: {len(texts)} untranslated")
                for text in texts[:20]:
                    print(f"    {text!r}")
        return status
    print("usage: python -m karnak.i18n.catalogs update|check [DOMAIN ...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
