"""The JSON API (documented at ``/docs`` by OpenAPI) and the per-seat WebSocket.

A seat is identified by its secret token, sent as the ``token`` query parameter or the
``X-Karnak-Token`` header; without a token a client is a spectator and sees public
information only. Errors are JSON objects ``{"error": message}`` (with ``version`` when the
game's current version helps the client recover) and fitting status codes: 400 malformed,
403 wrong token, 404 unknown game, 409 stale or out of turn, 422 illegal move or bad options.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from karnak.bots.base import available_bots
from karnak.core.errors import KarnakError
from karnak.core.registry import available_games, get_game
from karnak.server.boards import PAGES
from karnak.server.limits import LimitError
from karnak.server.rooms import Room, SubmitError
from karnak.server.service import (
    DEFAULT_BOT,
    ForbiddenError,
    GameService,
    GameUnavailableError,
    SeatRequest,
    encode,
)
from karnak.server.store import UnknownGameError
from karnak.server.views import seat_view

router = APIRouter(prefix="/api")


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        version: int | None = None,
        *,
        retry_after: float | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.version = version
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"error": self.message}
        if self.version is not None:
            body["version"] = self.version
        headers = None
        if self.retry_after is not None:
            headers = {"Retry-After": str(max(1, math.ceil(self.retry_after)))}
        return JSONResponse(body, status_code=self.status, headers=headers)


def as_api_error(exc: Exception) -> ApiError:
    """Map the domain's exceptions to HTTP answers (anything else is a server bug)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, SubmitError):
        return ApiError(exc.status, str(exc), exc.version)
    if isinstance(exc, LimitError):
        return ApiError(exc.status, str(exc), retry_after=exc.retry_after)
    if isinstance(exc, UnknownGameError):
        return ApiError(404, str(exc))
    if isinstance(exc, GameUnavailableError):
        return ApiError(410, str(exc))
    if isinstance(exc, ForbiddenError):
        return ApiError(403, str(exc))
    if isinstance(exc, KarnakError):
        return ApiError(422, str(exc))
    raise exc


# ---------------------------------------------------------------------- bodies
class SeatIn(BaseModel):
    kind: Literal["human", "bot"] = "human"
    name: str | None = Field(default=None, max_length=40)
    bot: str | None = Field(default=None, description=f"a bot spec, default {DEFAULT_BOT}")


class GameIn(BaseModel):
    game: str = "amunre"
    seats: list[SeatIn] = Field(min_length=1, max_length=99)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, lt=1 << 62)
    turn_timer: float | None = Field(default=None, description="seconds per decision")


class SeatLink(BaseModel):
    seat: int
    name: str
    kind: str
    bot: str | None
    #: A bot seat has no link: its token would show the bot's hidden cards to a person.
    token: str | None
    url: str | None


class GameCreated(BaseModel):
    id: str
    seats: list[SeatLink]
    spectator_url: str


class MoveIn(BaseModel):
    version: int = Field(description="the game version the client last saw")
    action: str | dict[str, Any] = Field(description="the move as text or as its JSON form")


class MoveOut(BaseModel):
    accepted: bool
    duplicate: bool
    version: int
    view: dict[str, Any]


# ---------------------------------------------------------------------- helpers
def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Token = Annotated[str | None, Query(description="the seat's secret token")]
TokenHeader = Annotated[str | None, Header(alias="X-Karnak-Token")]


async def resolve(service: GameService, game_id: str, token: str | None) -> tuple[Room, int | None]:
    try:
        room = await service.room(game_id)
        return room, service.seat_of(room, token)
    except Exception as exc:
        raise as_api_error(exc) from exc


async def resolve_seat(
    service: GameService, game_id: str, token: str | None, doing: str
) -> tuple[Room, int]:
    """The room and the token's seat, for routes that act (spectators may only watch)."""
    room, seat = await resolve(service, game_id, token)
    if seat is None:
        raise ApiError(403, f"spectators cannot {doing}: use a seat's link (its token)")
    return room, seat


# ---------------------------------------------------------------------- routes
@router.get("/games/available")
async def list_available_games() -> list[dict[str, Any]]:
    """The games the server plays, with player counts and options."""
    result = []
    for name in available_games():
        game = get_game(name)
        parts = PAGES.get(name)
        result.append(
            {
                "name": name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "bots": sorted(available_bots(game)),
                "options": [
                    {
                        "name": spec.name,
                        "default": spec.default,
                        "help": spec.help,
                        "choices": list(spec.allowed()),
                    }
                    for spec in game.options
                ],
                # what the lobby needs to offer the options well (Egyptia: the cards)
                "lobby": parts.lobby(game) if parts is not None and parts.lobby else {},
            }
        )
    return result


@router.get("/games")
async def list_games(request: Request, limit: int = Query(100, ge=1, le=500)) -> list[Any]:
    """Open, running and finished games, newest activity first (public facts only)."""
    return await service_of(request).summaries(limit)


@router.post("/games", status_code=201)
async def create_game(request: Request, body: GameIn) -> GameCreated:
    """Create a game; the answer holds every seat's secret link (shown only this once)."""
    service = service_of(request)
    try:
        created = await service.create(
            body.game,
            [SeatRequest(seat.kind, seat.name, seat.bot) for seat in body.seats],
            body.options,
            body.seed,
            body.turn_timer,
        )
    except Exception as exc:
        raise as_api_error(exc) from exc
    room = created.room
    return GameCreated(
        id=room.id,
        seats=[
            SeatLink(
                seat=info.seat,
                name=info.name,
                kind=info.kind,
                bot=info.bot,
                token=None if info.is_bot else token,
                url=None if info.is_bot else f"/games/{room.id}?token={token}",
            )
            for info, token in zip(room.seats, created.tokens, strict=True)
        ],
        spectator_url=f"/games/{room.id}",
    )


def json_response(text: str) -> Response:
    """A JSON answer from text encoded once by the service (no second encoding here)."""
    return Response(content=text, media_type="application/json")


@router.get("/games/{game_id}", response_model=dict[str, Any])
async def get_view(
    request: Request, game_id: str, token: Token = None, x_token: TokenHeader = None
) -> Response:
    """The game as the token's seat sees it (a spectator's view without a token)."""
    service = service_of(request)
    room, seat = await resolve(service, game_id, token or x_token)
    return json_response(service.view_json(room, seat))


def move_answer(service: GameService, room: Room, seat: int, duplicate: bool) -> Response:
    """A :class:`MoveOut`, with the seat's view spliced in as the text encoded once."""
    version = room.version_for(seat)
    head = encode({"accepted": not duplicate, "duplicate": duplicate, "version": version})
    return json_response(f'{head[:-1]},"view":{service.view_json(room, seat)}}}')


@router.post("/games/{game_id}/actions", response_model=MoveOut)
async def submit_action(
    request: Request,
    game_id: str,
    body: MoveIn,
    token: Token = None,
    x_token: TokenHeader = None,
) -> Response:
    """Play a move for the token's seat, naming the version it was chosen at."""
    service = service_of(request)
    room, seat = await resolve_seat(service, game_id, token or x_token, "move")
    try:
        action = service.parse(room, body.action)
        outcome = await service.submit(room, seat, body.version, action)
    except Exception as exc:
        raise as_api_error(exc) from exc
    return move_answer(service, room, seat, outcome.duplicate)


class UndoIn(BaseModel):
    version: int = Field(description="the game version the client last saw")


@router.post("/games/{game_id}/undo", response_model=MoveOut)
async def undo_move(
    request: Request,
    game_id: str,
    body: UndoIn,
    token: Token = None,
    x_token: TokenHeader = None,
) -> Response:
    """Take back the seat's own last move, while its turn lasts and nothing was revealed."""
    service = service_of(request)
    room, seat = await resolve_seat(service, game_id, token or x_token, "undo")
    try:
        await service.undo(room, seat, body.version)
    except Exception as exc:
        raise as_api_error(exc) from exc
    return move_answer(service, room, seat, duplicate=False)


@router.get("/games/{game_id}/record")
async def get_record(request: Request, game_id: str) -> dict[str, Any]:
    """The replayable record of a finished game (it holds the seed, so never before the end)."""
    service = service_of(request)
    room, _ = await resolve(service, game_id, None)
    if not room.is_over:
        raise ApiError(409, "the record is published when the game is over", room.version_for(None))
    return room.record().to_json()


@router.get("/games/{game_id}/replay")
async def replay_length(request: Request, game_id: str) -> dict[str, int]:
    """How many moves a finished game's replay has."""
    room = await finished_room(service_of(request), game_id)
    return {"steps": len(room.accepted)}


@router.get("/games/{game_id}/replay/{step}")
async def replay_view(request: Request, game_id: str, step: int) -> dict[str, Any]:
    """A spectator's view of a finished game after its first ``step`` moves."""
    service = service_of(request)
    room = await finished_room(service, game_id)
    if not 0 <= step <= len(room.accepted):
        raise ApiError(404, f"the replay has moves 0 to {len(room.accepted)}, not {step}")
    return seat_view(room.replayed(step), None)


async def finished_room(service: GameService, game_id: str) -> Room:
    room, _ = await resolve(service, game_id, None)
    if not room.is_over:
        raise ApiError(409, "replays open when the game is over", room.version_for(None))
    return room


@router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
    """Live views for one seat (or a spectator): the full view at once, then after each change."""
    service: GameService = websocket.app.state.service
    try:
        room = await service.room(game_id)
        seat = service.seat_of(room, token)
    except Exception as exc:
        error = as_api_error(exc)
        await websocket.close(code=4000 + error.status, reason=error.message[:120])
        return
    await websocket.accept()
    listener = service.subscribe(room, seat)

    async def send_views() -> None:
        while True:
            await websocket.send_text(await listener.next_view())

    async def receive() -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await websocket.receive_text()
                if message == "view":  # a client that lost track asks for the full view
                    listener.offer(service.view_json(room, seat))

    sender, receiver = asyncio.create_task(send_views()), asyncio.create_task(receive())
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        service.unsubscribe(room, listener)
        for task in (sender, receiver):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
