"""schemathesis with every check, against the app in this process: what ``st run --checks
all`` does against a running server, sized to take a minute or two on two cores.

- every check schemathesis has (:data:`CHECKS`: no 5xx, declared statuses, bodies, headers
  and content types, schema-valid data accepted and invalid data refused, ``OPTIONS`` and
  undeclared methods answered 405 with ``Allow``, resources gone after a delete, ...),
  with the exceptions of ``schemathesis.toml`` (where only the games' or the forms' rules
  decide) and nothing else;
- twice: as a stranger, with the ids schemathesis makes up, and logged in (the session
  cookie, its CSRF token), with the ids of a real game, seat token and table of that
  account, so the routes behind a log-in and a seat answer with more than 401 and 404;
- then in sequences (stateful): games created, then viewed and moved in with the ids and
  tokens the server gave out, through the links schemathesis infers.

Derandomized, so a run is the same run each time. ``pytest -s`` prints the requests made
per operation and status.
"""

from __future__ import annotations

import dataclasses
import itertools
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS as REGISTERED
from schemathesis.checks import is_check_class, load_all_checks
from schemathesis.python import asgi

from karnak.server.accounts.auth import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.templates import Templates

CONFIG_FILE = Path(__file__).resolve().parents[2] / "schemathesis.toml"

#: Limits a fuzzer does not trip: one client making thousands of requests in a minute.
GENEROUS = {
    "creates_per_minute": 100_000,
    "moves_per_minute": 100_000,
    "account_attempts_per_minute": 100_000,
    "login_attempts_per_name": 100_000,
    "chat_lines_per_minute": 100_000,
    "reports_per_hour": 100_000,
    "password_resets_per_hour": 100_000,
    "password_reset_mails_per_hour": 100_000,
    "open_tables_per_client": 100_000,
    "notifications_per_sender_hour": 100_000,
    "notifications_per_recipient_day": 100_000,
    "friend_requests_pending": 100_000,
}
FIELDS = {field.name for field in dataclasses.fields(ServerSettings)}
FUZZ = ServerSettings(**{name: value for name, value in GENEROUS.items() if name in FIELDS})

load_all_checks()
#: Every check this schemathesis has (``--checks all``).
CHECKS = [check for check in REGISTERED.get_all() if not is_check_class(check)]
#: schemathesis 4.x's checks: a newer one may add more, never fewer.
KNOWN = {
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
    "missing_required_header",
    "unsupported_method",
    "allow_header_conformance",
    "use_after_free",
    "ensure_resource_availability",
    "ignored_auth",
    "object_level_authorization",
}
#: Examples drawn per operation and run (the coverage phase's cases come on top).
EXAMPLES = 10
#: Requests made, per run, operation and status (shown by ``pytest -s``).
REQUESTS: Counter[str] = Counter()

#: The apps under test, each on a database of its own (schemathesis keeps an app started for
#: the rest of the process; the folder goes when the process ends), each a copy of one
#: migrated template (support.templates): the stateful test starts dozens of servers.
FOLDER = tempfile.TemporaryDirectory(prefix="karnak-schemathesis-")
TEMPLATES = Templates(Path(FOLDER.name))


def app_on(file_name: str) -> FastAPI:
    database = TEMPLATES.sqlite(Path(FOLDER.name) / file_name)
    return create_app(database, bot_workers=0, settings=FUZZ)


def config(**parameters: str) -> schemathesis.Config:
    """The project's schemathesis.toml, with ``parameters`` pinned (``path.game_id``...)."""
    data = tomllib.loads(CONFIG_FILE.read_text())
    if parameters:
        data["parameters"] = parameters
    return schemathesis.Config.from_dict(data)


def hypothesis_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )


@pytest.fixture(scope="module", autouse=True)
def tally() -> Iterator[None]:
    start = time.monotonic()
    yield
    if REQUESTS:
        print(f"\nschemathesis: {REQUESTS.total()} requests in {time.monotonic() - start:.1f} s")
        for key, count in sorted(REQUESTS.items()):
            print(f"  {count:5d}  {key}")


def test_every_check_is_run() -> None:
    assert {check.__name__ for check in CHECKS} >= KNOWN


# ---------------------------------------------------------------------- as a stranger
STRANGER = app_on("stranger.sqlite3")
schema = schemathesis.openapi.from_asgi("/openapi.json", STRANGER, config=config())


@schema.parametrize()
@hypothesis_settings(EXAMPLES)
def test_a_stranger_gets_what_the_description_says(case: schemathesis.Case) -> None:
    response = case.call_and_validate(checks=CHECKS)
    REQUESTS[f"stranger {case.method} {case.path} -> {response.status_code}"] += 1


# ---------------------------------------------------------------------- logged in
MEMBER = app_on("member.sqlite3")
NAME, PASSWORD = "Schemathesis", "seven scarabs under the western sky"


class Member:
    """A logged-in client of :data:`MEMBER`, with a game it holds a seat of and a table it
    created: its session and CSRF token go with every request, and it logs in again when a
    request ended the session (``POST /api/account/logout``).

    Made when the module is collected: the description's parameters are pinned to the ids
    of that game and table before the tests are generated (schemathesis's fixture-made
    schemas do not work with pytest 9)."""

    def __init__(self) -> None:
        self.client = asgi.get_client(MEMBER).__enter__()
        answer = self.client.post("/api/account/signup", json={"name": NAME, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.remember()
        game = self.client.post("/api/games", json={"seats": [{"mine": True}, {}, {}]})
        assert game.status_code == 201, game.text
        self.game_id = game.json()["id"]
        self.token = game.json()["seats"][0]["token"]
        table = self.client.post("/api/tables", json={"seats": [{"kind": "human"}, {}, {}]})
        assert table.status_code == 201, table.text
        self.table_id = table.json()["table"]["id"]

    def remember(self) -> None:
        self.client.headers[CSRF_HEADER] = self.client.cookies[CSRF_COOKIE]

    def ensure_logged_in(self) -> None:
        if SESSION_COOKIE not in self.client.cookies:
            answer = self.client.post(
                "/api/account/login", json={"name": NAME, "password": PASSWORD}
            )
            assert answer.status_code == 200, answer.text
            self.remember()


MEMBERSHIP = Member()
member_schema = schemathesis.openapi.from_asgi(
    "/openapi.json",
    MEMBER,
    config=config(
        **{
            "path.game_id": MEMBERSHIP.game_id,
            "path.table_id": MEMBERSHIP.table_id,
            "query.token": MEMBERSHIP.token,
            "header.X-Karnak-Token": MEMBERSHIP.token,
        }
    ),
)


@member_schema.parametrize()
@hypothesis_settings(EXAMPLES)
def test_a_member_gets_what_the_description_says(case: schemathesis.Case) -> None:
    MEMBERSHIP.ensure_logged_in()
    response = case.call_and_validate(session=MEMBERSHIP.client, checks=CHECKS)
    REQUESTS[f"member {case.method} {case.path} -> {response.status_code}"] += 1


# ---------------------------------------------------------------------- in sequences
#: How many servers the stateful test has started (one per scenario, each on its own file).
SERVERS = itertools.count(1)


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
            database=None,
        )
    )
    assert time.monotonic() - start < 120
