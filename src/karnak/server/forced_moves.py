"""Moves that need no click, played for a person after a short visible pause.

When a human seat's only legal move is forced (:func:`karnak.core.forced.forced_move`: the
game's rule, read from the public view, proves it), the process running the game's
background work (the lease holder, like the bots and the timer) waits
:data:`karnak.core.forced.PAUSE_SECONDS`, so the page can show "Passing for you in ...", and
then plays it (``automatic``), unless the step has changed meanwhile. Every view of the game
carries ``forced: {"seat", "action", "at"}`` meanwhile: public, since the decision reads only
the public view.

Each account may turn this off (``accounts.forced_moves``, migration
0018_forced_moves_setting; on by default): ``GET /api/forced-moves`` and
``PUT /api/forced-moves`` ``{"on": false}``. A seat held by no account (a guest's link) has it
on.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import sessionmaker

from karnak.core.forced import PAUSE_SECONDS
from karnak.i18n import _
from karnak.server.accounts.auth import CsrfError, check_csrf, session_of
from karnak.server.accounts.tables import AccountRow
from karnak.server.errors import ApiError, error_responses
from karnak.server.executor import DatabaseExecutor

#: How long a process remembers an account's setting, and for how many accounts.
CACHE_SECONDS = 5.0
CACHE_SIZE = 10_000


@dataclass(frozen=True)
class ForcedPlan:
    """A forced move waiting its pause: the step it belongs to, the seat, the move's text and
    when it will be played (seconds since the epoch)."""

    step: int
    seat: int
    action: str
    at: float

    def view(self) -> dict[str, object]:
        return {"seat": self.seat, "action": self.action, "at": self.at}


class ForcedMoveSettings:
    """The accounts' settings: read and written in the database, remembered a few seconds."""

    def __init__(self, engine: Engine, executor: DatabaseExecutor) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.executor = executor
        self._cache: OrderedDict[int, tuple[float, bool]] = OrderedDict()

    def _read(self, account_id: int) -> bool:
        with self.sessions() as session:
            found = session.execute(
                select(AccountRow.forced_moves).where(AccountRow.id == account_id)
            ).scalar_one_or_none()
        return found is None or bool(found)

    def _write(self, account_id: int, on: bool) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(forced_moves=on)
            )

    async def get(self, account_id: int | None) -> bool:
        """Whether the account's forced moves are played for it (no account: yes)."""
        if account_id is None:
            return True
        now = time.monotonic()
        cached = self._cache.get(account_id)
        if cached is not None and cached[0] > now:
            return cached[1]
        found = await self.executor.run(self._read, account_id)
        self._cache[account_id] = (now + CACHE_SECONDS, found)
        self._cache.move_to_end(account_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return found

    async def set(self, account_id: int, on: bool) -> None:
        await self.executor.run(self._write, account_id, on)
        self._cache.pop(account_id, None)


# ---------------------------------------------------------------------- the API

router = APIRouter()


class ForcedMovesChoice(BaseModel):
    """Whether moves that need no click are played for you after a short pause."""

    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"examples": [{"on": False}]}
    )

    on: bool = Field(...)


class ForcedMovesOut(BaseModel):
    #: Whether the logged-in account's forced moves are played for it.
    on: bool
    #: How long the page shows the move before it is played (seconds).
    pause: float


def _settings(request: Request) -> ForcedMoveSettings:
    service = getattr(request.app.state, "service", None)
    settings: ForcedMoveSettings | None = getattr(service, "forced_settings", None)
    if settings is None:
        raise ApiError(503, _("the server is starting; try again in a moment"))
    return settings


@router.get(
    "/forced-moves",
    operation_id="get_forced_moves",
    response_model=ForcedMovesOut,
    responses=error_responses(401),
)
async def get_forced_moves(request: Request) -> ForcedMovesOut:
    """Whether the account's moves that need no click are played for it."""
    session = await session_of(request)
    if session is None:
        raise ApiError(401, _("log in first"))
    on = await _settings(request).get(session.account.id)
    return ForcedMovesOut(on=on, pause=PAUSE_SECONDS)


@router.put(
    "/forced-moves",
    operation_id="set_forced_moves",
    response_model=ForcedMovesOut,
    responses=error_responses(401, 403, 413, 422),
)
async def set_forced_moves(request: Request, body: ForcedMovesChoice) -> ForcedMovesOut:
    """Turn on or off playing the account's moves that need no click (the write must carry
    the CSRF token)."""
    session = await session_of(request)
    if session is None:
        raise ApiError(401, _("log in first"))
    try:
        check_csrf(request, session)
    except CsrfError as exc:
        raise ApiError(403, str(exc)) from exc
    await _settings(request).set(session.account.id, body.on)
    return ForcedMovesOut(on=body.on, pause=PAUSE_SECONDS)


__all__ = ["ForcedMoveSettings", "ForcedPlan", "router"]
