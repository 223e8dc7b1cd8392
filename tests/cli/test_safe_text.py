"""karnak.core.safe_text: what a terminal would obey is gone, every printable character stays."""

from __future__ import annotations

import pytest

from karnak.core.safe_text import safe_lines, safe_markup, safe_names, safe_text

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        # OSC: the window title, the clipboard (OSC 52), a hyperlink; BEL or ST ends them
        (f"Ana{ESC}]0;owned{BEL}", "Ana"),
        (f"Ana{ESC}]2;owned{ST} Lee", "Ana Lee"),
        (f"Cy{ESC}]52;c;ZWNobyBoaQ=={BEL}", "Cy"),
        (f"{ESC}]8;;https://evil.example{ST}Ra{ESC}]8;;{ST}", "Ra"),
        (f"Un{ESC}]0;runs to the end", "Un"),  # unterminated: swallowed, as a terminal would
        # CSI: clear the screen and the scrollback, colours, cursor moves, private modes
        (f"Bo{ESC}[2J{ESC}[3J{ESC}[H", "Bo"),
        (f"{ESC}[31;1mRed{ESC}[0m", "Red"),
        (f"Up{ESC}[10A{ESC}[?1049h", "Up"),
        # DCS, APC, PM, SOS strings; two-character escapes (ESC c resets the terminal)
        (f"D{ESC}Pq#0;2;0;0;0{ST}i", "Di"),
        (f"A{ESC}_payload{ST}p", "Ap"),
        (f"Re{ESC}c{ESC}7{ESC}(B", "Re"),
        # their 8-bit forms (C1): CSI, OSC ... ST
        ("\x9b2JEd\x9d0;title\x9c", "Ed"),
        # lone controls: newline, carriage return, tab, NUL, DEL, C1, a trailing ESC
        ("Li\nne\r\tx\x00\x7f\x85", "Linex"),
        (f"End{ESC}", "End"),
        # bidirectional overrides, embeddings, isolates and marks
        ("Ra\u202emses\u2066x\u2069\u200f\u061c", "Ramsesx"),
    ],
)
def test_escape_sequences_and_controls_are_removed(raw: str, shown: str) -> None:
    assert safe_text(raw) == shown
    assert safe_text(shown) == shown


@pytest.mark.parametrize(
    "name",
    [
        "Hatshepsut",
        "Néfertiti",
        "Ἀθηνᾶ",
        "ラムセス",
        "Nefer\u200dtiti 👩\u200d👩\u200d👧",
        "[red]x[/red]",
    ],
)
def test_printable_text_is_kept_as_it_is(name: str) -> None:
    assert safe_text(name) == name


def test_markup_is_escaped_where_rich_would_read_it() -> None:
    assert safe_markup(f"[bold]Di[/bold]{ESC}[2J") == "\\[bold]Di\\[/bold]"


def test_line_breaks_of_a_message_stay() -> None:
    assert safe_lines(f"one{ESC}[2J\ntwo{BEL}") == "one\ntwo"


def test_a_name_left_empty_is_called_by_its_seat() -> None:
    assert safe_names(["Ana", f"{ESC}[2J", ""]) == ["Ana", "seat 2", "seat 3"]
