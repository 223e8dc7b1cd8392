"""Account names: how one is written, and when two names are one.

Two names are one when a reader could take one for the other: the same letters in another
case (``Ana``, ``ANA``), in another width (the full-width letters of East Asian text, U+FF21
onwards), with the spaces moved or doubled (``Hat  shepsut``, ``Hat shepsut``), or written
with letters of another script that look the same (``Hatshepsut`` with a Cyrillic dze,
U+0455, for its first ``s``). A new name that is one with a taken name is refused: nobody
can pass for someone else in a game's seat list, a chat line or an invitation.

What a name is made into, in order:

1. **Shown** (:func:`shown_name`): NFKC (compatibility forms become their plain letters:
   full-width H, U+FF28, is ``H``; the ligature fi, U+FB01, is ``fi``), stripped; refused
   with a reason when it holds a control, format or invisible character (a zero-width
   joiner, a Hangul filler), two spaces in a row, or anything but letters, digits, spaces,
   dots, apostrophes, hyphens and underscores.
2. **Compared** (:func:`name_skeleton`): the UTS #39 *skeleton* of the shown name, folded
   for case, skeleton again, and without spaces. The skeleton (Unicode Technical Standard
   #39, "Unicode Security Mechanisms", section 4) maps every character to the prototype it
   can be confused with: the Cyrillic dze (U+0455) and Latin ``s`` both become ``s``;
   ``I``, ``l`` and ``1`` all become ``l``; ``m`` becomes ``rn``. It is taken before and
   after the case fold because the fold alone would miss ``I`` (capital i) against ``l``
   (small L), and the skeleton alone would miss ``A`` against ``a``.

The skeleton's data: no installed library computes the UTS #39 skeleton itself.
``confusable-homoglyphs`` (a dependency of the server) ships Unicode's ``confusables.txt``
as JSON, but undirected: each line "source → prototype" became an entry under both
characters. The direction comes back from the shape of that data: a prototype lists every
character confusable with it, and a source lists exactly its prototype, so a character with
one entry whose entry lists it back and others is a source. Where a prototype has a single
source the two list each other and nothing tells which is which; both then map to the lower
code point of the two. That keeps what matters, which characters are one (each such pair is
one class either way), while the skeleton's text may differ from Unicode's for those
characters; the mapping is applied again to its own output until nothing changes, so it is
consistent. When the library's data changes, a stored skeleton stays as it was computed at
sign-up (or by migration 0014): it still refuses every name that looked like it under the
old data, and may miss a look-alike that only the new data knows of.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from importlib import resources

from karnak.core.errors import KarnakError
from karnak.i18n import t

MIN_NAME, MAX_NAME = 2, 40
#: The longest skeleton stored as it is; a longer one is stored as its hash (one character
#: can become up to 18, so a 40-character name could exceed the column).
MAX_SKELETON = 200
#: A name once shown: letters, digits, spaces, dots, apostrophes, hyphens or underscores,
#: beginning and ending with a letter or digit.
NAME = re.compile(r"[^\W_](?:[\w .'-]{0,38}[^\W_])?")
#: Letters (for the regular expression) that show as nothing: fillers of the Hangul
#: script, the braille blank; NFKC keeps them and ``\w`` takes most of them.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
#: The marks confusables.txt's comments wrap right-to-left characters in.
_LRM = "\u200e"


class BadNameError(KarnakError, ValueError):
    """A name that cannot be an account's (the message says why)."""


def shown_name(name: str) -> str:
    """The name as it will be shown, or :class:`BadNameError` saying what is wrong with it."""
    name = unicodedata.normalize("NFKC", name).strip()
    for char in name:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or char in INVISIBLE:
            raise BadNameError(
                t(
                    "a name cannot hold control, format or invisible characters (found U+{code})",
                    code=format(ord(char), "04X"),
                )
            )
        if char.isspace() and char != " ":
            raise BadNameError(
                t(
                    "a name's only space is the ordinary space (found U+{code})",
                    code=format(ord(char), "04X"),
                )
            )
    if len(name) < MIN_NAME or len(name) > MAX_NAME:
        raise BadNameError(
            t("a name has {least} to {most} characters", least=MIN_NAME, most=MAX_NAME)
        )
    if "  " in name:
        raise BadNameError(t("a name cannot hold two spaces in a row"))
    if not NAME.fullmatch(name):
        raise BadNameError(
            t(
                "a name is made of letters, digits, spaces, dots, apostrophes, hyphens and "
                "underscores, and begins and ends with a letter or a digit"
            )
        )
    return name


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (see the module's docstring for how the
    direction of Unicode's mapping is recovered from the library's data)."""
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    raw: dict[str, list[dict[str, str]]] = json.loads(text)
    graph = {
        key.replace(_LRM, ""): [entry["c"].replace(_LRM, "") for entry in entries]
        for key, entries in raw.items()
    }
    mapping: dict[str, str] = {}
    for char, others in graph.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (of several), or a sequence (prototypes only)
        target = others[0]
        if len(target) != 1 or graph.get(target) != [char]:
            mapping[char] = target  # the source of a prototype
        else:
            mapping[char] = min(char, target)  # a pair: either could be the prototype
    return mapping


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, every character to its prototype, NFD again,
    until nothing changes (a few rounds at most)."""
    prototypes = _prototypes()
    current = unicodedata.normalize("NFD", text)
    for _ in range(4):
        mapped = unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in current))
        if mapped == current:
            break
        current = mapped
    return current


def name_skeleton(name: str) -> str:
    """What two names are compared by: equal for names a reader could take for each other
    (case, width, spaces and look-alike letters aside). Bounded for its column: a very long
    one is stored as its hash."""
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    compared = "".join(folded.split())
    if len(compared) > MAX_SKELETON:
        return "#" + hashlib.sha256(compared.encode()).hexdigest()
    return compared
