"""Bounded field types for the API's request bodies: every text, list and object has a size.

Three kinds of text are refused where they arrive, with a 422 that names the field, instead
of failing later where they do harm:

- a lone UTF-16 surrogate (JSON allows ``"\\ud800"``; it is no character, cannot be encoded
  as UTF-8 and so cannot be stored or sent back: it used to end in a 500), anywhere: names,
  option keys and values, moves, bot specs;
- control characters in seat names (C0 and C1 controls, DEL, and the bidirectional
  embedding, override and isolate marks): a name is shown to every player in the log, the
  board and the terminal, where a newline, an escape sequence or a right-to-left override
  would forge text. They are refused rather than stripped, so a name is shown exactly as
  its owner typed it or not at all; joiners and other format characters that emoji and
  scripts need stay allowed;
- anything longer than its bound (the bounds are below, and in the OpenAPI description).

Unions are told apart by the JSON type of the value (a callable discriminator), so a wrong
value gets one error for the type it has, not one for every type it might have had; the
discriminator's tags (see :data:`UNION_TAGS`) are left out of the error's field path.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Discriminator, Field, Tag
from pydantic_core import PydanticCustomError

from karnak.i18n import _

#: The longest seat name (service.create checks the same after stripping spaces).
MAX_NAME = 40
#: Game names, bot specs, option names and the keys of a move's JSON form.
MAX_WORD = 40
#: Short texts: option values, the strings inside a move's JSON form.
MAX_SHORT_TEXT = 200
#: A move written as text ("bid THEBES 6 +blockade", an offering with its cards).
MAX_ACTION_TEXT = 200
#: Options one game may be given, keys of a move's JSON form, items of a list in it.
MAX_OPTIONS = 20
MAX_ACTION_KEYS = 16
MAX_LIST_ITEMS = 16
#: Whole numbers inside options and moves (the largest a JavaScript client holds exactly).
MAX_NUMBER = 2**53
#: Versions count moves; no game comes near this.
MAX_VERSION = 2**31 - 1

#: Bidirectional embedding, override and isolate marks: they reorder the text after them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def no_surrogates(value: Any) -> Any:
    """Refuse a string holding a lone surrogate (Python keeps them; UTF-8 cannot).

    It runs before pydantic's own string check, which refuses them too but calls them
    "unable to parse raw data as a unicode string"; anything but a string passes on to it.
    """
    if not isinstance(value, str):
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise PydanticCustomError(
            "surrogate",
            _("holds a lone UTF-16 surrogate (U+D800 to U+DFFF), which is not a character"),
        ) from exc
    return value


def printable_name(value: str) -> str:
    """A seat name: no control characters, no bidirectional marks."""
    for char in value:
        if unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS:
            raise PydanticCustomError(
                "control_character",
                _("a name cannot hold control characters (found U+{code})"),
                {"code": f"{ord(char):04X}"},
            )
    return value


Word = Annotated[str, Field(min_length=1, max_length=MAX_WORD), BeforeValidator(no_surrogates)]
ShortText = Annotated[str, Field(max_length=MAX_SHORT_TEXT), BeforeValidator(no_surrogates)]
ActionText = Annotated[
    str, Field(min_length=1, max_length=MAX_ACTION_TEXT), BeforeValidator(no_surrogates)
]
#: The characters a shown text cannot hold, as a class of the description's patterns: C0
#: and C1 controls, DEL, the bidirectional marks (surrogates cannot be written in them).
CONTROLS = "\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069"
#: The spaces ``str.strip`` removes besides controls (``\\s`` differs: it takes U+FEFF).
SPACES = "\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
#: Declared in the description too: a seat name, and a text that needs more than spaces.
NAME_PATTERN = f"^[^{CONTROLS}]*$"
TEXT_PATTERN = f"^[^{CONTROLS}]*[^{CONTROLS}{SPACES}][^{CONTROLS}]*$"
#: A note or a reason, which may hold line breaks (LF) but no other control.
NOTE_PATTERN = "^[^\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$"
SeatName = Annotated[
    str,
    Field(max_length=MAX_NAME, json_schema_extra={"pattern": NAME_PATTERN}),
    BeforeValidator(no_surrogates),
    AfterValidator(printable_name),
]


def whole_number(value: Any) -> Any:
    """A JSON integer as JSON Schema counts them: ``66.0`` is the integer 66.

    JSON does not tell ``66`` from ``66.0``, and the description promises ``"type":
    "integer"``, which takes both; the bodies' strict mode took only the first. A number
    with a fraction (``66.5``), infinity or NaN is refused here, by name; anything else
    (an int, or a string or a boolean for the strict check to refuse) passes on.
    """
    if not isinstance(value, float):
        return value
    if not value.is_integer():
        raise PydanticCustomError("whole_number", _("should be a whole number"))
    return int(value)


#: The last annotation of a request body's integer field, after its bounds (see
#: :func:`whole_number`): put before them, pydantic can no longer write the bounds into the
#: description as ``minimum`` and ``maximum``.
WHOLE = BeforeValidator(whole_number)
Number = Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER), WHOLE]
Version = Annotated[
    int, Field(ge=0, le=MAX_VERSION, description="the game version the client last saw"), WHOLE
]

#: The tags of the unions below (left out of error paths: they are no field names).
UNION_TAGS = frozenset({"(null)", "(bool)", "(int)", "(text)", "(list)", "(object)"})


def json_kind(value: Any) -> str | None:
    """The JSON type of a value, as the tag of the union member that takes it."""
    kind = _json_kind(value)
    return None if kind is None else f"({kind})"


def _json_kind(value: Any) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        # JSON does not tell 3 from 3.0; a fraction has no member to go to
        return "int" if value.is_integer() else "fraction"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return None


OptionValue = Annotated[
    Annotated[bool, Tag("(bool)")]
    | Annotated[Number, Tag("(int)")]
    | Annotated[ShortText, Tag("(text)")],
    Discriminator(
        json_kind,
        custom_error_type="option_value",
        custom_error_message="an option's value is true, false, a whole number or a short text",
    ),
]
Options = Annotated[
    dict[Word, OptionValue],
    Field(max_length=MAX_OPTIONS, description="the game's options by name (see /games/available)"),
]

Scalar = Annotated[
    Annotated[None, Tag("(null)")]
    | Annotated[bool, Tag("(bool)")]
    | Annotated[Number, Tag("(int)")]
    | Annotated[ShortText, Tag("(text)")],
    Discriminator(
        json_kind,
        custom_error_type="scalar",
        custom_error_message="a value here is null, true, false, a whole number or a short text",
    ),
]
ActionValue = Annotated[
    Annotated[None, Tag("(null)")]
    | Annotated[bool, Tag("(bool)")]
    | Annotated[Number, Tag("(int)")]
    | Annotated[ShortText, Tag("(text)")]
    | Annotated[list[Scalar], Field(max_length=MAX_LIST_ITEMS), Tag("(list)")],
    Discriminator(
        json_kind,
        custom_error_type="action_value",
        custom_error_message="a value in a move is null, true, false, a whole number, a short "
        "text or a short list of those",
    ),
]
ActionObject = Annotated[dict[Word, ActionValue], Field(max_length=MAX_ACTION_KEYS)]
Action = Annotated[
    Annotated[ActionText, Tag("(text)")] | Annotated[ActionObject, Tag("(object)")],
    Discriminator(
        json_kind,
        custom_error_type="action",
        custom_error_message="a move is its text or its JSON object",
    ),
    Field(description="the move as text or as its JSON form"),
]
