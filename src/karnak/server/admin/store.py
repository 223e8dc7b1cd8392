"""Reading and writing what administrators act on (synchronous; the service runs it in the
database threads).

Every write here takes an :class:`Admin` and adds its audit row in the same transaction as
the change: the change and its record are committed together or not at all.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Engine, Result, delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import _, t
from karnak.server.accounts import standing
from karnak.server.accounts.standing import ADMIN, BANNED, SUSPENDED, aware
from karnak.server.accounts.store import AccountStore, clean_name, name_key
from karnak.server.accounts.tables import AccountRow, SessionRow
from karnak.server.admin.tables import AuditRow, ReportRow
from karnak.server.chat.tables import ChatLineRow
from karnak.server.cluster.leases import game_lease
from karnak.server.cluster.tables import LeaseRow
from karnak.server.conflicts import StaleWriteError
from karnak.server.db import GameRow, SeatRow, utcnow
from karnak.server.limits import LimitError
from karnak.server.mail.tables import MailPreferenceRow
from karnak.server.store import UnknownGameError
from karnak.server.tables.tables import TableRow, TableSeatRow

#: What a deleted account's chat lines are signed with.
DELETED_PLAYER = "deleted player"
#: The status of a game an administrator ended (karnak.server.rooms.Ending), and the words
#: every seat and spectator is shown.
ABORTED = "aborted"
ABORT_REASON = "an administrator ended this game: it has no winner and is not rated"
#: Rows listed at once, at most.
MAX_LISTED = 200
#: Recent games shown with an account.
RECENT_GAMES = 20
#: When a player who sent too many reports may send another (seconds).
REPORT_RETRY_AFTER = 600.0


class AdminError(KarnakError):
    """An administrator's request that cannot be met (the message says why)."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Admin:
    """Who acts: an administrator's account, or the command line (``id`` None)."""

    id: int | None
    name: str


COMMAND_LINE = Admin(None, "command line")


def iso(moment: dt.datetime | None) -> str | None:
    if moment is None:
        return None
    return aware(moment).astimezone(dt.UTC).replace(microsecond=0).isoformat()


def user_json(row: AccountRow, now: dt.datetime) -> dict[str, Any]:
    """An account as the admin pages list it (no password hash, no address)."""
    suspended = row.status == SUSPENDED and standing.refusal(row, now) is not None
    muted = standing.muted(row, now) is not None
    return {
        "id": row.id,
        "name": row.name,
        "role": row.role,
        # a suspension whose time has passed is over by itself
        "status": row.status if row.status != SUSPENDED or suspended else standing.ACTIVE,
        "suspended_until": iso(row.suspended_until) if suspended else None,
        "muted_until": iso(row.muted_until) if muted else None,
        "created_at": iso(row.created_at),
    }


def report_json(row: ReportRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "reporter": row.reporter_name,
        "target_id": row.target_id,
        "target_name": row.target_name,
        "game_id": row.game_id,
        "line": row.line,
        "line_text": row.line_text,
        "reason": row.reason,
        "status": row.status,
        "created_at": iso(row.created_at),
        "closed_at": iso(row.closed_at),
        "closed_by": row.closed_by,
        "note": row.note,
    }


def audit_json(row: AuditRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "at": iso(row.at),
        "admin": row.admin_name,
        "action": row.action,
        "target_kind": row.target_kind,
        "target": row.target,
        "detail": row.detail,
    }


def rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE changed (a Session's execute is typed as any Result)."""
    return cast("CursorResult[Any]", result).rowcount


def like_prefix(text: str) -> str:
    """A LIKE pattern matching names that begin with ``text`` (its wildcards escaped)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}%"


class AdminStore:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------------ the audit log
    @staticmethod
    def _audit(
        session: Session, admin: Admin, action: str, kind: str, target: str, detail: str = ""
    ) -> None:
        session.add(
            AuditRow(
                at=utcnow(),
                admin_id=admin.id,
                admin_name=admin.name[:40],
                action=action,
                target_kind=kind,
                target=target[:80],
                detail=detail,
            )
        )

    def audit(self, limit: int, before: int | None = None) -> list[dict[str, Any]]:
        """The newest audit rows first (before row ``before``)."""
        query = select(AuditRow).order_by(AuditRow.id.desc()).limit(min(limit, MAX_LISTED))
        if before is not None:
            query = query.where(AuditRow.id < before)
        with self.sessions() as session:
            return [audit_json(row) for row in session.scalars(query)]

    # ------------------------------------------------------------------ roles
    def role(self, account_id: int) -> str | None:
        with self.sessions() as session:
            row = session.get(AccountRow, account_id)
            return row.role if row is not None else None

    def _named(self, session: Session, name: str) -> AccountRow:
        row = session.scalars(
            select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))
        ).first()
        if row is None:
            raise AdminError(t("there is no account named {name}", name=repr(name.strip())), 404)
        return row

    def check_free(self, name: str) -> str:
        """The name as it would be shown, or AdminError when an account has it already (the
        command line asks before it asks for a password)."""
        shown = clean_name(name)
        with self.sessions() as session:
            if session.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key(shown))):
                raise AdminError(
                    f"the name {shown!r} is taken: make that account an administrator with "
                    f"'karnak admin grant {shown}'"
                )
        return shown

    def create_admin(self, admin: Admin, name: str, password: str) -> str:
        """A new account with the admin role (the first administrator), signed up like any
        other (the same rules for its name and password); its shown name."""
        shown = self.check_free(name)
        account = AccountStore(self.engine).sign_up(shown, password)
        with self.sessions.begin() as session:
            row = session.get(AccountRow, account.id)
            assert row is not None
            row.role = ADMIN
            self._audit(session, admin, "create_admin", "account", account.name)
        return account.name

    def set_role(self, admin: Admin, name: str, role: str) -> tuple[str, bool]:
        """Give the account ``role``; its shown name, and whether that changed anything."""
        with self.sessions.begin() as session:
            row = self._named(session, name)
            if row.role == role:
                return row.name, False
            row.role = role
            self._audit(session, admin, "grant" if role == ADMIN else "revoke", "account", row.name)
            return row.name, True

    def admins(self) -> list[dict[str, Any]]:
        now = utcnow()
        with self.sessions() as session:
            rows = session.scalars(
                select(AccountRow).where(AccountRow.role == ADMIN).order_by(AccountRow.name_key)
            )
            return [user_json(row, now) for row in rows]

    # ------------------------------------------------------------------ finding accounts
    def by_name(self, prefix: str, limit: int) -> list[dict[str, Any]]:
        """Accounts whose name begins with ``prefix`` (case and accents as in the names'
        folded keys)."""
        pattern = like_prefix(name_key(prefix.strip()))
        query = (
            select(AccountRow)
            .where(AccountRow.name_key.like(pattern, escape="\\"))
            .order_by(AccountRow.name_key)
            .limit(min(limit, MAX_LISTED))
        )
        now = utcnow()
        with self.sessions() as session:
            return [user_json(row, now) for row in session.scalars(query)]

    def by_client(self, client: str, limit: int) -> list[dict[str, Any]]:
        """Accounts seen from the address whose hash is ``client``: a session last used from
        it, a game or an open table created from it, a table seat taken from it."""
        ids = (
            select(SessionRow.account_id.label("id"))
            .where(SessionRow.client == client)
            .union(
                select(GameRow.creator_account_id).where(
                    GameRow.creator_client == client, GameRow.creator_account_id.is_not(None)
                ),
                select(TableRow.creator_account_id).where(
                    TableRow.creator_client == client, TableRow.creator_account_id.is_not(None)
                ),
                select(TableSeatRow.account_id).where(
                    TableSeatRow.client == client, TableSeatRow.account_id.is_not(None)
                ),
            )
            .subquery()
        )
        query = (
            select(AccountRow)
            .where(AccountRow.id.in_(select(ids.c.id)))
            .order_by(AccountRow.name_key)
            .limit(min(limit, MAX_LISTED))
        )
        now = utcnow()
        with self.sessions() as session:
            return [user_json(row, now) for row in session.scalars(query)]

    def by_game(self, game_id: str) -> list[dict[str, Any]]:
        """The accounts holding seats of a game."""
        query = (
            select(AccountRow)
            .join(SeatRow, SeatRow.account_id == AccountRow.id)
            .where(SeatRow.game_id == game_id)
            .order_by(SeatRow.seat)
        )
        now = utcnow()
        with self.sessions() as session:
            return [user_json(row, now) for row in session.scalars(query)]

    def user(self, account_id: int) -> dict[str, Any] | None:
        """An account with its recent games, the reports about it and whether it has a
        confirmed e-mail address (not the address)."""
        now = utcnow()
        with self.sessions() as session:
            row = session.get(AccountRow, account_id)
            if row is None:
                return None
            games = session.execute(
                select(SeatRow.seat, SeatRow.name, GameRow)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id == account_id)
                .order_by(GameRow.public_updated_at.desc(), GameRow.id)
                .limit(RECENT_GAMES)
            ).all()
            reports = session.scalars(
                select(ReportRow)
                .where(ReportRow.target_id == account_id)
                .order_by(ReportRow.id.desc())
                .limit(MAX_LISTED)
            )
            mail = session.get(MailPreferenceRow, account_id)
            return {
                **user_json(row, now),
                "email_confirmed": bool(mail and mail.address and mail.confirmed_at),
                "games": [
                    {
                        "id": game.id,
                        "game": game.game,
                        "status": game.status,
                        "seat": seat,
                        "seat_name": name,
                        "created_at": iso(game.created_at),
                        "finished_at": iso(game.finished_at),
                    }
                    for seat, name, game in games
                ],
                "reports": [report_json(report) for report in reports],
            }

    def has_confirmed_email(self, account_id: int) -> bool:
        with self.sessions() as session:
            mail = session.get(MailPreferenceRow, account_id)
            return bool(mail and mail.address and mail.confirmed_at)

    # ------------------------------------------------------------------ restraining
    def _target(self, session: Session, account_id: int) -> AccountRow:
        row = session.get(AccountRow, account_id)
        if row is None:
            raise AdminError(_("there is no account with this id"), 404)
        if row.role == ADMIN:
            raise AdminError(
                t(
                    "{name} is an administrator: revoke the role first ('karnak admin revoke "
                    "{name}' on the server)",
                    name=row.name,
                )
            )
        return row

    def restrain(
        self,
        admin: Admin,
        account_id: int,
        status: str,
        until: dt.datetime | None,
        reason: str,
    ) -> str:
        """Suspend the account until ``until`` (``status`` SUSPENDED) or ban it (BANNED), and
        end every session it has; its name."""
        with self.sessions.begin() as session:
            row = self._target(session, account_id)
            row.status = status
            row.suspended_until = until if status == SUSPENDED else None
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            detail = f"until {iso(until)}" if status == SUSPENDED else "without end"
            action = "suspend" if status == SUSPENDED else "ban"
            self._audit(session, admin, action, "account", row.name, join(detail, reason))
            return row.name

    def reinstate(self, admin: Admin, account_id: int, reason: str) -> str:
        """Lift a suspension or a ban."""
        with self.sessions.begin() as session:
            row = self._target(session, account_id)
            if row.status not in (SUSPENDED, BANNED):
                raise AdminError(t("{name} is neither suspended nor banned", name=row.name))
            row.status = standing.ACTIVE
            row.suspended_until = None
            self._audit(session, admin, "unsuspend", "account", row.name, reason)
            return row.name

    def mute(self, admin: Admin, account_id: int, until: dt.datetime | None, reason: str) -> str:
        """Refuse the account's chat lines until ``until`` (None: lift the mute)."""
        with self.sessions.begin() as session:
            row = self._target(session, account_id)
            if until is None and row.muted_until is None:
                raise AdminError(t("{name} is not muted", name=row.name))
            row.muted_until = until
            action = "mute" if until is not None else "unmute"
            detail = join(f"until {iso(until)}", reason) if until is not None else reason
            self._audit(session, admin, action, "account", row.name, detail)
            return row.name

    def audit_password_reset(self, admin: Admin, account_id: int, queued: bool) -> str:
        with self.sessions.begin() as session:
            row = session.get(AccountRow, account_id)
            if row is None:
                raise AdminError(_("there is no account with this id"), 404)
            detail = "a reset link was queued" if queued else "no mail could be queued"
            self._audit(session, admin, "password_reset", "account", row.name, detail)
            return row.name

    def delete_account(self, admin: Admin, account_id: int, reason: str) -> dict[str, Any]:
        """Delete an account (see docs/administration.md): its seats become guests' seats
        (the games keep their names and stay replayable), its chat lines are signed
        "deleted player", its open-table seats open again, and the database's cascades
        remove its sessions, e-mail address and preferences, mail log, notifications,
        friendships and ratings. What was done, counted."""
        with self.sessions.begin() as session:
            row = self._target(session, account_id)
            name = row.name
            seats = rowcount(
                session.execute(
                    update(SeatRow).where(SeatRow.account_id == account_id).values(account_id=None)
                )
            )
            lines = rowcount(
                session.execute(
                    update(ChatLineRow)
                    .where(ChatLineRow.account_id == account_id)
                    .values(account_id=None, seat_name=DELETED_PLAYER)
                )
            )
            open_tables = select(TableRow.id).where(TableRow.status == "open")
            session.execute(
                update(TableSeatRow)
                .where(
                    TableSeatRow.account_id == account_id, TableSeatRow.table_id.in_(open_tables)
                )
                .values(kind="open", account_id=None, name=None, joined_at=None)
            )
            session.execute(
                update(TableSeatRow)
                .where(TableSeatRow.invited_account_id == account_id)
                .values(invited_account_id=None)
            )
            session.execute(
                update(ReportRow).where(ReportRow.target_id == account_id).values(target_id=None)
            )
            session.execute(
                update(ReportRow)
                .where(ReportRow.reporter_id == account_id)
                .values(reporter_id=None)
            )
            session.execute(
                delete(MailPreferenceRow).where(MailPreferenceRow.account_id == account_id)
            )
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            session.delete(row)  # the rest goes with it (ON DELETE CASCADE / SET NULL)
            tally = {"seats": seats, "chat_lines": lines}
            detail = f"{seats} seats became guests', {lines} chat lines anonymised"
            self._audit(session, admin, "delete_account", "account", name, join(detail, reason))
            return {"name": name, **tally}

    # ------------------------------------------------------------------ games
    def abort_game(
        self, admin: Admin, game_id: str, version: int, public_version: int, reason: str
    ) -> dict[str, Any]:
        """End a running game where it stands (a compare-and-set on its version, like a
        move: StaleWriteError if another process changed it first); the stored result
        that every reader is shown."""
        now = utcnow()
        result = {"reason": ABORT_REASON, "winners": [], "left": []}
        with self.sessions.begin() as session:
            changed = rowcount(
                session.execute(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.version == version,
                        GameRow.status == "running",
                    )
                    .values(
                        status=ABORTED,
                        result=result,
                        version=version + 1,
                        public_version=public_version + 1,
                        updated_at=now,
                        public_updated_at=now,
                        finished_at=now,
                    )
                )
            )
            if changed != 1:
                stored = session.scalar(select(GameRow.status).where(GameRow.id == game_id))
                if stored is None:
                    raise UnknownGameError(f"game {game_id} vanished from the database")
                if stored != "running":
                    raise AdminError(
                        t(
                            "game {game} is not running (it is {status})",
                            game=game_id,
                            status=stored,
                        )
                    )
                raise StaleWriteError(f"game {game_id} changed while it was aborted")
            self._audit(session, admin, "abort_game", "game", game_id, reason)
        return result

    def delete_game(self, admin: Admin, game_id: str, reason: str) -> None:
        """Delete a game's rows: its seats, moves, chat and rating records go with it (the
        ratings it changed keep the change)."""
        with self.sessions.begin() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise UnknownGameError(f"there is no game {game_id}")
            detail = join(f"{row.game}, {row.status}", reason)
            session.execute(
                update(TableRow).where(TableRow.game_id == game_id).values(game_id=None)
            )
            session.execute(delete(TableRow).where(TableRow.rematch_of == game_id))
            session.execute(delete(LeaseRow).where(LeaseRow.name == game_lease(game_id)))
            session.delete(row)
            self._audit(session, admin, "delete_game", "game", game_id, detail)

    # ------------------------------------------------------------------ chat
    def chat(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        """Every line of a game's chat, hidden ones too (marked), newest ``limit``."""
        query = (
            select(ChatLineRow, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.id == ChatLineRow.account_id)
            .where(ChatLineRow.game_id == game_id)
            .order_by(ChatLineRow.number.desc())
            .limit(min(limit, MAX_LISTED))
        )
        with self.sessions() as session:
            rows = session.execute(query).all()
        return [
            {
                "n": line.number,
                "seat": line.seat,
                "name": line.seat_name,
                "account": account,
                "account_id": line.account_id,
                "text": line.text,
                "at": iso(line.created_at),
                "hidden_at": iso(line.hidden_at),
                "hidden_by": line.hidden_by,
            }
            for line, account in reversed(rows)
        ]

    def hide_line(self, admin: Admin, game_id: str, number: int, reason: str) -> None:
        with self.sessions.begin() as session:
            line = session.scalars(
                select(ChatLineRow).where(
                    ChatLineRow.game_id == game_id, ChatLineRow.number == number
                )
            ).first()
            if line is None:
                raise AdminError(
                    t("game {game} has no chat line {line}", game=game_id, line=number), 404
                )
            if line.hidden_at is not None:
                raise AdminError(
                    t("line {line} of game {game} is hidden already", line=number, game=game_id)
                )
            line.hidden_at = utcnow()
            line.hidden_by = admin.name[:40]
            target = f"{game_id} line {number}"
            self._audit(session, admin, "hide_chat", "chat", target, join(line.text, reason))

    # ------------------------------------------------------------------ reports
    def add_report(
        self,
        reporter: tuple[int, str],
        *,
        kind: str,
        reason: str,
        per_hour: int,
        player: str | None = None,
        game_id: str | None = None,
        line: int | None = None,
    ) -> dict[str, Any]:
        """A player's report of another player or of a chat line, refused when the reporter
        has sent ``per_hour`` reports in the last hour or reported the same thing already
        (while that report is open)."""
        reporter_id, reporter_name = reporter
        now = utcnow()
        with self.sessions.begin() as session:
            recent = session.scalar(
                select(func.count())
                .select_from(ReportRow)
                .where(
                    ReportRow.reporter_id == reporter_id,
                    ReportRow.created_at >= now - dt.timedelta(hours=1),
                )
            )
            if (recent or 0) >= per_hour:
                raise LimitError(
                    f"you have sent {per_hour} reports in the last hour, the most allowed: "
                    "try again later",
                    status=429,
                    retry_after=REPORT_RETRY_AFTER,
                )
            row = ReportRow(
                kind=kind,
                reporter_id=reporter_id,
                reporter_name=reporter_name,
                reason=reason,
                status="open",
                created_at=now,
            )
            if kind == "player":
                assert player is not None
                target = session.scalars(
                    select(AccountRow).where(AccountRow.name_key == name_key(player.strip()))
                ).first()
                if target is None:
                    raise AdminError(_("there is no player of that name"), 404)
                if target.id == reporter_id:
                    raise AdminError(_("you cannot report yourself"), 422)
                row.target_id, row.target_name = target.id, target.name
                same = ReportRow.target_id == target.id
            else:
                chat = session.execute(
                    select(ChatLineRow, AccountRow.name)
                    .outerjoin(AccountRow, AccountRow.id == ChatLineRow.account_id)
                    .where(
                        ChatLineRow.game_id == game_id,
                        ChatLineRow.number == line,
                        ChatLineRow.hidden_at.is_(None),
                    )
                ).first()
                if chat is None:
                    raise AdminError(
                        t("game {game} has no chat line {line}", game=game_id, line=line), 404
                    )
                found, account = chat
                if found.account_id == reporter_id:
                    raise AdminError(_("you cannot report your own line"), 422)
                row.target_id = found.account_id
                row.target_name = account or found.seat_name
                row.game_id, row.line, row.line_text = game_id, line, found.text
                same = (ReportRow.game_id == game_id) & (ReportRow.line == line)
            duplicate = session.scalar(
                select(ReportRow.id).where(
                    ReportRow.reporter_id == reporter_id,
                    ReportRow.kind == kind,
                    ReportRow.status == "open",
                    same,
                )
            )
            if duplicate is not None:
                raise AdminError(_("you reported this already; an administrator will look at it"))
            session.add(row)
            session.flush()
            return report_json(row)

    def reports(self, status: str, limit: int, before: int | None) -> list[dict[str, Any]]:
        query = select(ReportRow).order_by(ReportRow.id.desc()).limit(min(limit, MAX_LISTED))
        if status != "all":
            query = query.where(ReportRow.status == status)
        if before is not None:
            query = query.where(ReportRow.id < before)
        with self.sessions() as session:
            return [report_json(row) for row in session.scalars(query)]

    def close_report(self, admin: Admin, report_id: int, note: str) -> dict[str, Any]:
        with self.sessions.begin() as session:
            row = session.get(ReportRow, report_id)
            if row is None:
                raise AdminError(_("there is no report with this id"), 404)
            if row.status != "open":
                raise AdminError(t("report {id} is closed already", id=report_id))
            row.status, row.closed_at, row.closed_by = "closed", utcnow(), admin.name[:40]
            row.note = note
            self._audit(session, admin, "close_report", "report", f"report {report_id}", note)
            session.flush()
            return report_json(row)


def join(first: str, second: str) -> str:
    """Two parts of an audit row's detail, the empty ones left out."""
    return " · ".join(part for part in (first, second) if part)
