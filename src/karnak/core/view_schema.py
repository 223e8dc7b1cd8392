"""A game's declared observation as a JSON Schema, from its ``TypedDict``.

Each game names the shape of its observation (the view every client draws from) as a
``TypedDict`` (:attr:`~karnak.core.plugin.GamePlugin.observation`). Browsers, other
languages and the tests that check the page scripts read it as JSON Schema (draft 2020-12),
which :func:`json_schema` writes from the type annotations alone, with the standard library:

    >>> from typing import TypedDict
    >>> class Seat(TypedDict):
    ...     name: str
    ...     score: int
    >>> json_schema(Seat)["properties"]["score"]
    {'type': 'integer'}

What it understands: nested ``TypedDict`` classes (each once, under ``$defs``),
``Required``/``NotRequired`` and ``total=False``, ``list``/``Sequence``/``tuple``,
``dict``/``Mapping`` with text keys, ``Literal``, unions and ``None``, ``Annotated`` (its
first text metadata becomes the description), ``int``, ``float``, ``str``, ``bool`` and
``Any``. Anything else is refused with a :class:`ViewSchemaError` naming the field, so a
shape that cannot be exported is found by the tests, not by a browser.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    NotRequired,
    Required,
    get_args,
    get_origin,
    get_type_hints,
)

from karnak.core.errors import KarnakError
from karnak.core.plugin import PluginError, load_reference

if TYPE_CHECKING:
    from karnak.core.plugin import GamePlugin

#: The dialect of the schemas written here.
DIALECT = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, Any]

_SCALARS: dict[object, Schema] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
    type(None): {"type": "null"},
    None: {"type": "null"},
}
_LISTS = {list, tuple, Sequence, typing.Sequence, set, frozenset}
_MAPS = {dict, Mapping, typing.Mapping}


class ViewSchemaError(KarnakError, TypeError):
    """A type that has no JSON Schema here (the message names where it was met)."""


def is_typed_dict(tp: object) -> bool:
    return typing.is_typeddict(tp)


def json_schema(shape: type, *, title: str | None = None) -> Schema:
    """The JSON Schema of the ``TypedDict`` ``shape``: its own object schema at the top,
    every nested ``TypedDict`` under ``$defs``, referred to by name."""
    if not is_typed_dict(shape):
        raise ViewSchemaError(f"{shape!r} is not a TypedDict")
    defs: dict[str, Schema] = {}
    top = _typed_dict(shape, defs, shape.__name__)
    schema: Schema = {"$schema": DIALECT, "title": title or shape.__name__, **top}
    if defs:
        schema["$defs"] = dict(sorted(defs.items()))
    return schema


def _typed_dict(shape: type, defs: dict[str, Schema], where: str) -> Schema:
    hints = get_type_hints(shape, include_extras=True)
    # ``__required_keys__`` says what the class's totality makes required; an explicit
    # ``Required``/``NotRequired`` decides for its key (read from the annotation itself,
    # since Python 3.11 misses them when annotations are strings).
    totality: frozenset[str] = getattr(shape, "__required_keys__", frozenset())
    properties: dict[str, Schema] = {}
    required: list[str] = []
    for key, hint in hints.items():
        origin = get_origin(hint)
        if origin is NotRequired:
            hint, needed = get_args(hint)[0], False
        elif origin is Required:
            hint, needed = get_args(hint)[0], True
        else:
            needed = key in totality
        properties[key] = _schema(hint, defs, f"{where}.{key}")
        if needed:
            required.append(key)
    schema: Schema = {"type": "object", "properties": properties, "required": required}
    schema["additionalProperties"] = False
    if shape.__doc__:  # a TypedDict without a docstring of its own has None here
        schema = {"description": inspect.cleandoc(shape.__doc__), **schema}
    return schema


def _schema(hint: Any, defs: dict[str, Schema], where: str) -> Schema:
    if hint in _SCALARS:
        return dict(_SCALARS[hint])
    if hint is Any or hint is object:
        return {}
    if is_typed_dict(hint):
        name = hint.__name__
        if name not in defs:
            defs[name] = {}  # reserved first: a shape that refers to itself stops here
            defs[name] = _typed_dict(hint, defs, name)
        return {"$ref": f"#/$defs/{name}"}
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is typing.Annotated:
        inner = _schema(args[0], defs, where)
        notes = [a for a in args[1:] if isinstance(a, str)]
        return {"description": notes[0], **inner} if notes else inner
    if origin is Literal:
        return {"enum": list(args)}
    if origin is typing.Union or origin is types.UnionType:
        options = [_schema(arg, defs, where) for arg in args]
        return {"anyOf": options}
    if origin is tuple and args and args[-1] is not Ellipsis:
        items = [_schema(arg, defs, f"{where}[{i}]") for i, arg in enumerate(args)]
        size = len(items)
        return {"type": "array", "prefixItems": items, "minItems": size, "maxItems": size}
    if origin in _LISTS or hint in _LISTS:
        item = _schema(args[0], defs, f"{where}[]") if args else {}
        return {"type": "array", "items": item}
    if origin in _MAPS or hint in _MAPS:
        if args and args[0] is not str:
            raise ViewSchemaError(f"{where}: JSON object keys are text, not {args[0]!r}")
        value = _schema(args[1], defs, f"{where}{{}}") if args else {}
        return {"type": "object", "additionalProperties": value}
    raise ViewSchemaError(f"{where}: no JSON Schema for {hint!r}")


def observation_schema(plugin: GamePlugin) -> Schema | None:
    """The JSON Schema of the observation ``plugin`` declares (None: it declares none)."""
    if plugin.observation is None:
        return None
    shape = load_reference(plugin.observation)
    if not is_typed_dict(shape):
        raise PluginError(
            f"{plugin.observation} is not a TypedDict (the {plugin.name} observation)"
        )
    return json_schema(shape, title=f"{plugin.name} observation")


def top_level_keys(schema: Schema) -> set[str]:
    """The keys an observation of ``schema`` may have at its top."""
    return set(schema.get("properties", {}))
