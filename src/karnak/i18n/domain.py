"""A translation domain: one catalogue per language for one part of Karnak.

Karnak has one domain for its generic layers (``karnak``: the site, the terminal, the bots'
names) and one per game, kept in the game's own package (``karnak.games.aton`` has the domain
``aton`` in ``games/aton/locale``), so a game brings its translations with it as it brings
its rules. A module binds the functions of its domain once::

    from karnak.games.aton.texts import _, ngettext

and calls them where the text is made, so the current language (see
:mod:`karnak.i18n.context`) decides. Placeholders are ``str.format`` names (``{who}``),
the same in every language, so a translation may reorder them.

Catalogues are the ``.po`` files themselves, compiled in memory on first use (Babel reads
them; the standard library's ``gettext`` answers): no compiled ``.mo`` files to keep in
step, and a fuzzy or empty entry falls back to English.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from karnak.i18n.context import current_language
from karnak.i18n.languages import ENGLISH, PSEUDO, TRANSLATED

#: Pseudo-locale brackets: text between them went through a catalogue.
PSEUDO_OPEN = "⟦"
PSEUDO_CLOSE = "⟧"
#: How the context and the message are joined in a catalogue key (gettext's convention).
CONTEXT_SEPARATOR = "\x04"


def N_(message: str) -> str:
    """Marks a text for extraction without translating it now (a module-level constant that is
    translated with ``_`` where it is shown)."""
    return message


def pseudo(text: str) -> str:
    """``text`` as the pseudo-locale shows it."""
    return f"{PSEUDO_OPEN}{text}{PSEUDO_CLOSE}"


class Domain:
    """The catalogues of one domain, in ``directory/<lang>/LC_MESSAGES/<name>.po``.

    ``translated_args`` names the log-event arguments whose values are words of the game
    (a province, a colour) and are translated with the template; any other argument (a
    player's name, a number) is left as it is.
    """

    def __init__(
        self,
        name: str,
        directory: Path,
        *,
        translated_args: frozenset[str] = frozenset(),
        sources: tuple[Path, ...] | None = None,
        exclude: tuple[str, ...] = (),
        log_templates: bool = False,
    ) -> None:
        self.name = name
        self.directory = directory
        self.translated_args = translated_args
        #: Where extraction looks for this domain's texts (default: the folder holding
        #: ``locale/``), less the folders named in ``exclude`` (relative to a source).
        self.sources = sources if sources is not None else (directory.parent,)
        self.exclude = exclude
        #: Whether ``log.add("template", ...)`` calls are texts of this domain (a game's
        #: rules write their log lines that way).
        self.log_templates = log_templates
        self._lock = threading.Lock()
        self._catalogues: dict[str, stdlib_gettext.NullTranslations] = {}

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, {str(self.directory)!r})"

    def po_path(self, language: str) -> Path:
        return self.directory / language / "LC_MESSAGES" / f"{self.name}.po"

    # -- translating -------------------------------------------------------------------------

    def gettext(self, message: str) -> str:
        """``message`` in the current language (English: itself)."""
        language = current_language()
        if language == ENGLISH:
            return message
        if language == PSEUDO:
            return pseudo(message)
        return self.translations(language).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` in the current language (``{n}`` is not filled in here)."""
        language = current_language()
        if language == ENGLISH:
            return singular if n == 1 else plural
        if language == PSEUDO:
            return pseudo(singular if n == 1 else plural)
        return self.translations(language).ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` where the same English word needs different translations (a context)."""
        language = current_language()
        if language == ENGLISH:
            return message
        if language == PSEUDO:
            return pseudo(message)
        return self.translations(language).pgettext(context, message)

    def t(self, message: str, /, **args: Any) -> str:
        """``gettext(message).format(**args)``: the common case in one call (the page's
        script has the same ``t(message, {args})``)."""
        return self.gettext(message).format(**args)

    def event_text(self, template: str, args: Mapping[str, Any]) -> str:
        """A log line in the current language: the template translated, and each argument
        named in ``translated_args`` translated when it is a string."""
        if current_language() == ENGLISH:
            return template.format(**args)
        words = {
            key: self.log_argument(key, value)
            if key in self.translated_args and isinstance(value, str)
            else value
            for key, value in args.items()
        }
        return self.gettext(template).format(**words)

    def log_argument(self, key: str, value: str) -> str:
        """One argument named in ``translated_args``, in the current language: a game word
        by default; a game whose rules put phrases together overrides it to say them again."""
        return self.gettext(value)

    # -- catalogues --------------------------------------------------------------------------

    def translations(self, language: str) -> stdlib_gettext.NullTranslations:
        """The compiled catalogue of ``language`` (an empty one where there is no file)."""
        found = self._catalogues.get(language)
        if found is None:
            with self._lock:
                found = self._catalogues.get(language)
                if found is None:
                    found = self._compile(language)
                    self._catalogues[language] = found
        return found

    def _compile(self, language: str) -> stdlib_gettext.NullTranslations:
        path = self.po_path(language)
        if language not in TRANSLATED or not path.is_file():
            return stdlib_gettext.NullTranslations()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with path.open("rb") as source:
            catalog = read_po(source, locale=language, domain=self.name)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)  # fuzzy entries are left out: they fall back to English
        buffer.seek(0)
        return stdlib_gettext.GNUTranslations(buffer)

    def reload(self) -> None:
        """Forgets the compiled catalogues (after the ``.po`` files changed)."""
        with self._lock:
            self._catalogues.clear()

    def messages(self, language: str) -> dict[str, Any]:
        """The catalogue of ``language`` as JSON for the page's script: ``{"language",
        "plural" (the catalogue's plural-forms expression), "messages": {key: text or
        [forms]}}``, where a key is the English text (``context\\x04text`` with a context;
        plural entries are keyed by the singular). English and the pseudo-locale carry no
        messages: the script shows (or brackets) the English itself."""
        payload: dict[str, Any] = {"language": language, "plural": "n != 1", "messages": {}}
        path = self.po_path(language)
        if language not in TRANSLATED or not path.is_file():
            return payload
        from babel.messages.pofile import read_po

        with path.open("rb") as source:
            catalog = read_po(source, locale=language, domain=self.name)
        payload["plural"] = catalog.plural_expr
        messages: dict[str, Any] = {}
        for message in catalog:
            if not message.id or message.fuzzy or not message.string:
                continue
            if isinstance(message.id, tuple | list):
                forms = list(message.string)
                if not all(forms):
                    continue
                key = message.id[0]
                value: Any = forms
            else:
                key = message.id
                value = message.string
            if message.context:
                key = f"{message.context}{CONTEXT_SEPARATOR}{key}"
            messages[key] = value
        payload["messages"] = messages
        return payload
