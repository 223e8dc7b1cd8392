"""Which methods an address takes, answered as HTTP says: ``OPTIONS`` and 405 with ``Allow``.

Starlette's router looks at one route at a time, and that left three answers wrong:

- ``OPTIONS`` was routed like any other method: it found no route taking it and answered
  405 with the ``Allow`` of the first route whose path matched, so ``OPTIONS /api/games``
  said ``Allow: GET`` although the address takes POST too (one route per method);
- the 405 for a method nobody takes named that first route's methods only, for the same
  reason;
- a concrete path was shadowed by a templated one for the methods it does not take:
  ``DELETE /api/friends/requests`` reached ``DELETE /api/friends/{account_id}`` with the
  account id ``"requests"`` and was answered 422 (not a number) instead of 405.

:class:`AllowedMethods` answers those itself, before the router. The resource a path names
is decided as OpenAPI decides it: the concrete paths before the templated ones, that is,
among the routes whose pattern matches the path, those with the fewest path parameters. The
methods of that resource are those of all its routes, plus ``OPTIONS``, which is answered
here (204, ``Allow``). A method the resource does not take is answered 405 with the same
``Allow`` and the usual error body; any other request goes on to the router unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.routing import BaseRoute
from starlette.staticfiles import StaticFiles

from karnak.i18n import _, use_language
from karnak.server.errors import HTTP_MESSAGES
from karnak.server.http_limits import ASGIApp, Receive, Send, early_language

#: Answered here for every address the app serves.
OPTIONS = "OPTIONS"
#: What a folder of static files takes (StaticFiles refuses anything else).
STATIC_METHODS = frozenset({"GET", "HEAD"})
NOT_ALLOWED = json.dumps({"error": HTTP_MESSAGES[405]}, separators=(",", ":")).encode()


def not_allowed(language: str) -> bytes:
    """The 405 refusal in ``language`` (this middleware answers before the language's)."""
    with use_language(language):
        message = _(HTTP_MESSAGES[405])
    return json.dumps({"error": message}, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass(frozen=True)
class Resource:
    """One route as this module needs it: its pattern and the methods it takes."""

    pattern: re.Pattern[str]
    parameters: int
    methods: frozenset[str]


def flat_routes(routes: Sequence[BaseRoute]) -> Iterable[Any]:
    """Every route of the app, with the included routers' routes at their full paths.

    FastAPI 0.120 and later keep an included router as one route and expose the routes
    inside it through ``iter_route_contexts`` (each with the ``path_regex``, ``methods`` and
    ``app`` of the route it stands for); earlier versions copied them into ``app.routes``.
    """
    try:
        from fastapi.routing import iter_route_contexts  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # pragma: no cover - an older FastAPI
        return routes
    contexts: Iterable[Any] = iter_route_contexts(routes)
    return contexts


def resources(routes: Sequence[BaseRoute]) -> list[Resource]:
    """The HTTP routes: those with methods, and the folders of static files."""
    found = []
    for route in flat_routes(routes):
        pattern = getattr(route, "path_regex", None)
        if pattern is None:
            continue
        methods = getattr(route, "methods", None)
        if methods is None and isinstance(getattr(route, "app", None), StaticFiles):
            methods = STATIC_METHODS
        if not methods:
            continue  # a WebSocket route, or a mount whose methods are not known here
        parameters = len(getattr(route, "param_convertors", {}) or {})
        found.append(Resource(pattern, parameters, frozenset(methods)))
    return found


def allowed_methods(table: Sequence[Resource], path: str) -> frozenset[str] | None:
    """The methods the resource at ``path`` takes, or None when no route serves it."""
    matching = [resource for resource in table if resource.pattern.match(path)]
    if not matching:
        return None
    fewest = min(resource.parameters for resource in matching)
    methods = {m for r in matching if r.parameters == fewest for m in r.methods}
    return frozenset(methods | {OPTIONS})


def allow_header(methods: Iterable[str]) -> bytes:
    return ", ".join(sorted(methods)).encode("latin-1")


def route_path(scope: MutableMapping[str, Any]) -> str:
    """The path the routes match (without the root path the app may be mounted under), as
    Starlette's routes compute it."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if not root or not path.startswith(root):
        return path
    if path == root:
        return ""
    return path[len(root) :] if path[len(root)] == "/" else path


class AllowedMethods:
    """Answers ``OPTIONS`` and methods an address does not take (see the module's text).

    The table of routes is built on the first request, once every router is included.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.table: list[Resource] | None = None

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.table is None:
            self.table = resources(scope["app"].routes)
        methods = allowed_methods(self.table, route_path(scope))
        method = scope["method"]
        if methods is None or (method in methods and method != OPTIONS):
            await self.app(scope, receive, send)
            return
        allow = (b"allow", allow_header(methods))
        if method == OPTIONS:
            await send({"type": "http.response.start", "status": 204, "headers": [allow]})
            await send({"type": "http.response.body", "body": b""})
            return
        body = not_allowed(early_language(scope))
        headers = [
            allow,
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 405, "headers": headers})
        await send({"type": "http.response.body", "body": body})
