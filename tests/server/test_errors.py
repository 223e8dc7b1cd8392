"""The one place that turns the domain's refusals into HTTP statuses (karnak.server.errors)."""

from __future__ import annotations

import pytest

from karnak.core.errors import KarnakError
from karnak.server.accounts.store import NameTakenError
from karnak.server.conflicts import StaleWriteError
from karnak.server.errors import as_api_error, status_of
from karnak.server.limits import LimitError
from karnak.server.rooms import IllegalMoveError, StaleVersionError
from karnak.server.service import BusyError, ClaimError, ForbiddenError, GameUnavailableError
from karnak.server.store import UnknownGameError


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (StaleVersionError("moved on", version=3), 409),
        (IllegalMoveError("not now", version=3), 422),
        (LimitError("slow down", status=429, retry_after=2.5), 429),
        (UnknownGameError("no such game"), 404),
        (GameUnavailableError("cannot be rebuilt"), 410),
        (ForbiddenError("not a seat"), 403),
        (ClaimError("taken"), 409),
        (NameTakenError("taken"), 409),
        (BusyError("try again"), 409),
        (StaleWriteError("another process wrote first"), 409),
        (KarnakError("anything else"), 422),
    ],
)
def test_each_refusal_has_its_status(error: KarnakError, status: int) -> None:
    assert status_of(error) == status
    assert as_api_error(error).status == status


def test_a_refused_move_tells_the_version_and_a_limit_when_to_retry() -> None:
    assert as_api_error(StaleVersionError("moved on", version=7)).version == 7
    answer = as_api_error(LimitError("slow down", status=429, retry_after=2.5)).response()
    assert answer.headers["Retry-After"] == "3"


def test_anything_else_is_a_bug_raised_again() -> None:
    with pytest.raises(ZeroDivisionError):
        as_api_error(ZeroDivisionError("a bug"))
