"""The OpenAPI description's bounds of integer fields, written as integers.

FastAPI checks the description it builds against its own model of OpenAPI, whose
``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum`` and ``multipleOf`` are
floats: ``Field(ge=0, lt=1 << 62)`` on an integer field came out as ``"minimum": 0.0,
"exclusiveMaximum": 4.611686018427388e+18``. A client generating integers from that (a code
generator, schemathesis) reads a float bound; past 2**53 a float is not even the number
meant, and schemathesis sent ``up_to: 4611686018427387998`` as valid where the server (rightly)
refused anything from 2**62 on. :func:`publish_integer_bounds` writes them back as integers.

The value is taken from the float FastAPI kept, so it is exact only for bounds a float holds
exactly (every integer up to 2**53, and powers of two such as 2**62): the tests check every
integer bound of the description round-trips.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def is_integer_schema(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "integer" or (isinstance(kind, list) and "integer" in kind)


def integer_bounds(node: Any) -> Any:
    """``node`` (a description or any part of it), with every whole-number bound of an integer
    schema written as an int; changed in place and returned."""
    if isinstance(node, dict):
        if is_integer_schema(node):
            for key in BOUNDS:
                value = node.get(key)
                if isinstance(value, float) and value.is_integer():
                    node[key] = int(value)
        for value in node.values():
            integer_bounds(value)
    elif isinstance(node, list):
        for value in node:
            integer_bounds(value)
    return node


def publish_integer_bounds(app: FastAPI) -> None:
    """Make ``app`` serve its description with integer bounds. FastAPI still decides when
    to build it again (it keeps one and rebuilds when routes change); the walk over the one
    it returns changes nothing the second time."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        document: dict[str, Any] = integer_bounds(build())
        return document

    app.openapi = openapi  # type: ignore[method-assign]
