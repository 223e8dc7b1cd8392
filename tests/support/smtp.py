"""A local SMTP server for tests (aiosmtpd in a thread), keeping every e-mail it is given.

Reusable by any test that needs to see the e-mails a server sends::

    from support.smtp import SmtpServer

    with SmtpServer() as smtp:
        app = create_app(database)
        configure_mail(app, smtp.settings(public_url="http://testserver"))
        with TestClient(app) as client:
            ...  # something that sends an e-mail
            [mail] = smtp.wait_for(1)
            assert "your turn" in mail.subject

``smtp_server`` is the same as a pytest fixture (import it into a test module or a
conftest). Options: ``user``/``password`` to require a log-in, ``tls="starttls"`` or
``tls="ssl"`` to talk TLS with a certificate from a test authority (``settings()`` trusts it),
``refuse`` to refuse every recipient; ``stop()`` makes the server unreachable.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, Envelope, LoginPassword

from karnak.server.mail.settings import MailSettings


@dataclass(frozen=True)
class Captured:
    """One e-mail as the SMTP server received it."""

    sender: str
    recipients: tuple[str, ...]
    message: EmailMessage
    #: Whether the conversation was encrypted and whom it was logged in as.
    tls: bool
    login: str | None

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def to(self) -> str:
        return str(self.message["To"])

    @property
    def body(self) -> str:
        part = self.message.get_body(("plain",))
        assert part is not None
        return str(part.get_content()).replace("\r\n", "\n")  # type: ignore[attr-defined]


class _Handler:
    def __init__(self, server: SmtpServer):
        self.server = server

    async def handle_RCPT(  # aiosmtpd's names
        self, _server: Any, _session: Any, envelope: Envelope, address: str, _options: Any
    ) -> str:
        if self.server.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # aiosmtpd's names
        self, server: Any, session: Any, envelope: Envelope
    ) -> str:
        raw = envelope.original_content or envelope.content
        assert isinstance(raw, bytes)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        login = session.auth_data if session.authenticated else None
        captured = Captured(
            str(envelope.mail_from),
            tuple(envelope.rcpt_tos),
            message,
            tls=server.transport.get_extra_info("ssl_object") is not None,
            login=login,
        )
        with self.server.lock:
            self.server.mails.append(captured)
        return "250 Message accepted"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class SmtpServer:
    def __init__(
        self,
        *,
        user: str | None = None,
        password: str | None = None,
        tls: str | None = None,
        refuse: bool = False,
    ):
        self.user, self.password, self.tls, self.refuse = user, password, tls, refuse
        self.mails: list[Captured] = []
        self.lock = threading.Lock()
        self.port = free_port()
        self.client_context: ssl.SSLContext | None = None
        kwargs: dict[str, Any] = {}
        if tls is not None:
            import trustme

            authority = trustme.CA()
            server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            authority.issue_cert("127.0.0.1", "localhost").configure_cert(server_context)
            self.client_context = ssl.create_default_context()
            authority.configure_trust(self.client_context)
            if tls == "starttls":
                kwargs.update(tls_context=server_context, require_starttls=True)
            elif tls == "ssl":
                kwargs.update(ssl_context=server_context)
            else:
                raise ValueError(f"tls is 'starttls' or 'ssl', not {tls!r}")
        if user is not None:
            kwargs.update(authenticator=self._authenticate, auth_required=True)
            # over TLS from the start the whole conversation is encrypted already
            kwargs.update(auth_require_tls=tls == "starttls")
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port, **kwargs)

    def _authenticate(
        self, _server: Any, _session: Any, _envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        if (
            isinstance(data, LoginPassword)
            and data.login.decode() == self.user
            and data.password.decode() == self.password
        ):
            return AuthResult(success=True, auth_data=self.user)
        return AuthResult(success=False, handled=False)

    # ------------------------------------------------------------------ life
    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        with contextlib.suppress(AssertionError):  # stopped already
            self.controller.stop()

    def __enter__(self) -> SmtpServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ use
    def settings(self, **given: Any) -> MailSettings:
        """Settings that send to this server (``given`` overrides any field)."""
        security = {"starttls": "starttls", "ssl": "ssl"}.get(self.tls or "", "none")
        base = MailSettings(
            host="127.0.0.1",
            port=self.port,
            security=security,
            user=self.user,
            password=self.password,
            sender="Karnak <karnak@example.org>",
            public_url="http://testserver",
            timeout=5.0,
            tls_context=self.client_context,
        )
        return replace(base, **given)

    def received(self) -> list[Captured]:
        with self.lock:
            return list(self.mails)

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Captured]:
        """The e-mails received once there are at least ``count`` (AssertionError if not
        in time)."""
        end = time.monotonic() + timeout
        while len(self.received()) < count:
            if time.monotonic() > end:
                raise AssertionError(
                    f"waited for {count} e-mails, the SMTP server has {len(self.received())}"
                )
            time.sleep(0.02)
        return self.received()

    def to(self, address: str) -> list[Captured]:
        return [mail for mail in self.received() if address in mail.recipients]


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server
