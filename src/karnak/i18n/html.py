"""Texts of Karnak's HTML pages: an element marked ``data-i18n`` has its text translated.

The server translates a page as it sends it (:func:`translate_html`), so the first paint is in
the reader's language; :func:`extract_html` finds the same texts for the catalogues. An
attribute is translated when the element lists it in ``data-i18n-attrs`` (``title``,
``placeholder``, ``aria-label``...).

How a page marks its texts:

- ``<p data-i18n>Some words</p>``: the element's content is one message. It may hold inline
  markup (``<strong>``, ``<code>``, ``<a href=...>``): the message is then the content's
  HTML, with runs of white space made one space, and the translation keeps the same tags.
- ``data-i18n="context"``: a non-empty value is the message's context (``pgettext``).
- ``<input data-i18n-attrs="placeholder aria-label" ...>``: those attributes' values are
  messages (the element's own content is left alone unless it is marked too).

A translation is trusted markup: it comes from the project's own catalogues.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from karnak.i18n.domain import Domain

#: Attributes that may be listed in ``data-i18n-attrs`` (anything else is left as written).
TRANSLATABLE_ATTRIBUTES = frozenset(
    {"title", "placeholder", "aria-label", "alt", "value", "label", "content", "data-tip"}
)
VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
_SPACE = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """A message as the catalogue keys it: runs of white space as one space, trimmed."""
    return _SPACE.sub(" ", text).strip()


@dataclass
class _Edit:
    start: int
    end: int
    kind: str  # "content" or "tag"
    line: int
    tag: str = ""
    context: str | None = None
    attrs: list[tuple[str, str | None]] = field(default_factory=list)
    translated: tuple[str, ...] = ()
    self_closing: bool = False


class _Scanner(HTMLParser):
    """Finds the spans a translation replaces: marked elements' contents and the start tags
    of elements with translated attributes (offsets into the page's text)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0]
        for match in re.finditer("\n", text):
            self.line_starts.append(match.end())
        self.edits: list[_Edit] = []
        #: open marked elements: (tag, depth of that tag inside it, the edit)
        self.open: list[tuple[str, list[int], _Edit]] = []

    def _position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], closed: bool) -> None:
        start = self._position()
        raw = self.get_starttag_text() or ""
        end = start + len(raw)
        for _tag, depth, _edit in self.open:
            if _tag == tag and not closed and tag not in VOID:
                depth[0] += 1
        values = dict(attrs)
        listed = (values.get("data-i18n-attrs") or "").split()
        translated = tuple(a for a in listed if a in TRANSLATABLE_ATTRIBUTES and values.get(a))
        line = self.getpos()[0]
        if translated:
            self.edits.append(
                _Edit(
                    start,
                    end,
                    "tag",
                    line,
                    tag=tag,
                    attrs=attrs,
                    translated=translated,
                    self_closing=raw.rstrip().endswith("/>"),
                )
            )
        if "data-i18n" in values and not closed and tag not in VOID:
            context = values["data-i18n"] or None
            edit = _Edit(end, end, "content", line, tag=tag, context=context)
            self.open.append((tag, [0], edit))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=True)

    def handle_endtag(self, tag: str) -> None:
        if not self.open:
            return
        position = self._position()
        for index in range(len(self.open) - 1, -1, -1):
            open_tag, depth, edit = self.open[index]
            if open_tag != tag:
                continue
            if depth[0] > 0:
                depth[0] -= 1
                return
            edit.end = position
            self.edits.append(edit)
            del self.open[index]
            return


def _scan(text: str) -> list[_Edit]:
    scanner = _Scanner(text)
    scanner.feed(text)
    scanner.close()
    return sorted(scanner.edits, key=lambda edit: edit.start)


def _render_tag(edit: _Edit, translate: Callable[[str, str | None], str]) -> str:
    parts = [edit.tag]
    for name, value in edit.attrs:
        if value is None:
            parts.append(name)
            continue
        if name in edit.translated:
            value = translate(normalise_text(value), None)
        parts.append(f'{name}="{html.escape(value, quote=True)}"')
    return "<" + " ".join(parts) + (" />" if edit.self_closing else ">")


def _messages(text: str) -> list[tuple[int, str, str | None]]:
    found: list[tuple[int, str, str | None]] = []
    for edit in _scan(text):
        if edit.kind == "tag":
            values = dict(edit.attrs)
            for name in edit.translated:
                message = normalise_text(html.unescape(values[name] or ""))
                if message:
                    found.append((edit.line, message, None))
        else:
            message = normalise_text(text[edit.start : edit.end])
            if message:
                found.append((edit.line, message, edit.context))
    return found


def translate_with(text: str, translate: Callable[[str, str | None], str]) -> str:
    """``text`` with each marked message replaced by ``translate(message, context)``.

    An attribute's message is its unescaped value (escaped again once translated); an
    element's message is its content's HTML as written (white space made single)."""
    edits = _scan(text)
    out: list[str] = []
    cursor = 0
    # Tag edits sit before (outside) the content edits they may enclose: both kinds are
    # disjoint spans, except a content edit nested in another one, which is skipped (the
    # outer message holds it).
    for edit in edits:
        if edit.start < cursor:
            continue
        out.append(text[cursor : edit.start])
        if edit.kind == "tag":
            unescaped = [
                (name, html.unescape(value) if value is not None else None)
                for name, value in edit.attrs
            ]
            out.append(_render_tag(_Edit(**{**edit.__dict__, "attrs": unescaped}), translate))
        else:
            original = text[edit.start : edit.end]
            message = normalise_text(original)
            out.append(translate(message, edit.context) if message else original)
        cursor = edit.end
    out.append(text[cursor:])
    return "".join(out)


def translate_html(text: str, domain: Domain) -> str:
    """The page ``text`` with its marked texts in the current language (through ``domain``).

    A message without a translation stays in English (in the pseudo-locale it is
    bracketed, like every other text that went through a catalogue)."""

    def translate(message: str, context: str | None) -> str:
        if context:
            return domain.pgettext(context, message)
        return domain.gettext(message)

    return translate_with(text, translate)


def extract_html(path: Path) -> list[tuple[int, str, list[str], str | None]]:
    """``(line, text, comments, context)`` for each marked text of the page at ``path``."""
    text = path.read_text(encoding="utf-8")
    return [(line, message, [], context) for line, message, context in _messages(text)]
