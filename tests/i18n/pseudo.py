"""What a page in the pseudo-locale may show outside ⟦…⟧: names, numbers and symbols only."""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: Words allowed outside the brackets: the site's and the games' names (proper names, the
#: same in every language), and units written the same everywhere.
ALLOWED_WORDS = frozenset(
    {"Karnak", "Amun-Re", "Aton", "Egyptia", "UTC", "English", "Deutsch", "Français"}
)
#: Digits, white space, punctuation and symbols (no letter of any script).
SYMBOLS = re.compile(r"^[\W\d_]*$")


def outside_brackets(text: str) -> str:
    """``text`` less every ⟦…⟧ span (nested spans count once)."""
    out: list[str] = []
    depth = 0
    for char in text:
        if char == "⟦":
            depth += 1
        elif char == "⟧":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def stray_words(text: str, extra: frozenset[str] = frozenset()) -> list[str]:
    """The words of ``text`` outside ⟦…⟧ that are neither allowed names nor symbols."""
    allowed = ALLOWED_WORDS | extra
    found = []
    for word in outside_brackets(text).split():
        token = word.strip(".,:;!?()[]«»\"'·\u2013\u2014…")
        if not token or SYMBOLS.match(token) or token in allowed:
            continue
        found.append(word)
    return found


class _Text(HTMLParser):
    """The text a reader sees of a page as served: text nodes, and the attributes read out
    (title, placeholder, aria-label, alt), less scripts and styles."""

    READ = ("title", "placeholder", "aria-label", "alt", "data-tip")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in self.READ and value:
                self.parts.append(f" {value} ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def served_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)
