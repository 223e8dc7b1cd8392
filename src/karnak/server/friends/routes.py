"""Friends over HTTP: the list, a request by name, accept, decline, remove.

Every route needs a session (401 without one) and every write its CSRF token (403). The list
(``GET /api/friends``) is what an invitation form offers first: each friend's id and name.
Requests are rate-limited per account on top of the pending bound (``FriendLimits``): a
withdrawn request can be made again, and each one notifies its addressee.

Blocks (``/api/blocks``: the list, block by name, unblock) follow the same rules of session
and CSRF token (karnak.server.friends.blocks says what a block does).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from karnak.server.accounts.routes import logged_in
from karnak.server.errors import error_responses
from karnak.server.friends.service import FriendService
from karnak.server.inputs import ShortText

router = APIRouter(prefix="/api")

#: Account ids are 32-bit in the database: a bigger one is no account (not a driver error).
AccountId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the other account's id")]


def friends_of(request: Request) -> FriendService:
    friends: FriendService = request.app.state.friends
    return friends


class FriendRequestIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"examples": [{"name": "Nefertiti"}]}
    )

    name: Annotated[ShortText, Field(min_length=1, max_length=40)] = Field(
        description="the account to ask, by its name (any case)"
    )


@router.get("/friends", operation_id="list_friends", responses=error_responses(401))
async def list_friends(request: Request) -> dict[str, Any]:
    """My friends (by name), the requests waiting for my answer (newest first, with how many
    in all) and my own requests waiting for theirs."""
    session = await logged_in(request, writing=False)
    return (await friends_of(request).listed(session.account)).to_json()


@router.post(
    "/friends/requests",
    status_code=201,
    operation_id="request_friend",
    responses={
        200: {"description": "Already asked, already friends, or it accepted their request"},
        **error_responses(400, 401, 403, 404, 409, 413, 422, 429),
    },
)
async def request_friend(request: Request, body: FriendRequestIn) -> JSONResponse:
    """Ask an account to be friends (201); the same request again, or to a friend, is
    answered as already made (200, ``duplicate``); asking someone who asked you accepts."""
    session = await logged_in(request, writing=True)
    service = friends_of(request)
    service.count_request(session.account.id)
    outcome = await service.request(session.account, body.name)
    status = 201 if outcome.state == "pending" and not outcome.duplicate else 200
    return JSONResponse(outcome.to_json(), status_code=status)


async def answer(request: Request, account_id: int, *, accept: bool) -> dict[str, Any]:
    """Accept or decline the request of ``account_id``, as the logged-in account."""
    session = await logged_in(request, writing=True)
    other = await friends_of(request).answer(session.account, account_id, accept=accept)
    state = "friends" if accept else "declined"
    return {"state": state, "account": {"id": other.id, "name": other.name}}


@router.post(
    "/friends/{account_id}/accept",
    operation_id="accept_friend",
    responses=error_responses(401, 403, 404, 422),
)
async def accept_friend(request: Request, account_id: AccountId) -> dict[str, Any]:
    """Accept the request of ``account_id``: you are friends (they are told)."""
    return await answer(request, account_id, accept=True)


@router.post(
    "/friends/{account_id}/decline",
    operation_id="decline_friend",
    responses=error_responses(401, 403, 404, 422),
)
async def decline_friend(request: Request, account_id: AccountId) -> dict[str, Any]:
    """Decline the request of ``account_id`` (they are not told, and cannot ask again)."""
    return await answer(request, account_id, accept=False)


@router.delete(
    "/friends/{account_id}",
    operation_id="remove_friend",
    responses=error_responses(401, 403, 404, 422),
)
async def remove_friend(request: Request, account_id: AccountId) -> dict[str, str]:
    """End a friendship, or withdraw my pending request to ``account_id``."""
    session = await logged_in(request, writing=True)
    removed = await friends_of(request).remove(session.account, account_id)
    return {"removed": removed}


# ---------------------------------------------------------------------- blocks
class BlockIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"examples": [{"name": "Apophis"}]}
    )

    name: Annotated[ShortText, Field(min_length=1, max_length=40)] = Field(
        description="the account to block, by its name (any case)"
    )


@router.get("/blocks", operation_id="list_blocks", responses=error_responses(401))
async def list_blocks(request: Request) -> dict[str, Any]:
    """The accounts I blocked (by name): their invitations, friend requests and chat lines
    do not reach me."""
    session = await logged_in(request, writing=False)
    blocked = await friends_of(request).blocks.listed(session.account)
    return {"blocked": [entry.to_json() for entry in blocked]}


@router.post(
    "/blocks",
    status_code=201,
    operation_id="block_player",
    responses=error_responses(400, 401, 403, 404, 413, 422),
)
async def block_player(request: Request, body: BlockIn) -> dict[str, Any]:
    """Block an account by name (blocking it again changes nothing); a friendship or
    request between us ends. They are not told."""
    session = await logged_in(request, writing=True)
    other = await friends_of(request).blocks.block(session.account, body.name)
    return {"blocked": {"id": other.id, "name": other.name}}


@router.delete(
    "/blocks/{account_id}",
    operation_id="unblock_player",
    responses=error_responses(401, 403, 404, 422),
)
async def unblock_player(request: Request, account_id: AccountId) -> dict[str, int]:
    """Lift my block of ``account_id``."""
    session = await logged_in(request, writing=True)
    await friends_of(request).blocks.unblock(session.account, account_id)
    return {"unblocked": account_id}
