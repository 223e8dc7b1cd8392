"""Handing e-mails to the SMTP server, in a thread of its own behind a bounded queue.

Why smtplib in a thread rather than an asyncio client (aiosmtplib): the standard library's
client is complete (STARTTLS, TLS, log-in), adds no dependency, and a thread keeps every SMTP
conversation (name lookups, TLS handshakes, a slow or silent server) off the event loop by
construction; e-mails are few, so one thread sending them one after the other is plenty.

The event loop only ever puts an e-mail on the queue without waiting (:meth:`Sender.post`).
The queue is bounded: when the SMTP server cannot keep up (or is down and every try waits for
its time-out) new e-mails are dropped with a line in the log rather than kept without end.
The thread takes whatever is queued, sends it over one connection, and closes it. A failure
(the server unreachable, a refusal, a time-out) is logged in one line, naming the account and
the kind of e-mail but never the address, and is never retried: nothing of it reaches a game.
"""

from __future__ import annotations

import logging
import queue
import smtplib
import threading
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from karnak.server.mail.settings import MailSettings

log = logging.getLogger("karnak.server")

#: The most e-mails sent over one connection before it is closed and another opened.
BATCH = 50


@dataclass(frozen=True)
class Outgoing:
    """One e-mail to send: to whom, what, and for the log which account and kind."""

    to: str
    subject: str
    body: str
    kind: str
    account: int


class Sender:
    def __init__(self, settings: MailSettings):
        self.settings = settings
        self._queue: queue.Queue[Outgoing | None] = queue.Queue(maxsize=settings.queue_size)
        self._thread: threading.Thread | None = None
        #: E-mails the SMTP server took, and those lost (refused, failed or dropped).
        self.sent = 0
        self.failed = 0

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="karnak-mail", daemon=True)
            self._thread.start()

    def post(self, mail: Outgoing) -> bool:
        """Queue an e-mail without waiting; False (and a log line) when the queue is full."""
        try:
            self._queue.put_nowait(mail)
        except queue.Full:
            self.failed += 1
            log.warning(
                "e-mail: %s for account %d dropped: %d e-mails already wait for the SMTP server",
                mail.kind,
                mail.account,
                self.settings.queue_size,
            )
            return False
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Let the thread finish what it is sending, then end it (what still waits is lost:
        a notification stays in the account's list)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        while True:  # make room for the sign to stop
            try:
                self._queue.put_nowait(None)
                break
            except queue.Full:
                try:
                    self._queue.get_nowait()
                    self._queue.task_done()
                except queue.Empty:
                    pass
        thread.join(timeout)

    def idle(self) -> bool:
        """Nothing waits (tests)."""
        return self._queue.unfinished_tasks == 0

    @property
    def waiting(self) -> int:
        """E-mails queued for the SMTP server (the metrics' mail queue)."""
        return self._queue.qsize()

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        while True:
            first = self._queue.get()
            batch: list[Outgoing] = []
            stop = first is None
            if first is not None:
                batch.append(first)
            while not stop and len(batch) < BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                else:
                    batch.append(more)
            try:
                if batch:
                    self._deliver(batch)
            finally:
                for _ in range(len(batch) + (1 if stop else 0)):
                    self._queue.task_done()
            if stop:
                return

    def _deliver(self, batch: list[Outgoing]) -> None:
        try:
            smtp = self._connect()
        except Exception as exc:  # unreachable, refused, TLS or log-in failed, time-out
            self._lost(batch, f"cannot use the SMTP server: {one_line(exc)}")
            return
        try:
            for index, mail in enumerate(batch):
                try:
                    smtp.send_message(self.message(mail))
                    self.sent += 1
                except Exception as exc:
                    if broken(exc):  # the connection is gone: the rest cannot go either
                        self._lost(batch[index:], f"the SMTP server went away: {one_line(exc)}")
                        return
                    self._lost([mail], one_line(exc))  # this one refused (its address)
        finally:
            try:
                smtp.quit()
            except Exception:
                smtp.close()

    def _lost(self, mails: list[Outgoing], why: str) -> None:
        """Count e-mails that could not be sent and say so in one line (without addresses)."""
        self.failed += len(mails)
        for mail in mails:  # a refusal quotes the address: it stays out of the log
            why = why.replace(mail.to, "<address>")
        named = ", ".join(f"{m.kind} for account {m.account}" for m in mails[:5])
        more = f" and {len(mails) - 5} more" if len(mails) > 5 else ""
        log.warning(
            "e-mail: %d not sent (%s%s) via %s:%d: %s",
            len(mails),
            named,
            more,
            self.settings.host,
            self.settings.port,
            why,
        )

    def _connect(self) -> smtplib.SMTP:
        settings = self.settings
        assert settings.host is not None
        smtp: smtplib.SMTP
        if settings.security == "ssl":
            smtp = smtplib.SMTP_SSL(
                settings.host, settings.port, timeout=settings.timeout, context=settings.context()
            )
        else:
            smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
        try:
            if settings.security == "starttls":
                smtp.starttls(context=settings.context())
            if settings.user is not None and settings.password is not None:
                smtp.login(settings.user, settings.password)
        except Exception:
            smtp.close()
            raise
        return smtp

    def message(self, mail: Outgoing) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = mail.to
        message["Subject"] = mail.subject
        message["Date"] = formatdate(usegmt=True)
        domain = self.settings.sender.rsplit("@", 1)[-1].rstrip(">")
        message["Message-ID"] = make_msgid(domain=domain)
        # RFC 3834: machine-written, so that out-of-office replies stay away.
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(mail.body)
        return message


def broken(exc: BaseException) -> bool:
    """Whether a failure lost the connection (rather than one message being refused)."""
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return True
    return isinstance(exc, OSError) and not isinstance(exc, smtplib.SMTPException)


def one_line(exc: BaseException) -> str:
    """An exception as one short line of the log."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:200]
