"""What administrators do, over the store: each action written with its audit row, then
told to whoever must hear of it (the account's sessions everywhere, a game's sockets).

A game is changed only through :meth:`GameService.change` (an abort, like a move, is a
compare-and-set on the game's version) or :meth:`GameService.delete`; an administrator sees
a game as a spectator does.
"""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
from typing import TYPE_CHECKING, Any, Protocol

import orjson
from sqlalchemy import Engine

from karnak.i18n import _, t
from karnak.server.accounts.auth import client_hash
from karnak.server.accounts.service import REVOKED, SESSIONS_TOPIC
from karnak.server.accounts.standing import ADMIN, BANNED, PLAYER, SUSPENDED
from karnak.server.admin.store import (
    ABORT_REASON,
    ABORTED,
    COMMAND_LINE,
    Admin,
    AdminError,
    AdminStore,
)
from karnak.server.db import utcnow
from karnak.server.hub import Hub, game_topic
from karnak.server.rooms import Ending
from karnak.server.service import Change, GameService, GameUnavailableError

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

#: What a deleted game's sockets, and later requests for it, are told.
DELETED_REASON = "an administrator deleted this game"
#: The longest suspension or mute (days): longer is a ban.
MAX_DAYS = 3650


class Recovery(Protocol):
    """The password-reset service (karnak.server's recovery module, ``app.state.recovery``)."""

    async def send_reset(self, account_id: int) -> bool: ...


def address_hash(address: str) -> str:
    """The hash an address is stored under (as the rate limits count it), or AdminError for
    something that is not an IP address."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        raise AdminError(
            t("{address} is not an IP address", address=repr(address.strip()[:50])), 422
        ) from None
    return client_hash(str(parsed))


def check_until(until: dt.datetime) -> dt.datetime:
    now = utcnow()
    if until <= now:
        raise AdminError(_("that time has passed already: give a time to come"), 422)
    if until > now + dt.timedelta(days=MAX_DAYS):
        raise AdminError(t("at most {n} days ahead (longer is a ban)", n=MAX_DAYS), 422)
    return until.astimezone(dt.UTC)


class AdminService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        hub: Hub,
        games: GameService,
        *,
        reports_per_hour: int = 10,
    ):
        self.store = AdminStore(engine)
        self.executor = executor
        self.hub = hub
        self.games = games
        self.reports_per_hour = reports_per_hour

    async def is_admin(self, account_id: int) -> bool:
        return await self.executor.run(self.store.role, account_id) == ADMIN

    # ------------------------------------------------------------------ accounts
    async def find(
        self,
        *,
        name: str | None = None,
        address: str | None = None,
        game: str | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """Accounts by name prefix, by an address they were seen from, or by a game they
        hold seats of (exactly one of the three)."""
        given = [x for x in (name, address, game) if x]
        if len(given) != 1:
            raise AdminError(_("search by one of name, address or game"), 422)
        if name:
            return await self.executor.run(self.store.by_name, name, limit)
        if address:
            return await self.executor.run(self.store.by_client, address_hash(address), limit)
        assert game is not None
        return await self.executor.run(self.store.by_game, game)

    async def user(self, account_id: int) -> dict[str, Any]:
        found = await self.executor.run(self.store.user, account_id)
        if found is None:
            raise AdminError(_("there is no account with this id"), 404)
        return found

    def _sessions_ended(self, account_id: int) -> None:
        """Every process forgets the account's sessions at once (karnak.server.accounts)."""
        self.hub.publish(SESSIONS_TOPIC, REVOKED, {"account": account_id})

    async def suspend(
        self, admin: Admin, account_id: int, until: dt.datetime, reason: str
    ) -> dict[str, Any]:
        until = check_until(until)
        await self.executor.run(self.store.restrain, admin, account_id, SUSPENDED, until, reason)
        self._sessions_ended(account_id)
        return await self.user(account_id)

    async def ban(self, admin: Admin, account_id: int, reason: str) -> dict[str, Any]:
        await self.executor.run(self.store.restrain, admin, account_id, BANNED, None, reason)
        self._sessions_ended(account_id)
        return await self.user(account_id)

    async def reinstate(self, admin: Admin, account_id: int, reason: str) -> dict[str, Any]:
        await self.executor.run(self.store.reinstate, admin, account_id, reason)
        return await self.user(account_id)

    async def mute(
        self, admin: Admin, account_id: int, until: dt.datetime | None, reason: str
    ) -> dict[str, Any]:
        checked = check_until(until) if until is not None else None
        await self.executor.run(self.store.mute, admin, account_id, checked, reason)
        return await self.user(account_id)

    async def password_reset(
        self, admin: Admin, account_id: int, recovery: Recovery | None
    ) -> bool:
        """Send the account a password-reset link by its confirmed e-mail address."""
        found = await self.user(account_id)
        if not found["email_confirmed"]:
            raise AdminError(
                t(
                    "{name} has no confirmed e-mail address: a reset link cannot be sent",
                    name=found["name"],
                )
            )
        if recovery is None:
            raise AdminError(_("password resets are not available on this server"))
        queued = await recovery.send_reset(account_id)
        await self.executor.run(self.store.audit_password_reset, admin, account_id, queued)
        return queued

    async def delete_account(self, admin: Admin, account_id: int, reason: str) -> dict[str, Any]:
        done = await self.executor.run(self.store.delete_account, admin, account_id, reason)
        self._sessions_ended(account_id)
        await self.games.release_account(account_id)
        return done

    # ------------------------------------------------------------------ games
    async def game(self, game_id: str) -> dict[str, Any]:
        """A game as a spectator sees it (never a seat's hidden hand), with the accounts
        holding its seats."""
        room = await self.games.room(game_id)
        view = orjson.loads(self.games.view_json(room, None))
        holders = await self.executor.run(self.store.by_game, room.id)
        return {"view": view, "holders": holders}

    async def abort(self, admin: Admin, game_id: str, reason: str) -> dict[str, Any]:
        """End a running game where it stands: no winner, never rated; its sockets get the
        new view (status "aborted")."""
        room = await self.games.room(game_id)

        async def attempt() -> Change[None]:
            if room.is_over:
                raise AdminError(t("game {game} is over already", game=room.id))
            await self.executor.run(
                self.store.abort_game,
                admin,
                room.id,
                room.version,
                room.version_for(None),
                reason,
            )
            room.ended = Ending(ABORTED, ABORT_REASON)
            room.bump(room.version + 1)
            return None, True

        await self.games.change(room, attempt)
        return await self.game(room.id)

    async def delete_game(self, admin: Admin, game_id: str, reason: str) -> None:
        """Delete a game from the database and from every process's memory; its sockets
        are told."""
        remove = functools.partial(self.store.delete_game, admin, game_id, reason)
        try:
            room = await self.games.room(game_id)
        except GameUnavailableError:  # stored but not playable here: its rows go all the same
            await self.executor.run(remove)
            return
        await self.games.delete(room, remove, DELETED_REASON)

    # ------------------------------------------------------------------ chat
    async def chat(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        await self.games.room(game_id)  # 404 for no such game
        return await self.executor.run(self.store.chat, game_id, limit)

    async def hide_line(self, admin: Admin, game_id: str, number: int, reason: str) -> None:
        """Hide a chat line from everyone (kept for the audit); the game's open pages are
        told to take it away."""
        await self.executor.run(self.store.hide_line, admin, game_id, number, reason)
        self.hub.publish(
            game_topic(game_id), "chat", {"message": {"hidden": number}, "seats_only": False}
        )

    # ------------------------------------------------------------------ reports
    async def report(self, reporter: tuple[int, str], **details: Any) -> dict[str, Any]:
        return await self.executor.run(
            functools.partial(
                self.store.add_report, reporter, per_hour=self.reports_per_hour, **details
            )
        )

    async def reports(self, status: str, limit: int, before: int | None) -> list[dict[str, Any]]:
        return await self.executor.run(self.store.reports, status, limit, before)

    async def close_report(self, admin: Admin, report_id: int, note: str) -> dict[str, Any]:
        return await self.executor.run(self.store.close_report, admin, report_id, note)

    async def audit(self, limit: int, before: int | None) -> list[dict[str, Any]]:
        return await self.executor.run(self.store.audit, limit, before)


__all__ = ["COMMAND_LINE", "PLAYER", "AdminService", "Recovery", "address_hash"]
