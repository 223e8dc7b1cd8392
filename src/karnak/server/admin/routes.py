"""The administration's JSON API (``/api/admin/...``) and the players' reports
(``POST /api/reports``).

Every admin route needs a logged-in session (401 without one) whose account has the admin
role (403 otherwise); every write also needs the session's CSRF token (403), like the
other account routes. Every input is bounded. What an administrator is shown of a game is
the spectators' view.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from karnak.i18n import _
from karnak.server.accounts.routes import logged_in
from karnak.server.admin.service import AdminService, Recovery
from karnak.server.admin.store import Admin
from karnak.server.api import GAME_ID, ApiError, check_game_id
from karnak.server.errors import error_responses
from karnak.server.inputs import BIDI_CONTROLS, NOTE_PATTERN, WHOLE, no_surrogates

router = APIRouter(prefix="/api")
STRICT = ConfigDict(extra="forbid", strict=True)

#: The longest reason, note or report (characters).
MAX_REASON = 500
MAX_ID = 2**31 - 1
MAX_LIST = 200
MAX_TIME_TEXT = 40


def admin_of(request: Request) -> AdminService:
    service: AdminService = request.app.state.admin
    return service


def plain_text(value: str) -> str:
    """No control characters or bidirectional marks (a newline may stand in a note)."""
    for char in value:
        if (unicodedata.category(char) == "Cc" and char != "\n") or char in BIDI_CONTROLS:
            raise PydanticCustomError(
                "control_character",
                _("cannot hold control characters (found U+{code})"),
                {"code": f"{ord(char):04X}"},
            )
    return value


Reason = Annotated[
    str,
    Field(
        max_length=MAX_REASON,
        description="why (kept in the audit log)",
        json_schema_extra={"pattern": NOTE_PATTERN},
    ),
    BeforeValidator(no_surrogates),
    AfterValidator(plain_text),
]


def iso_time(value: Any) -> Any:
    """An ISO 8601 time given as text (JSON has no time type; the strict models take no
    other text for one)."""
    if not isinstance(value, str):
        return value
    if len(value) > MAX_TIME_TEXT:
        raise PydanticCustomError("time_too_long", _("a time is at most 40 characters"))
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError(
            "time", _("not a time: write it as 2030-01-31T18:00:00Z (ISO 8601)")
        ) from None


Until = Annotated[
    AwareDatetime,
    Field(description="when it ends: a time to come, with its UTC offset"),
    BeforeValidator(iso_time),
]
AccountId = Annotated[int, Path(ge=1, le=MAX_ID)]
GameId = Annotated[str, Path(min_length=1, max_length=64)]
Limit = Annotated[int, Query(ge=1, le=MAX_LIST)]
Before = Annotated[int | None, Query(ge=1, le=MAX_ID, description="rows before this id")]


# ---------------------------------------------------------------------- bodies
class ReasonIn(BaseModel):
    model_config = STRICT

    reason: Reason = ""


class UntilIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"until": "2030-01-01T00:00:00Z", "reason": "spam"}]},
    )

    until: Until
    reason: Reason = ""


class NoteIn(BaseModel):
    model_config = STRICT

    note: Annotated[
        str,
        Field(min_length=1, max_length=MAX_REASON, json_schema_extra={"pattern": NOTE_PATTERN}),
        BeforeValidator(no_surrogates),
        AfterValidator(plain_text),
    ]


#: NOTE_PATTERN's characters, with at least one that is not a space: a report says something.
_NOTE_CHARS = NOTE_PATTERN.removeprefix("^[^").removesuffix("]*$")
REPORT_PATTERN = f"^[^{_NOTE_CHARS}]*[^{_NOTE_CHARS}\\s][^{_NOTE_CHARS}]*$"

ReportReason = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_REASON,
        description="what is wrong",
        json_schema_extra={"pattern": REPORT_PATTERN},
    ),
    BeforeValidator(no_surrogates),
    AfterValidator(plain_text),
]


class ChatReportIn(BaseModel):
    """A chat line reported: its game and its number in the game's chat."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"kind": "chat", "game_id": "abc123", "line": 4, "reason": "spam"}]
        },
    )

    kind: Literal["chat"]
    reason: ReportReason
    game_id: Annotated[str, Field(max_length=64, pattern=GAME_ID.pattern)]
    line: Annotated[int, Field(ge=1, le=MAX_ID), WHOLE]


class PlayerReportIn(BaseModel):
    """A player reported, by name."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"kind": "player", "player": "Seth", "reason": "insults in every game"}]
        },
    )

    kind: Literal["player"]
    reason: ReportReason
    player: Annotated[str, Field(min_length=1, max_length=40), BeforeValidator(no_surrogates)]


#: A report names either a chat line or a player: the description says which fields each
#: takes, so a request that fits it is never refused for its shape.
ReportIn = Annotated[ChatReportIn | PlayerReportIn, Field(discriminator="kind")]


# ---------------------------------------------------------------------- answers
class UserOut(BaseModel):
    id: int
    name: str
    role: str
    status: str = Field(description="active, suspended or banned")
    suspended_until: str | None
    muted_until: str | None
    created_at: str | None


class UserGameOut(BaseModel):
    id: str
    game: str
    status: str
    seat: int
    seat_name: str
    created_at: str | None
    finished_at: str | None


class ReportOut(BaseModel):
    id: int
    kind: str
    reporter: str
    target_id: int | None
    target_name: str | None
    game_id: str | None
    line: int | None
    line_text: str | None
    reason: str
    status: str
    created_at: str | None
    closed_at: str | None
    closed_by: str | None
    note: str | None


class UserDetailOut(UserOut):
    email_confirmed: bool
    games: list[UserGameOut]
    reports: list[ReportOut]


class DeletedOut(BaseModel):
    name: str
    seats: int = Field(description="seats that became guests' seats")
    chat_lines: int = Field(description="chat lines now signed 'deleted player'")


class ResetOut(BaseModel):
    queued: bool
    message: str


class GameOut(BaseModel):
    view: dict[str, Any] = Field(description="the spectators' view of the game")
    holders: list[UserOut]


class DoneOut(BaseModel):
    done: bool


class ChatLineOut(BaseModel):
    n: int
    seat: int
    name: str
    account: str | None
    account_id: int | None
    text: str
    at: str | None
    hidden_at: str | None
    hidden_by: str | None


class AuditOut(BaseModel):
    id: int
    at: str | None
    admin: str
    action: str
    target_kind: str
    target: str
    detail: str


# ---------------------------------------------------------------------- who is asking


async def administrator(request: Request, *, writing: bool = False) -> Admin:
    """The administrator asking: 401 when nobody is logged in, 403 for a write without the
    CSRF token or for an account that is not an administrator."""
    session = await logged_in(request, writing=writing)
    if not await admin_of(request).is_admin(session.account.id):
        raise ApiError(403, _("only administrators may do this, and this account is not one"))
    return Admin(session.account.id, session.account.name)


READ = error_responses(401, 403, 422)
READ_ONE = error_responses(401, 403, 404, 422)
WRITE = error_responses(400, 401, 403, 404, 409, 413, 422)
GAME_WRITE = error_responses(400, 401, 403, 404, 409, 410, 413, 422)


# ---------------------------------------------------------------------- accounts
@router.get("/admin/users", operation_id="admin_find_users", responses=READ)
async def find_users(
    request: Request,
    name: Annotated[
        str | None, Query(min_length=1, max_length=40, description="a name's beginning")
    ] = None,
    address: Annotated[
        str | None, Query(min_length=2, max_length=45, description="an IP address")
    ] = None,
    game: Annotated[
        str | None, Query(min_length=1, max_length=64, description="a game's id")
    ] = None,
    limit: Limit = 50,
) -> list[UserOut]:
    """Accounts by the beginning of their name, by an IP address they were seen from (only
    its hash is stored), or by a game they hold seats of: one of the three."""
    await administrator(request)
    if game is not None and not GAME_ID.fullmatch(game):
        raise ApiError(422, _("query parameter game: not a game id"))
    found = await admin_of(request).find(name=name, address=address, game=game, limit=limit)
    return [UserOut(**user) for user in found]


@router.get("/admin/users/{account_id}", operation_id="admin_get_user", responses=READ_ONE)
async def get_user(request: Request, account_id: AccountId) -> UserDetailOut:
    """An account: its standing, its recent games, the reports about it."""
    await administrator(request)
    return UserDetailOut(**await admin_of(request).user(account_id))


@router.post(
    "/admin/users/{account_id}/suspend", operation_id="admin_suspend_user", responses=WRITE
)
async def suspend_user(request: Request, account_id: AccountId, body: UntilIn) -> UserDetailOut:
    """Suspend an account until a time: it cannot log in, and its sessions end now."""
    admin = await administrator(request, writing=True)
    return UserDetailOut(
        **await admin_of(request).suspend(admin, account_id, body.until, body.reason)
    )


@router.post("/admin/users/{account_id}/ban", operation_id="admin_ban_user", responses=WRITE)
async def ban_user(request: Request, account_id: AccountId, body: ReasonIn) -> UserDetailOut:
    """Ban an account without end: it cannot log in, and its sessions end now."""
    admin = await administrator(request, writing=True)
    return UserDetailOut(**await admin_of(request).ban(admin, account_id, body.reason))


@router.post(
    "/admin/users/{account_id}/unsuspend", operation_id="admin_unsuspend_user", responses=WRITE
)
async def unsuspend_user(request: Request, account_id: AccountId, body: ReasonIn) -> UserDetailOut:
    """Lift a suspension or a ban."""
    admin = await administrator(request, writing=True)
    return UserDetailOut(**await admin_of(request).reinstate(admin, account_id, body.reason))


@router.post("/admin/users/{account_id}/mute", operation_id="admin_mute_user", responses=WRITE)
async def mute_user(request: Request, account_id: AccountId, body: UntilIn) -> UserDetailOut:
    """Refuse the account's chat lines until a time."""
    admin = await administrator(request, writing=True)
    return UserDetailOut(**await admin_of(request).mute(admin, account_id, body.until, body.reason))


@router.post("/admin/users/{account_id}/unmute", operation_id="admin_unmute_user", responses=WRITE)
async def unmute_user(request: Request, account_id: AccountId, body: ReasonIn) -> UserDetailOut:
    admin = await administrator(request, writing=True)
    return UserDetailOut(**await admin_of(request).mute(admin, account_id, None, body.reason))


@router.post(
    "/admin/users/{account_id}/password-reset",
    operation_id="admin_password_reset",
    responses=WRITE,
)
async def password_reset(request: Request, account_id: AccountId) -> ResetOut:
    """Send the account a password-reset link by its confirmed e-mail address (409 when it
    has none)."""
    admin = await administrator(request, writing=True)
    recovery: Recovery | None = getattr(request.app.state, "recovery", None)
    queued = await admin_of(request).password_reset(admin, account_id, recovery)
    message = "a reset link is on its way" if queued else "no mail could be queued now"
    return ResetOut(queued=queued, message=message)


@router.post("/admin/users/{account_id}/delete", operation_id="admin_delete_user", responses=WRITE)
async def delete_user(request: Request, account_id: AccountId, body: ReasonIn) -> DeletedOut:
    """Delete an account: its seats become guests' seats, its chat lines anonymous, its
    e-mail address, sessions, notifications, friendships and ratings gone."""
    admin = await administrator(request, writing=True)
    return DeletedOut(**await admin_of(request).delete_account(admin, account_id, body.reason))


# ---------------------------------------------------------------------- games
@router.get(
    "/admin/games/{game_id}",
    operation_id="admin_get_game",
    responses=error_responses(401, 403, 404, 410, 422),
)
async def get_game(request: Request, game_id: GameId) -> GameOut:
    """A game as spectators see it (no seat's hidden information), with the accounts
    holding its seats."""
    await administrator(request)
    check_game_id(game_id)
    return GameOut(**await admin_of(request).game(game_id))


@router.post("/admin/games/{game_id}/abort", operation_id="admin_abort_game", responses=GAME_WRITE)
async def abort_game(request: Request, game_id: GameId, body: ReasonIn) -> GameOut:
    """End a running game where it stands: no winner, not rated; its pages hear at once."""
    admin = await administrator(request, writing=True)
    check_game_id(game_id)
    return GameOut(**await admin_of(request).abort(admin, game_id, body.reason))


@router.post("/admin/games/{game_id}/delete", operation_id="admin_delete_game", responses=WRITE)
async def delete_game(request: Request, game_id: GameId, body: ReasonIn) -> DoneOut:
    """Delete a game and everything of it (moves, seats, chat); its pages are told."""
    admin = await administrator(request, writing=True)
    check_game_id(game_id)
    await admin_of(request).delete_game(admin, game_id, body.reason)
    return DoneOut(done=True)


@router.get(
    "/admin/games/{game_id}/chat",
    operation_id="admin_get_chat",
    responses=error_responses(401, 403, 404, 410, 422),
)
async def get_chat(request: Request, game_id: GameId, limit: Limit = 200) -> list[ChatLineOut]:
    """A game's chat with its hidden lines (marked), newest ``limit``, oldest first."""
    await administrator(request)
    check_game_id(game_id)
    return [ChatLineOut(**line) for line in await admin_of(request).chat(game_id, limit)]


@router.post(
    "/admin/games/{game_id}/chat/{number}/hide",
    operation_id="admin_hide_chat_line",
    responses=WRITE,
)
async def hide_chat_line(
    request: Request,
    game_id: GameId,
    number: Annotated[int, Path(ge=1, le=MAX_ID)],
    body: ReasonIn,
) -> DoneOut:
    """Hide a chat line from everyone's history and open pages (kept for the audit)."""
    admin = await administrator(request, writing=True)
    check_game_id(game_id)
    await admin_of(request).hide_line(admin, game_id, number, body.reason)
    return DoneOut(done=True)


# ---------------------------------------------------------------------- reports and audit
@router.get("/admin/reports", operation_id="admin_list_reports", responses=READ)
async def list_reports(
    request: Request,
    status: Annotated[Literal["open", "closed", "all"], Query()] = "open",
    limit: Limit = 50,
    before: Before = None,
) -> list[ReportOut]:
    """The reports players sent, newest first."""
    await administrator(request)
    return [ReportOut(**r) for r in await admin_of(request).reports(status, limit, before)]


@router.post("/admin/reports/{report_id}/close", operation_id="admin_close_report", responses=WRITE)
async def close_report(
    request: Request, report_id: Annotated[int, Path(ge=1, le=MAX_ID)], body: NoteIn
) -> ReportOut:
    """Close a report with a note (what was done, or why nothing)."""
    admin = await administrator(request, writing=True)
    return ReportOut(**await admin_of(request).close_report(admin, report_id, body.note))


@router.get("/admin/audit", operation_id="admin_audit_log", responses=READ)
async def audit_log(request: Request, limit: Limit = 50, before: Before = None) -> list[AuditOut]:
    """Every administrator's action, newest first (rows are never changed or deleted)."""
    await administrator(request)
    return [AuditOut(**row) for row in await admin_of(request).audit(limit, before)]


@router.post(
    "/reports",
    status_code=201,
    operation_id="send_report",
    responses=error_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
async def send_report(request: Request, body: ReportIn) -> ReportOut:
    """Report a chat line (``game_id`` and ``line``) or a player (``player``: a name) to the
    administrators, with a reason; a few per hour."""
    session = await logged_in(request, writing=True)
    details: dict[str, Any]
    if isinstance(body, ChatReportIn):
        details = {"game_id": body.game_id, "line": body.line}
    else:
        details = {"player": body.player}
    if not body.reason.strip():
        raise ApiError(422, _("say what is wrong in reason"))
    reporter = (session.account.id, session.account.name)
    report = await admin_of(request).report(
        reporter, kind=body.kind, reason=body.reason.strip(), **details
    )
    return ReportOut(**report)
