"""The API's own description: every status declared, docs that work offline, the methods of
every address answered as HTTP says (OPTIONS, 405 with Allow), integer fields as JSON
Schema's integers (66.0 is one) with integer bounds. tests/server/test_schemathesis.py runs
schemathesis's checks against it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from karnak.server.inputs import MAX_NUMBER, MAX_VERSION

from .conftest import create, humans


# ---------------------------------------------------------------------- the description
def operations(client: TestClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    document = client.get("/openapi.json").json()
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


ACTING = {"200", "400", "403", "404", "409", "410", "413", "422", "429"}
ADMIN_READ = {"200", "401", "403", "422"}
ADMIN_WRITE = {"200", "400", "401", "403", "404", "409", "413", "422"}
EXPECTED = {
    ("/api/games/available", "get"): {"200"},
    ("/api/games/{game}/picture.svg", "get"): {"200", "404", "422"},  # a lobby card's picture
    ("/api/games", "get"): {"200", "422"},
    ("/api/games", "post"): {"201", "400", "401", "403", "413", "422", "429"},
    ("/api/games/{game_id}", "get"): {"200", "403", "404", "410", "422"},
    ("/api/games/{game_id}/sheets/{seat}", "get"): {"200", "403", "404", "410", "422"},
    ("/api/games/{game_id}/actions", "post"): ACTING,
    ("/api/games/{game_id}/undo", "post"): ACTING,
    ("/api/games/{game_id}/leave", "post"): {"200", "403", "404", "409", "410", "422", "429"},
    ("/api/games/{game_id}/record", "get"): {"200", "404", "409", "410", "422"},
    ("/api/games/{game_id}/replay", "get"): {"200", "404", "409", "410", "422"},
    ("/api/games/{game_id}/replay/{step}", "get"): {"200", "404", "409", "410", "422"},
    ("/api/account", "get"): {"200"},
    ("/api/account/signup", "post"): {"201", "400", "409", "413", "422", "429"},
    ("/api/account/login", "post"): {"200", "400", "401", "413", "422", "429"},
    ("/api/account/logout", "post"): {"204", "401", "403"},
    ("/api/account/password", "post"): {"200", "400", "401", "403", "413", "422", "429"},
    ("/api/games/{game_id}/claim", "post"): {"200", "401", "403", "404", "409", "410", "422"},
    ("/api/notifications", "get"): {"200", "401"},
    ("/api/notifications/read", "post"): {"200", "400", "401", "403", "413", "422"},
    ("/api/tables", "get"): {"200", "422"},
    ("/api/tables", "post"): {"201", "400", "403", "413", "422", "429"},
    ("/api/tables/{table_id}", "get"): {"200", "403", "404", "422"},
    ("/api/tables/{table_id}/join", "post"): ACTING - {"410"},
    ("/api/tables/{table_id}/leave", "post"): {"200", "403", "404", "409", "422", "429"},
    ("/api/tables/{table_id}/start", "post"): ACTING - {"410"},
    ("/api/tables/{table_id}/cancel", "post"): {"200", "403", "404", "409", "422", "429"},
    ("/api/tables/{table_id}/invite", "post"): ACTING - {"410"},
    ("/api/tables/{table_id}/withdraw", "post"): ACTING - {"410"},
    ("/api/games/{game_id}/rematch", "post"): {"200", "403", "404", "409", "410", "422", "429"},
    ("/api/me/games", "get"): {"200", "401"},
    ("/api/games/{game_id}/rematch", "get"): {"200", "404", "410", "422"},
    ("/api/forced-moves", "get"): {"200", "401"},
    ("/api/forced-moves", "put"): {"200", "400", "401", "403", "413", "422"},
    ("/api/games/{game_id}/forced-moves", "put"): {"200", "403", "404", "413", "422"},
    ("/api/speeds", "get"): {"200"},
    ("/api/account/email", "get"): {"200", "401"},
    ("/api/account/email", "post"): {"200", "400", "401", "403", "409", "413", "422", "429"},
    ("/api/account/email/confirm", "post"): {"200", "400", "413", "422", "429"},
    ("/api/account/password-reset", "post"): {"202", "400", "413", "422", "429"},
    ("/api/account/password-reset/confirm", "post"): {"200", "400", "413", "422", "429"},
    ("/api/friends", "get"): {"200", "401"},
    ("/api/friends/requests", "post"): ACTING - {"410"} | {"201", "401"},
    ("/api/friends/{account_id}/accept", "post"): {"200", "401", "403", "404", "422"},
    ("/api/friends/{account_id}/decline", "post"): {"200", "401", "403", "404", "422"},
    ("/api/friends/{account_id}", "delete"): {"200", "401", "403", "404", "422"},
    ("/api/blocks", "get"): {"200", "401"},
    ("/api/blocks", "post"): {"201", "400", "401", "403", "404", "413", "422"},
    ("/api/blocks/{account_id}", "delete"): {"200", "401", "403", "404", "422"},
    ("/api/games/{game_id}/chat", "get"): {"200", "403", "404", "410", "422"},
    ("/api/games/{game_id}/chat", "post"): ACTING - {"200"} | {"201"},
    ("/api/leaderboard/{game}", "get"): {"200", "404", "422"},
    ("/api/daily", "get"): {"200", "404"},
    ("/api/quickmatch", "get"): {"200", "401"},
    ("/api/crowds", "get"): {"200", "422"},
    ("/api/tournaments", "get"): {"200", "422"},
    ("/api/tournaments", "post"): {"201", "400", "401", "403", "404", "422", "429"},
    ("/api/tournaments/{tournament_id}", "get"): {"200", "404", "422"},
    ("/api/tournaments/{tournament_id}/join", "post"): {"200", "401", "403", "404", "409", "422"},
    ("/api/tournaments/{tournament_id}/join", "delete"): {"200", "401", "403", "404", "409"},
    ("/api/tournaments/{tournament_id}/start", "post"): {"200", "401", "403", "404", "409"},
    ("/api/tournaments/{tournament_id}/invitations", "post"): {
        "200",
        "400",
        "401",
        "403",
        "404",
        "409",
        "413",
        "422",
    },
    ("/api/crowds/{crowd_id}/join", "post"): {"200", "401", "403", "404", "409", "422", "429"},
    ("/api/crowds/{crowd_id}/join", "delete"): {"200", "401", "403", "404", "409", "422", "429"},
    ("/api/admin/crowds", "post"): {"201", "401", "403", "404", "409", "422"},
    ("/api/quickmatch", "post"): {"200", "400", "401", "403", "404", "409", "422", "429"},
    ("/api/quickmatch", "delete"): {"200", "401", "403", "429"},
    ("/api/quickmatch/bots", "post"): {"200", "401", "403", "409", "429"},
    ("/api/daily/{day}/play", "post"): {"200", "201", "403", "404", "422", "429"},
    ("/api/daily/{day}/leaderboard", "get"): {"200", "404", "422"},
    ("/api/daily/calendar", "get"): {"200", "404", "422"},
    ("/api/daily/players/{name}", "get"): {"200", "404", "422"},
    ("/api/daily/share/{game_id}", "get"): {"200", "403", "404", "409", "422"},
    ("/api/language", "get"): {"200"},
    ("/api/language", "put"): {"200", "400", "403", "413", "422"},
    ("/api/games/{name}/observation-schema", "get"): {"200", "404", "422"},
    ("/api/games/{game_id}/ratings", "get"): {"200", "404", "409", "422"},
    ("/api/players/{name}", "get"): {"200", "404", "422"},
    ("/api/reports", "post"): {"201", "400", "401", "403", "404", "409", "413", "422", "429"},
    ("/api/admin/users", "get"): ADMIN_READ,
    ("/api/admin/users/{account_id}", "get"): ADMIN_READ | {"404"},
    ("/api/admin/users/{account_id}/suspend", "post"): ADMIN_WRITE,
    ("/api/admin/users/{account_id}/ban", "post"): ADMIN_WRITE,
    ("/api/admin/users/{account_id}/unsuspend", "post"): ADMIN_WRITE,
    ("/api/admin/users/{account_id}/mute", "post"): ADMIN_WRITE,
    ("/api/admin/users/{account_id}/unmute", "post"): ADMIN_WRITE,
    ("/api/admin/users/{account_id}/password-reset", "post"): ADMIN_WRITE,
    ("/api/admin/users/{account_id}/delete", "post"): ADMIN_WRITE,
    ("/api/admin/games/{game_id}", "get"): ADMIN_READ | {"404", "410"},
    ("/api/admin/games/{game_id}/abort", "post"): ADMIN_WRITE | {"410"},
    ("/api/admin/games/{game_id}/delete", "post"): ADMIN_WRITE,
    ("/api/admin/games/{game_id}/chat", "get"): ADMIN_READ | {"404", "410"},
    ("/api/admin/games/{game_id}/chat/{number}/hide", "post"): ADMIN_WRITE,
    ("/api/admin/reports", "get"): ADMIN_READ,
    ("/api/admin/reports/{report_id}/close", "post"): ADMIN_WRITE,
    ("/api/admin/audit", "get"): ADMIN_READ,
}


def test_every_route_declares_the_statuses_it_answers(client: TestClient) -> None:
    found = {(path, method): operation for path, method, operation in operations(client)}
    assert set(found) == set(EXPECTED)
    document = client.get("/openapi.json").json()
    error = document["components"]["schemas"]["ErrorOut"]
    assert set(error["properties"]) == {"error", "version"} and error["required"] == ["error"]
    for key, statuses in EXPECTED.items():
        responses = found[key]["responses"]
        assert set(responses) >= statuses, (key, set(responses))
        for status, response in responses.items():
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorOut"}, (key, status)
                assert response["description"] != "Validation Error"
        if "429" in responses:
            assert "Retry-After" in responses["429"]["headers"]


# ---------------------------------------------------------------------- /docs
def test_the_docs_page_needs_no_other_site(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "http://" not in page.text and "https://" not in page.text
    assert "<script>" not in page.text  # its start-up script is a file too
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200, asset
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self';" in policy
    assert client.get("/redoc").status_code == 404  # it would load from a CDN


def test_a_created_game_is_reachable_through_the_description(client: TestClient) -> None:
    """The link the stateful run follows: POST /api/games answers an id and tokens."""
    created = create(client, humans(3))
    assert client.get(f"/api/games/{created['id']}").status_code == 200


# ---------------------------------------------------------------------- methods
def declared_methods(client: TestClient) -> dict[str, set[str]]:
    """The methods the description gives each path."""
    document = client.get("/openapi.json").json()
    return {path: {m.upper() for m in methods} for path, methods in document["paths"].items()}


def concrete(path: str) -> str:
    """A path of the description with a value in each parameter."""
    return re.sub(r"\{[^}]+\}", "1", path)


def allow(response: Any) -> set[str]:
    return {method.strip() for method in response.headers["allow"].split(",")}


def test_options_names_every_method_of_the_address(client: TestClient) -> None:
    """One route per method: OPTIONS said ``Allow: GET`` on addresses that take POST too."""
    for path, methods in declared_methods(client).items():
        response = client.options(concrete(path))
        assert response.status_code == 204, path
        assert allow(response) == methods | {"OPTIONS"}, path
    assert allow(client.options("/api/games")) == {"GET", "POST", "OPTIONS"}
    assert allow(client.options("/static/app.js")) == {"GET", "HEAD", "OPTIONS"}
    assert client.options("/no/such/address").status_code == 404


def test_a_method_the_address_does_not_take_is_405_with_allow(client: TestClient) -> None:
    for path, methods in declared_methods(client).items():
        for method in {"GET", "POST", "PUT", "PATCH", "DELETE"} - methods:
            response = client.request(method, concrete(path))
            assert response.status_code == 405, (method, path, response.text)
            assert allow(response) == methods | {"OPTIONS"}, (method, path)
            assert response.json() == {"error": "this address does not take that method"}
            assert response.headers["x-content-type-options"] == "nosniff"


def test_a_concrete_path_is_not_taken_for_a_templated_one(client: TestClient) -> None:
    """``/api/friends/requests`` takes POST; ``/api/friends/{account_id}`` takes DELETE. A
    DELETE of the first reached the second with the account id "requests" (a 422)."""
    response = client.delete("/api/friends/requests")
    assert response.status_code == 405
    assert allow(response) == {"POST", "OPTIONS"}
    assert client.get("/api/games/available").status_code == 200  # not a game's id
    assert client.delete("/api/friends/12").status_code == 401  # the templated one still works


# ---------------------------------------------------------------------- integers
def schemas_of(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from schemas_of(value)
    elif isinstance(node, list):
        for value in node:
            yield from schemas_of(value)


def test_integer_bounds_are_published_as_integers(client: TestClient) -> None:
    """FastAPI's model of OpenAPI made them floats (``"minimum": 0.0``,
    ``"exclusiveMaximum": 4.611686018427388e+18``)."""
    document = client.get("/openapi.json").json()
    bounds = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
    integers = [s for s in schemas_of(document) if s.get("type") == "integer"]
    assert integers
    for schema in integers:
        for key in bounds:
            if key in schema:
                assert isinstance(schema[key], int), schema
        # pydantic writes these when it cannot turn a bound into the schema's own keyword
        assert not {"ge", "gt", "le", "lt"} & set(schema), schema
    schemas = document["components"]["schemas"]
    version = schemas["MoveIn"]["properties"]["version"]
    assert (version["minimum"], version["maximum"]) == (0, MAX_VERSION)
    seed = schemas["GameIn"]["properties"]["seed"]["anyOf"][0]
    assert (seed["minimum"], seed["exclusiveMaximum"]) == (0, 1 << 62)
    option = schemas["GameIn"]["properties"]["options"]["additionalProperties"]["oneOf"][1]
    assert (option["minimum"], option["maximum"]) == (-MAX_NUMBER, MAX_NUMBER)


def test_a_whole_number_written_with_a_fraction_is_an_integer(client: TestClient) -> None:
    """JSON Schema's integer takes 66.0: so do the bodies' integer fields; 66.5 is refused
    with a 422 that names the field."""
    created = create(client, humans(3), seed=7.0, options={"edition": "2016"})
    game_id = created["id"]
    seat = client.get(f"/api/games/{game_id}").json()["to_move"][0]
    headers = {"X-Karnak-Token": created["seats"][seat]["token"]}
    mine = client.get(f"/api/games/{game_id}", headers=headers).json()
    move = mine["legal"][0]["text"]
    assert mine["version"] == 0
    refused = client.post(
        f"/api/games/{game_id}/actions", json={"version": 0.5, "action": move}, headers=headers
    )
    assert refused.status_code == 422
    assert refused.json()["error"] == "version: should be a whole number (got 0.5)"
    for number in ("1e999", "1e300", "NaN"):
        refused = client.post(
            f"/api/games/{game_id}/actions",
            content=f'{{"version": {number}, "action": "x"}}',
            headers={**headers, "content-type": "application/json"},
        )
        assert refused.status_code == 422, (number, refused.text)
    accepted = client.post(
        f"/api/games/{game_id}/actions", json={"version": 0.0, "action": move}, headers=headers
    )
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["version"] == 1
    assert client.post("/api/notifications/read", json={"up_to": 3.0}).status_code == 401
    assert client.post("/api/games", json={"seats": [{}], "seed": True}).status_code == 422


def test_a_table_seat_may_be_written_with_a_fraction(client: TestClient) -> None:
    table = client.post("/api/tables", json={"seats": [{"kind": "human", "name": "Ana"}, {}, {}]})
    assert table.status_code == 201, table.text
    table_id = table.json()["table"]["id"]
    answer = client.post(f"/api/tables/{table_id}/join", json={"seat": 2.0, "name": "Bo"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["you"]["seat"] == 2
    half = client.post(f"/api/tables/{table_id}/join", json={"seat": 1.5, "name": "Cy"})
    assert half.status_code == 422
    assert half.json()["error"] == "seat: should be a whole number (got 1.5)"
