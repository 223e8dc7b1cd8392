"""Text from elsewhere made safe to print in a terminal: names from a record, a saved game,
a server's database.

A terminal obeys what it prints. A player's name in a record is only text to the game, but
``ESC [ 2 J`` in it clears the screen, ``ESC ] 0 ; ... BEL`` sets the window's title,
``ESC ] 52 ; c ; ... BEL`` writes the clipboard (on terminals that allow it), and a
right-to-left override turns the rest of the line around. The server refuses such names,
but a record is a file anyone can edit. :func:`safe_text` removes all of it:

- escape sequences whole, not only their ESC: CSI (``ESC [`` ... final byte), OSC, DCS,
  SOS, PM and APC strings up to their terminator (BEL or ST) or the end of the text, and
  the two-character escapes; the same sequences in their 8-bit forms (C1 CSI, OSC...);
- every other C0 and C1 control character and DEL (a newline or a carriage return would
  forge a line of the log);
- the bidirectional embedding, override, isolate and mark characters.

Rich reads ``[...]`` in a plain string as markup: :func:`safe_markup` also escapes that,
for the few places that print a string rather than a :class:`rich.text.Text` (which never
reads markup).
"""

from __future__ import annotations

import re

#: Strings that run to a terminator: OSC (]), DCS (P), SOS (X), PM (^) and APC (_), in
#: their 7-bit (ESC and a letter) and 8-bit (one C1 character) forms. They end at BEL or
#: ST (ESC backslash, or C1 ST); an unterminated one runs to the end of the text, where a
#: terminal would have swallowed it all too.
STRINGS = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x9c\x1b]*(?:\x07|\x9c|\x1b\\|$)"
#: Control sequences: CSI (ESC [ or C1 CSI), parameters, intermediates, a final byte.
CSI = r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
#: Any other escape: ESC, intermediates, a final character (ESC c resets the terminal).
ESCAPE = r"\x1b[\x20-\x2f]*[\x30-\x7e]?"
SEQUENCES = re.compile(f"{STRINGS}|{CSI}|{ESCAPE}")
#: What is left: C0 and C1 controls, DEL, and the bidirectional controls and marks
#: (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069).
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def safe_text(text: str) -> str:
    """``text`` without escape sequences, control characters or bidirectional controls."""
    return CONTROLS.sub("", SEQUENCES.sub("", text))


def safe_lines(text: str) -> str:
    """``text`` made safe line by line: its line breaks stay (an error message's)."""
    return "\n".join(safe_text(line) for line in text.split("\n"))


def safe_markup(text: str) -> str:
    """``text`` made safe (:func:`safe_text`) for a string Rich reads as markup."""
    from rich.markup import escape  # only a terminal (the cli extra) asks for markup

    return escape(safe_text(text))


def safe_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """Each name made safe; one left empty by it is called by its seat (``seat 2``)."""
    return [safe_text(name) or f"seat {seat + 1}" for seat, name in enumerate(names)]
