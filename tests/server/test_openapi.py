"""The API's own description: every status declared, docs that work offline, and schemathesis
checking the running app against the description (no server errors, declared statuses,
declared bodies)."""

from __future__ import annotations

import itertools
import re
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings

from .conftest import create, humans

#: Generous limits: schemathesis is one client making many requests in a few seconds.
FUZZ = ServerSettings(
    creates_per_minute=100_000,
    moves_per_minute=100_000,
    account_attempts_per_minute=100_000,
    chat_lines_per_minute=100_000,
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
#: Requests made by schemathesis in this process, per operation and status (shown by
#: ``pytest -s``, with the time the run took).
REQUESTS: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def tally() -> Iterator[None]:
    start = time.monotonic()
    yield
    if REQUESTS:
        print(f"\nschemathesis: {REQUESTS.total()} requests in {time.monotonic() - start:.1f} s")
        for key, count in sorted(REQUESTS.items()):
            print(f"  {count:5d}  {key}")


# ---------------------------------------------------------------------- the description
def operations(client: TestClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    document = client.get("/openapi.json").json()
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


ACTING = {"200", "400", "403", "404", "409", "410", "413", "422", "429"}
EXPECTED = {
    ("/api/games/available", "get"): {"200"},
    ("/api/games", "get"): {"200", "422"},
    ("/api/games", "post"): {"201", "400", "401", "403", "413", "422", "429"},
    ("/api/games/{game_id}", "get"): {"200", "403", "404", "410", "422"},
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
    ("/api/account/email", "get"): {"200", "401"},
    ("/api/account/email", "post"): {"200", "400", "401", "403", "409", "413", "422", "429"},
    ("/api/account/email/confirm", "post"): {"200", "400", "413", "422", "429"},
    ("/api/friends", "get"): {"200", "401"},
    ("/api/friends/requests", "post"): ACTING - {"410"} | {"201", "401"},
    ("/api/friends/{account_id}/accept", "post"): {"200", "401", "403", "404", "422"},
    ("/api/friends/{account_id}/decline", "post"): {"200", "401", "403", "404", "422"},
    ("/api/friends/{account_id}", "delete"): {"200", "401", "403", "404", "422"},
    ("/api/games/{game_id}/chat", "get"): {"200", "403", "404", "410", "422"},
    ("/api/games/{game_id}/chat", "post"): ACTING - {"200"} | {"201"},
    ("/api/leaderboard/{game}", "get"): {"200", "404", "422"},
    ("/api/games/{game_id}/ratings", "get"): {"200", "404", "409", "422"},
    ("/api/players/{name}", "get"): {"200", "404", "422"},
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


# ---------------------------------------------------------------------- schemathesis
#: The app under test, on a database of its own (schemathesis keeps it started for the rest
#: of the process; the folder goes when the process ends).
FOLDER = tempfile.TemporaryDirectory(prefix="karnak-schemathesis-")


def app_on(file_name: str) -> FastAPI:
    """A server on database ``file_name`` in the folder of the run (its lifespan is started
    by schemathesis on the first request and kept until the process ends)."""
    return create_app(f"sqlite:///{Path(FOLDER.name) / file_name}", bot_workers=0, settings=FUZZ)


APP = app_on("karnak.sqlite3")
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
#: How many servers the stateful test has started (one per scenario, each on its own file).
SERVERS = itertools.count(1)


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_the_api_keeps_its_description(case: schemathesis.Case) -> None:
    response = case.call_and_validate(checks=CHECKS)
    REQUESTS[f"{case.method} {case.path} -> {response.status_code}"] += 1


def test_the_api_keeps_its_description_over_sequences() -> None:
    """Stateful: create games, then view them, move in them and ask for their records
    with the ids and tokens the server gave out (links schemathesis infers)."""

    class Sequences(schema.as_state_machine()):  # type: ignore[misc]
        """Each scenario talks to a server of its own. Which steps a scenario may take depends
        on what the server answered before (a table listed, a game created); on one shared
        server those answers would depend on earlier scenarios, and hypothesis, replaying a
        scenario, would find its data generation inconsistent."""

        def setup(self) -> None:
            self.app = app_on(f"scenario-{next(SERVERS)}.sqlite3")

        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"app": self.app}

        def validate_response(
            self, response: Any, case: schemathesis.Case, *_args: Any, **kwargs: Any
        ) -> None:
            REQUESTS[f"stateful {case.method} {case.path} -> {response.status_code}"] += 1
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)

    start = time.monotonic()
    Sequences.run(
        settings=settings(
            max_examples=25,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        )
    )
    assert time.monotonic() - start < 120


def test_a_created_game_is_reachable_through_the_description(client: TestClient) -> None:
    """The link the stateful run follows: POST /api/games answers an id and tokens."""
    created = create(client, humans(3))
    assert client.get(f"/api/games/{created['id']}").status_code == 200
