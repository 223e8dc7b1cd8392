"""E-mail settings: the SMTP server, where the links point, when reminders go.

E-mail is off unless an SMTP host is given (``karnak serve --smtp-host`` or
``KARNAK_SMTP_HOST``): then nothing is ever sent and the account page says so. The SMTP
password is read from ``KARNAK_SMTP_PASSWORD`` only: on a command line it would be visible to
every user of the machine (the process list) and stay in shell histories.

Addresses are checked here too, for the account's address and the sender's: plain ASCII
``local@domain`` (internationalised addresses are refused rather than half supported), at
most 254 characters (RFC 5321's path limit, less the brackets), no spaces, quotes, commas,
angle brackets or control characters. That is narrower than RFC 5322 allows, on purpose:
nothing that could split a header or name a second recipient ever reaches one.
"""

from __future__ import annotations

import re
import socket
import ssl
from dataclasses import dataclass, field
from email.utils import formataddr
from urllib.parse import urlsplit

#: How the connection to the SMTP server is protected: not at all (a relay on this machine),
#: upgraded with STARTTLS (port 587, usual), or TLS from the start (port 465).
SECURITY = ("none", "starttls", "ssl")
DEFAULT_PORTS = {"none": 25, "starttls": 587, "ssl": 465}
#: The longest address (RFC 5321: a path of 256 characters with its angle brackets).
MAX_ADDRESS = 254
MAX_LOCAL = 64
MAX_PUBLIC_URL = 200
MAX_HOST = 253
MAX_SENDER_NAME = 64
#: The most hours between two "your turn" e-mails for one game (a week).
MAX_TURN_HOURS = 168.0

LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
HOST = re.compile(r"[A-Za-z0-9.:\[\]-]+")
SENDER = re.compile(r"(?P<name>[^<>]*)<(?P<address>[^<>]*)>")


class MailSettingsError(ValueError):
    """A setting that cannot be used; the message names the option and what is wrong."""


@dataclass(frozen=True)
class MailSettings:
    """How this server sends e-mail (``host`` None: it does not)."""

    host: str | None = None
    port: int = DEFAULT_PORTS["none"]
    security: str = "none"
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    #: The From header: ``karnak@example.org`` or ``Karnak <karnak@example.org>``.
    sender: str = ""
    #: Where the site is seen from outside (links in e-mails): no slash at the end.
    public_url: str = "http://127.0.0.1:8000"
    #: The hour (UTC) of the daily reminder.
    daily_hour: int = 8
    #: At most one "your turn" e-mail per game and account in this many seconds.
    turn_every: float = 12 * 3600.0
    #: Seconds an SMTP conversation may stall before it is given up.
    timeout: float = 20.0
    #: E-mails waiting for the SMTP server; past it new ones are dropped (and logged).
    queue_size: int = 1000
    #: How often the daily reminder looks at the clock (seconds).
    tick: float = 60.0
    #: The certificates trusted for STARTTLS and TLS (None: the system's). Tests trust
    #: their own authority with it; there is no command-line option for it.
    tls_context: ssl.SSLContext | None = field(default=None, repr=False, compare=False)

    @property
    def enabled(self) -> bool:
        return self.host is not None

    @property
    def turn_hours(self) -> float:
        return self.turn_every / 3600.0

    def context(self) -> ssl.SSLContext:
        return self.tls_context or ssl.create_default_context()


def check_address(text: str) -> str:
    """The address as stored (the domain in lower case), or ValueError saying what is wrong."""
    address = text.strip()
    if not address:
        raise ValueError("an e-mail address cannot be empty")
    if len(address) > MAX_ADDRESS:
        raise ValueError(f"an e-mail address has at most {MAX_ADDRESS} characters")
    if address.count("@") != 1:
        raise ValueError("an e-mail address has exactly one @, like ana@example.org")
    local, domain = address.split("@")
    if not local or len(local) > MAX_LOCAL or not LOCAL.fullmatch(local):
        raise ValueError(
            f"the part before the @ has 1 to {MAX_LOCAL} letters, digits, dots or the signs "
            "!#$%&'*+/=?^_`{|}~- (no spaces, quotes or two dots in a row)"
        )
    labels = domain.split(".")
    if len(labels) < 2 or not all(LABEL.fullmatch(label) for label in labels):
        raise ValueError(
            "the part after the @ is a domain like example.org (letters, digits and hyphens, "
            "in parts separated by dots)"
        )
    if labels[-1].isdigit():
        raise ValueError("the part after the @ must be a domain name, not an IP address")
    return f"{local}@{domain.lower()}"


def check_sender(text: str) -> str:
    """The From header (``addr`` or ``Name <addr>``), checked."""
    found = SENDER.fullmatch(text.strip())
    name, address = (found["name"].strip(), found["address"]) if found else ("", text.strip())
    try:
        address = check_address(address)
    except ValueError as exc:
        raise MailSettingsError(f"--smtp-from {text!r}: {exc}") from None
    if len(name) > MAX_SENDER_NAME or not name.isprintable() or set(name) & set('<>"\\'):
        raise MailSettingsError(
            f"--smtp-from: the name has at most {MAX_SENDER_NAME} printable characters, "
            "without quotes or angle brackets"
        )
    return formataddr((name, address)) if name else address


def check_public_url(text: str) -> str:
    """The site's address as links begin with it: http(s), a host, maybe a port and a path;
    no user, query or fragment (no slash at the end)."""
    url = text.strip()
    problem = None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        parts, problem = None, "it is not a URL"
    if parts is not None:
        if parts.scheme not in ("http", "https"):
            problem = "it begins with http:// or https://"
        elif not parts.hostname:
            problem = "it names a host"
        elif "@" in parts.netloc:
            problem = "it holds no user name or password"
        elif parts.query or parts.fragment or "?" in url or "#" in url:
            problem = "it has no ?query or #fragment"
        elif len(url) > MAX_PUBLIC_URL or not url.isprintable() or " " in url:
            problem = f"it has at most {MAX_PUBLIC_URL} characters and no spaces"
    if problem is not None:
        raise MailSettingsError(f"--public-url {text!r}: {problem}")
    return url.rstrip("/")


def default_public_url(host: str, port: int) -> str:
    """Where links point when ``--public-url`` is not given: the host and port served (a
    server listening on every interface is named by this machine's name)."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


def mail_settings(
    *,
    host: str | None,
    port: int | None,
    user: str | None,
    password: str | None,
    sender: str | None,
    starttls: bool,
    use_ssl: bool,
    public_url: str,
    daily_hour: int,
    turn_hours: float,
) -> MailSettings:
    """The e-mail settings from ``karnak serve``'s options and environment, each checked
    (MailSettingsError naming the option). Without a host, e-mail is off and the SMTP
    options are ignored (the link base and the hours are still checked)."""
    if not 0 <= daily_hour <= 23:
        raise MailSettingsError(
            f"--mail-daily-hour is an hour from 0 to 23 (UTC), not {daily_hour}"
        )
    if not 0 <= turn_hours <= MAX_TURN_HOURS:
        raise MailSettingsError(
            f"--mail-turn-hours is between 0 and {MAX_TURN_HOURS:g}, not {turn_hours:g}"
        )
    url = check_public_url(public_url)
    common = MailSettings(public_url=url, daily_hour=daily_hour, turn_every=turn_hours * 3600)
    host = (host or "").strip() or None
    if host is None:
        return common
    if len(host) > MAX_HOST or not HOST.fullmatch(host):
        raise MailSettingsError(f"--smtp-host {host!r} is not a host name or address")
    if starttls and use_ssl:
        raise MailSettingsError("choose one of --smtp-starttls and --smtp-ssl")
    security = "starttls" if starttls else "ssl" if use_ssl else "none"
    if port is None:
        port = DEFAULT_PORTS[security]
    if not 0 < port < 65536:
        raise MailSettingsError(f"--smtp-port must be between 1 and 65535, not {port}")
    if not sender:
        raise MailSettingsError(
            "--smtp-from (or KARNAK_SMTP_FROM) is needed with --smtp-host: the address "
            "e-mails come from"
        )
    user = (user or "").strip() or None
    if user is not None and not password:
        raise MailSettingsError(
            "--smtp-user is given but KARNAK_SMTP_PASSWORD is not set (the password is "
            "read from the environment only)"
        )
    return MailSettings(
        host=host,
        port=port,
        security=security,
        user=user,
        password=password if user is not None else None,
        sender=check_sender(sender),
        public_url=url,
        daily_hour=daily_hour,
        turn_every=turn_hours * 3600,
    )
