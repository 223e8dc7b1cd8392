"""Pages' texts: what is marked is extracted and translated, and nothing else changes."""

from __future__ import annotations

from pathlib import Path

from karnak.i18n import KARNAK, use_language
from karnak.i18n.html import extract_html, translate_html, translate_with

PAGE = """<!doctype html>
<html lang="en">
<head><title data-i18n>Karnak: lobby</title></head>
<body>
  <h2 data-i18n>New   game</h2>
  <p data-i18n>Play <strong>now</strong>, or
     <a href="/me">later</a>.</p>
  <div data-i18n><div>inner</div> outer</div>
  <button data-i18n="verb">Play</button>
  <input id="name" data-i18n-attrs="placeholder aria-label" placeholder="Your name"
         aria-label="Name &amp; title" required>
  <span title="not marked">Not marked</span>
  <img src="x.svg" alt="A board" data-i18n-attrs="alt" />
  <script type="module" src="/static/x.js"></script>
</body>
</html>
"""


def upper(message: str, context: str | None) -> str:
    return f"[{context or ''}|{message.upper()}]"


def test_marked_texts_are_translated_and_the_rest_is_kept() -> None:
    out = translate_with(PAGE, upper)
    assert "<title data-i18n>[|KARNAK: LOBBY]</title>" in out
    assert "<h2 data-i18n>[|NEW GAME]</h2>" in out
    # inline markup stays part of the message, white space made single
    assert '[|PLAY <STRONG>NOW</STRONG>, OR <A HREF="/ME">LATER</A>.]' in out
    # an element of the same name inside a marked one: the message ends at the right close
    assert "<div data-i18n>[|<DIV>INNER</DIV> OUTER]</div>" in out
    assert '<button data-i18n="verb">[verb|PLAY]</button>' in out
    assert 'placeholder="[|YOUR NAME]"' in out
    assert 'aria-label="[|NAME &amp; TITLE]"' in out  # unescaped, translated, escaped again
    assert "required" in out and 'id="name"' in out
    assert 'alt="[|A BOARD]" data-i18n-attrs="alt" />' in out
    assert '<span title="not marked">Not marked</span>' in out
    assert '<script type="module" src="/static/x.js"></script>' in out


def test_extraction_finds_the_same_messages(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    found = {(message, context): line for line, message, _comments, context in extract_html(page)}
    assert found[("Karnak: lobby", None)] == 3
    assert found[("New game", None)] == 5
    assert ('Play <strong>now</strong>, or <a href="/me">later</a>.', None) in found
    assert ("Play", "verb") in found
    assert ("Your name", None) in found and ("Name & title", None) in found
    assert ("A board", None) in found
    assert not any(message == "Not marked" for message, _ in found)


def test_english_is_unchanged_and_the_pseudo_locale_brackets() -> None:
    with use_language("en"):
        assert translate_html(PAGE, KARNAK) == translate_with(PAGE, lambda m, c: m)
    with use_language("xx"):
        out = translate_html(PAGE, KARNAK)
    assert "<h2 data-i18n>⟦New game⟧</h2>" in out
    assert 'placeholder="⟦Your name⟧"' in out
    assert '<span title="not marked">Not marked</span>' in out


def test_every_static_page_parses_and_keeps_its_length_in_english() -> None:
    static = Path(__file__).resolve().parents[2] / "src/karnak/server/static"
    for page in sorted(static.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        with use_language("en"):
            out = translate_html(text, KARNAK)
        # English changes nothing but white space inside marked texts and attribute quoting
        assert abs(len(out) - len(text)) < len(text) // 5, page.name
