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
``PUT /api/forced-moves`` ``{"on": false}``. From a game's page,
``PUT /api/games/{id}/forced-moves`` sets it for the seat: its account's setting, or for a seat
held by no account (a guest's link, on by default) the seat's own choice, kept in memory and
told to the other processes (a restart forgets it). The process that plays the move tells the
others its plan (an event on the game's topic), so that every page shows the move waiting.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import sessionmaker

from karnak.core.forced import PAUSE_SECONDS
from karnak.i18n import _
from karnak.server.accounts.auth import CsrfError, check_csrf, session_of
from karnak.server.accounts.tables import AccountRow
from karnak.server.errors import ApiError, error_responses
from karnak.server.executor import DatabaseExecutor
from karnak.server.inputs import MAX_ACTION_TEXT

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

    def payload(self) -> dict[str, object]:
        """What travels to the other processes (karnak.server.hub), so that their pages
        show the move waiting too."""
        return {"step": self.step, **self.view()}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> ForcedPlan | None:
        """A plan from another process's event (None: not one)."""
        step, seat = payload.get("step"), payload.get("seat")
        action, at = payload.get("action"), payload.get("at")
        if not (
            isinstance(step, int)
            and isinstance(seat, int)
            and isinstance(action, str)
            and isinstance(at, int | float)
            and not isinstance(at, bool)
        ):
            return None
        if step < 0 or seat < 0 or len(action) > MAX_ACTION_TEXT or not math.isfinite(at):
            return None
        return cls(step, seat, action, float(at))


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
        self.forget(account_id)

    def forget(self, account_id: int) -> None:
        """Read the account's setting again next time (another process changed it)."""
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
    forced = getattr(service, "forced", None)
    settings: ForcedMoveSettings | None = getattr(forced, "settings", None)
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
    responses=error_responses(400, 401, 403, 413, 422),
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


Token = Annotated[str | None, Query(max_length=200, description="the seat's secret token")]
TokenHeader = Annotated[str | None, Header(alias="X-Karnak-Token", max_length=200)]


@router.put(
    "/games/{game_id}/forced-moves",
    operation_id="set_seat_forced_moves",
    response_model=ForcedMovesOut,
    responses=error_responses(400, 401, 403, 404, 409, 410, 413, 422),
)
async def set_seat_forced_moves(
    request: Request,
    game_id: str,
    body: ForcedMovesChoice,
    token: Token = None,
    x_token: TokenHeader = None,
) -> ForcedMovesOut:
    """Turn on or off playing this seat's moves that need no click: the seat's account's
    setting (as ``PUT /api/forced-moves``), or, for a guest's seat (its link's token), the
    seat's own choice while the server runs. A move waiting its pause is then not played."""
    from karnak.server.api import account_of, resolve, service_of  # (api imports accounts)

    service = service_of(request)
    account = await account_of(request, token or x_token, writing=True)
    room, seat = await resolve(service, game_id, token or x_token, account)
    if seat is None:
        raise ApiError(
            403, _("a spectator has no moves to play: use a seat's link (its token) or log in")
        )
    await service.forced.choose(room, seat, body.on)
    return ForcedMovesOut(on=body.on, pause=service.forced.pause)


__all__ = ["ForcedMoveSettings", "ForcedPlan", "router"]
