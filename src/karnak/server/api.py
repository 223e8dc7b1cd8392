"""The JSON API (documented at ``/docs`` by OpenAPI) and the per-seat WebSocket.

A seat is identified by its secret token, sent as the ``token`` query parameter or the
``X-Karnak-Token`` header; without a token a client is a spectator and sees public
information only. Errors are JSON objects ``{"error": message}`` (with ``version`` when the
game's current version helps the client recover) and fitting status codes: 400 malformed,
403 wrong token, 404 unknown game, 409 stale or out of turn, 410 a stored game this server
cannot play, 413 body too large, 422 invalid input, illegal move or bad options, 429 too many
requests (with Retry-After). Every route declares the ones it answers in the OpenAPI
document, and tests/server/test_openapi.py holds the app to it with schemathesis. The routes
let the domain's refusals rise to the app's handler: their statuses are decided in one place,
:func:`karnak.server.errors.as_api_error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Path, Query, Request, WebSocket
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from karnak.bots.base import available_bots
from karnak.bots.levels import LEVELS, level_bands
from karnak.core.registry import DEFAULT_GAME, available_games, get_game, get_plugin
from karnak.i18n import N_, t
from karnak.server.accounts.auth import CsrfError, check_csrf, same_origin, session_of
from karnak.server.capacity import Creator
from karnak.server.errors import ApiError as ApiError
from karnak.server.errors import as_api_error as as_api_error
from karnak.server.errors import error_responses
from karnak.server.game_pages import page_for
from karnak.server.http_limits import RateLimits
from karnak.server.inputs import WHOLE, Action, Options, SeatName, Version, Word
from karnak.server.limits import ServerSettings
from karnak.server.lobby_cards import card_picture, picture_url, play_now_seats
from karnak.server.replays import replay_steps
from karnak.server.rooms import Room
from karnak.server.service import (
    DEFAULT_BOT,
    DEFAULT_LEVEL,
    MAX_TURN_TIMER,
    GameService,
    SeatRequest,
    encode,
)
from karnak.server.sockets import CLOSE_TOO_MANY, TooManySocketsError, counter_of
from karnak.server.timebank.inputs import TimeControlIn
from karnak.server.views import seat_view

router = APIRouter(prefix="/api")


# ---------------------------------------------------------------------- bodies
# Every field is bounded (see karnak.server.inputs): sizes, lengths, ranges, text. Unknown
# fields are refused, not ignored: a misspelt "turn_timer" would otherwise vanish silently.
# Types are strict: ``"seed": false`` or ``"version": "3"`` is an error, not 0 or 3.
STRICT = ConfigDict(extra="forbid", strict=True)


class SeatIn(BaseModel):
    model_config = STRICT

    kind: Literal["human", "bot"] = "human"
    name: SeatName | None = Field(
        default=None, description="shown to everyone; no control characters"
    )
    bot: Word | None = Field(default=None, description=f"a bot spec, default {DEFAULT_BOT}")
    mine: bool = Field(
        default=False,
        description="the creator's own seat, held by the logged-in account (karnak.server.tables)",
    )


class GameIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "game": DEFAULT_GAME,
                    "seats": [{"name": "Ana"}, {}, {"kind": "bot", "bot": "heuristic"}],
                }
            ]
        },
    )

    game: Word = DEFAULT_GAME
    seats: list[SeatIn] = Field(min_length=1, max_length=99)
    options: Options = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, lt=1 << 62), WHOLE] | None = None
    turn_timer: float | None = Field(
        default=None,
        ge=1,
        le=MAX_TURN_TIMER,
        allow_inf_nan=False,
        description="seconds per decision",
    )
    time_control: TimeControlIn | None = Field(
        default=None, description="a time per move and a bank per person (not with turn_timer)"
    )


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
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"version": 0, "action": "bid THEBES 3"}]},
    )

    version: Version
    action: Action


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

#: What a game id can look like (the server makes 12 URL-safe characters). Anything else is
#: an unknown game before it reaches the database, where a NUL byte or a lone surrogate
#: would be an error of the database driver rather than a row that is not there.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
NO_GAME = "there is no game with this id"


def check_game_id(game_id: str) -> None:
    if not GAME_ID.fullmatch(game_id):
        raise ApiError(404, NO_GAME)


async def resolve(
    service: GameService, game_id: str, token: str | None, account: int | None = None
) -> tuple[Room, int | None]:
    """The room, and the seat of ``token`` or else the one ``account`` holds (None: a
    spectator)."""
    check_game_id(game_id)
    room = await service.room(game_id)
    return room, service.seat_of(room, token, account)


#: What anyone but its seats is told of a sealed game (a game of the day's).
SEALED = N_(
    "this game is private until {until} (UTC): until its day is over, a game of the day "
    "shows nothing to anyone but its player, and its record and replay stay closed"
)


def check_unsealed(room: Room, seat: int | None) -> None:
    """Refuse (403) a look at a sealed game by anyone but its seats (``seat`` None); the
    seats too are refused its record and replay (pass ``None``), which hold its seed."""
    if seat is None and room.sealed():
        until = room.sealed_until
        shown = until.strftime("%Y-%m-%d %H:%M") if until is not None else ""
        raise ApiError(403, t(SEALED, until=shown))


async def account_of(request: Request, token: str | None, *, writing: bool) -> int | None:
    """The account whose session cookie the request carries, when no token names the seat.
    A write authenticated that way must carry the session's CSRF token (else 403)."""
    if token:
        return None
    session = await session_of(request)
    if session is None:
        return None
    if writing:
        try:
            check_csrf(request, session)
        except CsrfError as exc:
            raise ApiError(403, str(exc)) from exc
    return session.account.id


async def resolve_seat(
    request: Request, service: GameService, game_id: str, token: str | None, doing: str
) -> tuple[Room, int]:
    """The room and the seat of the token (or of the logged-in account), for routes that
    act (spectators may only watch)."""
    account = await account_of(request, token, writing=True)
    room, seat = await resolve(service, game_id, token, account)
    if seat is None:
        refusal = SPECTATORS_CANNOT.get(doing)
        raise ApiError(403, t(refusal) if refusal else t(SPECTATORS_CANNOT_DO, doing=doing))
    return room, seat


#: What a spectator is told, by what was tried (a whole sentence each).
SPECTATORS_CANNOT = {
    "chat": N_("spectators cannot chat: use a seat's link (its token) or log in to it"),
    "move": N_("spectators cannot move: use a seat's link (its token) or log in to it"),
    "undo": N_("spectators cannot undo: use a seat's link (its token) or log in to it"),
    "leave": N_("spectators cannot leave: use a seat's link (its token) or log in to it"),
}
SPECTATORS_CANNOT_DO = N_(
    "spectators cannot {doing}: use a seat's link (its token) or log in to it"
)


def client_host(request: Request | WebSocket) -> str | None:
    return request.client.host if request.client else None


async def creates_allowed(request: Request) -> None:
    """A dependency rather than a line of the route, so that it counts before the body is
    validated: a client cannot send bad requests for free."""
    limits: RateLimits = request.app.state.rate_limits
    limits.create(client_host(request))


async def moves_allowed(request: Request) -> None:
    """Moves and undos of one client, over all its games (bots move inside the server)."""
    limits: RateLimits = request.app.state.rate_limits
    limits.move(client_host(request))


#: The refusals each kind of route can answer (all described in the OpenAPI document).
GAME_ROUTE = error_responses(404, 410, 422)
SEAT_ROUTE = error_responses(403, 404, 410, 422)
ACTING_ROUTE = error_responses(400, 403, 404, 409, 410, 413, 422, 429)
FINISHED_ROUTE = error_responses(404, 409, 410, 422)


def created_link(operation: str, *, token: bool) -> dict[str, Any]:
    parameters = {"game_id": "$response.body#/id"}
    if token:
        parameters["token"] = "$response.body#/seats/0/token"
    return {"operationId": operation, "parameters": parameters}


#: OpenAPI links: what a client (and schemathesis's stateful run) does with a new game.
CREATED_LINKS: dict[int | str, dict[str, Any]] = {
    201: {
        "description": "The game, with every human seat's secret link",
        "links": {
            "view": created_link("get_view", token=True),
            "move": created_link("submit_action", token=True),
            "undo": created_link("undo_move", token=True),
            "record": created_link("get_record", token=False),
            "replay": created_link("replay_length", token=False),
            "replay_step": created_link("replay_view", token=False),
        },
    }
}


# ---------------------------------------------------------------------- routes
@router.get("/games/available", operation_id="list_available_games")
async def list_available_games(request: Request) -> list[dict[str, Any]]:
    """The games the server plays: what each is, its player counts, options and bot levels.

    ``levels`` gives, for each run of bot-seat counts, the bot spec of every level
    (easy to master) and the default one, within this server's think limits (see
    :mod:`karnak.bots.levels`): a big table's levels think less.
    """
    settings: ServerSettings = request.app.state.settings
    limits = {"max_think": settings.max_think, "max_game_think": settings.max_game_think}
    result = []
    for name in available_games():
        game = get_game(name)
        parts = page_for(name)
        words = get_plugin(name).text_domain()  # the game's own texts, in the reader's language
        said = words.gettext if words is not None else str
        result.append(
            {
                "name": name,
                "title": game.title,
                "description": said(game.description),
                "playing_time": said(game.playing_time),
                "min_players": game.min_players,
                "max_players": game.max_players,
                "bots": sorted(available_bots(game)),
                "levels": medium_first(level_bands(game, **limits)),
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
                # the lobby's card: a picture of the board, the "Play now" table's seats
                "picture": picture_url(name),
                "play_now": {"seats": play_now_seats(game), "level": DEFAULT_LEVEL},
            }
        )
    return result


def medium_first(bands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's bands of levels with each band's default at most :data:`DEFAULT_LEVEL`
    (Medium): a bot seat starts at Medium, or lower where a big table cannot carry it."""
    cap = LEVELS.index(DEFAULT_LEVEL)
    return [{**band, "default": LEVELS[min(cap, LEVELS.index(band["default"]))]} for band in bands]


@router.get(
    "/games/{game}/picture.svg",
    operation_id="game_picture",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **error_responses(404, 422)},
)
async def game_picture(game: Annotated[str, Path(max_length=40)]) -> Response:
    """A picture of the game's board at the start of a game (SVG, for the lobby's card)."""
    svg = card_picture(game)
    if svg is None:
        raise ApiError(404, t("there is no game {game}", game=repr(game[:40])))
    return Response(
        content=svg,
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.get("/games", operation_id="list_games", responses=error_responses(422))
async def list_games(request: Request, limit: int = Query(100, ge=1, le=500)) -> list[Any]:
    """Open, running and finished games, newest activity first (public facts only)."""
    return await service_of(request).summaries(limit)


@router.post(
    "/games",
    status_code=201,
    operation_id="create_game",
    dependencies=[Depends(creates_allowed)],
    responses={**CREATED_LINKS, **error_responses(400, 401, 403, 413, 422, 429)},
)
async def create_game(request: Request, body: GameIn) -> GameCreated:
    """Create a game; the answer holds every seat's secret link (shown only this once)."""
    service = service_of(request)
    # a seat marked "mine" becomes the creating account's (its session opens it; the link
    # still works): a write by the session, so it needs the CSRF token; a guest marks none
    mine = any(seat.mine for seat in body.seats)
    account = await account_of(request, None, writing=True) if mine else None
    if mine and account is None:
        raise ApiError(401, t("a seat marked 'mine' is for a logged-in account: log in first"))
    holder = await request.app.state.accounts.account(account) if account is not None else None
    creator = account
    if creator is None:  # a logged-in creator's games count toward the account's share too
        session = await session_of(request)
        creator = session.account.id if session is not None else None
    created = await service.create(
        body.game,
        [
            SeatRequest(  # a seat marked "mine" goes by the account's name unless named
                seat.kind,
                seat.name or (holder.name if seat.mine and holder else None),
                seat.bot,
                account=account if seat.mine else None,
            )
            for seat in body.seats
        ],
        body.options,
        body.seed,
        body.turn_timer,
        body.time_control.to_dict() if body.time_control else None,
        creator=Creator.of(client_host(request), creator),
    )
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


@router.get(
    "/games/{game_id}", operation_id="get_view", response_model=dict[str, Any], responses=SEAT_ROUTE
)
async def get_view(
    request: Request, game_id: str, token: Token = None, x_token: TokenHeader = None
) -> Response:
    """The game as the token's seat sees it (a spectator's view without a token)."""
    service = service_of(request)
    token = token or x_token
    account = await account_of(request, token, writing=False)
    room, seat = await resolve(service, game_id, token, account)
    check_unsealed(room, seat)
    return json_response(service.view_json(room, seat))


@router.get(
    "/games/{game_id}/sheets/{seat}",
    operation_id="get_sheet",
    response_model=dict[str, Any],
    responses=SEAT_ROUTE,
)
async def get_sheet(
    request: Request, game_id: str, seat: int, token: Token = None, x_token: TokenHeader = None
) -> Response:
    """One player's part of the page in full (Egyptia: the builder's sheet, drawn), as the
    token's seat sees it: another player's as last made public, the seat's own as it
    stands; a spectator's without a token. A crowd table's view carries the other players
    in short, and its page fetches a player's part from here when asked. 404: the game has
    no such seat, or its page has no such part."""
    service = service_of(request)
    token = token or x_token
    account = await account_of(request, token, writing=False)
    room, reader = await resolve(service, game_id, token, account)
    check_unsealed(room, reader)
    text = service.sheet_json(room, reader, seat)
    if text is not None:
        return json_response(text)
    if 0 <= seat < len(room.seats):
        raise ApiError(404, t("this game's page shows every player in its view"))
    raise ApiError(
        404, t("the game has seats 0 to {last}, not {seat}", last=len(room.seats) - 1, seat=seat)
    )


def move_answer(service: GameService, room: Room, seat: int, duplicate: bool) -> Response:
    """A :class:`MoveOut`, with the seat's view spliced in as the text encoded once."""
    version = room.version_for(seat)
    head = encode({"accepted": not duplicate, "duplicate": duplicate, "version": version})
    return json_response(f'{head[:-1]},"view":{service.view_json(room, seat)}}}')


@router.post(
    "/games/{game_id}/actions",
    operation_id="submit_action",
    response_model=MoveOut,
    dependencies=[Depends(moves_allowed)],
    responses=ACTING_ROUTE,
)
async def submit_action(
    request: Request,
    game_id: str,
    body: MoveIn,
    token: Token = None,
    x_token: TokenHeader = None,
) -> Response:
    """Play a move for the token's seat, naming the version it was chosen at."""
    service = service_of(request)
    room, seat = await resolve_seat(request, service, game_id, token or x_token, "move")
    action = service.parse(room, body.action)
    outcome = await service.submit(room, seat, body.version, action)
    return move_answer(service, room, seat, outcome.duplicate)


class UndoIn(BaseModel):
    model_config = STRICT

    version: Version


@router.post(
    "/games/{game_id}/undo",
    operation_id="undo_move",
    response_model=MoveOut,
    dependencies=[Depends(moves_allowed)],
    responses=ACTING_ROUTE,
)
async def undo_move(
    request: Request,
    game_id: str,
    body: UndoIn,
    token: Token = None,
    x_token: TokenHeader = None,
) -> Response:
    """Take back the seat's own last move, while its turn lasts and nothing was revealed."""
    service = service_of(request)
    room, seat = await resolve_seat(request, service, game_id, token or x_token, "undo")
    await service.undo(room, seat, body.version)
    return move_answer(service, room, seat, duplicate=False)


@router.get("/games/{game_id}/record", operation_id="get_record", responses=FINISHED_ROUTE)
async def get_record(request: Request, game_id: str) -> dict[str, Any]:
    """The replayable record of a finished game (it holds the seed, so never before the end)."""
    service = service_of(request)
    room, _ = await resolve(service, game_id, None)
    check_unsealed(room, None)
    if not room.is_over:
        raise ApiError(
            409, t("the record is published when the game is over"), room.version_for(None)
        )
    return room.record().to_json()


@router.get("/games/{game_id}/replay", operation_id="replay_length", responses=FINISHED_ROUTE)
async def replay_length(request: Request, game_id: str) -> dict[str, int]:
    """How many moves a finished game's replay has."""
    room = await finished_room(service_of(request), game_id)
    return {"steps": replay_steps(room)}  # the lobby counts a finished game's moves alike


@router.get("/games/{game_id}/replay/{step}", operation_id="replay_view", responses=FINISHED_ROUTE)
async def replay_view(request: Request, game_id: str, step: int) -> dict[str, Any]:
    """A spectator's view of a finished game after its first ``step`` moves."""
    service = service_of(request)
    room = await finished_room(service, game_id)
    if not 0 <= step <= len(room.accepted):
        raise ApiError(
            404,
            t("the replay has moves 0 to {last}, not {step}", last=len(room.accepted), step=step),
        )
    replayed = service.replays.room_at(room, step)  # from a snapshot (karnak.server.replays)
    view = seat_view(replayed, None)
    parts = page_for(room.game.name)
    if parts is not None and parts.replay is not None and "page" in view:
        # the game is over: its replay may show what was hidden while it ran
        view["page"]["replay"] = parts.replay(replayed.state)
    return view


async def finished_room(service: GameService, game_id: str) -> Room:
    room, _ = await resolve(service, game_id, None)
    check_unsealed(room, None)
    if not room.is_over:
        raise ApiError(409, t("replays open when the game is over"), room.version_for(None))
    return room


#: The only message a client sends is the text "view"; anything longer is not that.
MAX_SOCKET_MESSAGE = 64
#: Close codes (RFC 6455) for messages the socket does not take.
CLOSE_BINARY, CLOSE_POLICY, CLOSE_TOO_BIG = 1003, 1008, 1009


def close_reason(message: str) -> str:
    """A close frame's reason holds at most 123 bytes of UTF-8."""
    return message.encode("utf-8", "backslashreplace")[:120].decode("utf-8", "ignore")


@router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
    """Live views for one seat (or a spectator): the full view at once, then after each change.

    A refusal is told after accepting the connection, as an application close code of 4000
    plus the HTTP status (4404 no such game, 4403 wrong token, 4410 unavailable, 4429 too
    many open sockets of the address or account: karnak.server.sockets) with the reason:
    closing before accepting reaches a browser as a bare HTTP 403, without either.
    The client may send only the text "view" (to get the full view again); a binary message
    closes the socket with 1003, a longer text with 1009, any other text with 1008.
    """
    service: GameService = websocket.app.state.service
    try:
        check_game_id(game_id)
        account = None
        if not token and same_origin(websocket):  # a cookie from another site's page: ignored
            session = await session_of(websocket)
            account = session.account.id if session is not None else None
        room = await service.room(game_id)
        seat = service.seat_of(room, token, account)
        check_unsealed(room, seat)
    except Exception as exc:
        error = as_api_error(exc)
        await websocket.accept()
        await websocket.close(code=4000 + error.status, reason=close_reason(error.message))
        return
    await websocket.accept()
    try:  # karnak.server.sockets: a cap per client address and per account
        ticket = counter_of(websocket).take(client_host(websocket), account)
    except TooManySocketsError as exc:
        await websocket.close(code=CLOSE_TOO_MANY, reason=close_reason(str(exc)))
        return
    try:
        listener = service.subscribe(room, seat)
    except BaseException:
        ticket.give_back()
        raise

    async def send_views() -> None:
        while True:
            await websocket.send_text(await listener.next_view())

    async def receive() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                refusal = (CLOSE_BINARY, "binary messages are not taken: send the text 'view'")
            elif len(text) > MAX_SOCKET_MESSAGE:
                refusal = (CLOSE_TOO_BIG, "message too long: the only message is the text 'view'")
            elif text != "view":
                refusal = (CLOSE_POLICY, "unknown message: the only message is the text 'view'")
            else:  # a client that lost track asks for the full view
                listener.offer(service.view_json(room, listener.seat))  # None once it left
                continue
            await websocket.close(code=refusal[0], reason=refusal[1])
            return

    sender, receiver = asyncio.create_task(send_views()), asyncio.create_task(receive())
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        service.unsubscribe(room, listener)
        ticket.give_back()
        for task in (sender, receiver):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
