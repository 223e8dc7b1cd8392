"""Open WebSockets, counted per client address and per account, and capped.

A socket costs the server for as long as it stays open: a task pair, a subscription on the
hub, the protocol's buffers (tens of kilobytes each). One client opening a thousand game
sockets and a thousand account sockets with one cookie took a server from 176 to 389 MB and
its requests to 2.5 s. A page needs few: a game page opens its game's socket and its
account's, and a player may keep several tabs. So each process holds at most
``sockets_per_client`` open sockets of one client address (an IPv6 client by its /64, as
the rate limits count) and ``sockets_per_account`` of one logged-in account (known when the
socket is opened with the session cookie: the account socket, a game socket without a seat's
token). One past the cap is accepted and closed at once with the close code
:data:`CLOSE_TOO_MANY` (4429: 4000 plus HTTP's "too many requests", as the game socket's other
refusals) and a reason naming the limit, e.g. "too many open connections from this address
(64)"; a browser sees both, where a refusal before accepting would reach it as a bare 403.

The counts are per process. Behind a balancer with several processes a client may hold up to
the cap in each; that still bounds what one process holds, which is what the cap protects
(its memory and its event loop). Sharing the counts through Redis would need every process to
take its sockets back from the count when it dies, and a socket is long-lived: a lost
decrement would lock a client out until a sweep, a worse failure than a looser cap.

What one idle socket holds stays bounded whatever the client does: the game socket keeps the
newest view and at most karnak.server.service.MAX_QUEUED_MESSAGES other messages (the oldest
dropped first), the account socket at most karnak.server.notifications.routes.MAX_QUEUED,
and a client that does not read stalls its sender at the protocol's write buffer instead of
growing it (uvicorn's websockets protocol waits for the buffer to drain).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from karnak.core.errors import KarnakError
from karnak.i18n import t
from karnak.server.http_limits import client_key
from karnak.server.limits import ServerSettings

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

K = TypeVar("K")

#: The close code of a socket over the cap (4000 + 429, as the game socket's refusals).
CLOSE_TOO_MANY = 4429


class TooManySocketsError(KarnakError):
    """A socket past a cap; the message names the cap (it is the close frame's reason)."""

    status = 429


@dataclass
class SocketTicket:
    """One open socket's place in the counts: give it back when the socket closes."""

    counter: SocketCounter
    client: str
    account: int | None
    returned: bool = False

    def give_back(self) -> None:
        if not self.returned:
            self.returned = True
            self.counter._release(self)


@dataclass
class SocketCounter:
    """The open sockets of this process, per client address and per account."""

    per_client: int
    per_account: int
    clients: dict[str, int] = field(default_factory=dict)
    accounts: dict[int, int] = field(default_factory=dict)
    #: Every open socket counted here (for the metrics).
    total: int = 0

    @classmethod
    def of(cls, settings: ServerSettings) -> SocketCounter:
        return cls(settings.sockets_per_client, settings.sockets_per_account)

    def take(self, host: str | None, account: int | None = None) -> SocketTicket:
        """Count one more socket of ``host`` (and ``account``); TooManySocketsError, naming
        the cap, if either holds as many as it may already."""
        client = client_key(host)
        if self.clients.get(client, 0) >= self.per_client:
            raise TooManySocketsError(
                t(
                    "too many open connections from this address ({most}): close other tabs "
                    "of this site",
                    most=self.per_client,
                )
            )
        if account is not None and self.accounts.get(account, 0) >= self.per_account:
            raise TooManySocketsError(
                t(
                    "too many open connections of this account ({most}): close other tabs of "
                    "this site",
                    most=self.per_account,
                )
            )
        self.clients[client] = self.clients.get(client, 0) + 1
        if account is not None:
            self.accounts[account] = self.accounts.get(account, 0) + 1
        self.total += 1
        return SocketTicket(self, client, account)

    def _release(self, ticket: SocketTicket) -> None:
        self.total -= 1
        _decrement(self.clients, ticket.client)
        if ticket.account is not None:
            _decrement(self.accounts, ticket.account)


def _decrement(counts: dict[K, int], key: K) -> None:
    """One fewer for ``key``; a key at zero is dropped (the dict holds open sockets only)."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


def counter_of(connection: HTTPConnection) -> SocketCounter:
    """The app's counter, made on first use from its settings (one per process)."""
    state = connection.app.state
    counter: SocketCounter | None = getattr(state, "sockets", None)
    if counter is None:
        settings = getattr(state, "settings", None) or ServerSettings()
        counter = state.sockets = SocketCounter.of(settings)
    return counter
