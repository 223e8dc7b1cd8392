"""The application of each process of ``karnak serve --workers N``, built from the environment.

With several workers uvicorn starts the processes itself, and each builds its own
application: uvicorn needs an import string for that (``karnak.server.asgi:
create_from_environment``, with ``factory=True``), not an application object. So
``karnak serve`` checks its options once, writes what they decided into environment
variables (which the workers inherit), and each worker builds the same server from them here.

Every setting travels: the ServerSettings fields (all of them, whatever a file or a variable
set), the e-mail settings, the logging options and the trusted proxies, so each worker logs,
limits and names its clients as the single process would.

The environment, not the command line, because a database URL may hold a password and the
command line of every process is visible to every user of the machine. The SMTP password is
never copied at all: each worker reads it from ``KARNAK_SMTP_PASSWORD``, where ``karnak
serve`` read it too.

Without those variables the factory builds a server with the defaults (the database from
``KARNAK_DATABASE_URL``, e-mail off), so it also runs under uvicorn or another ASGI server
started by hand.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

    from karnak.server.limits import ServerSettings
    from karnak.server.mail.settings import MailSettings

#: What ``karnak serve`` passes to its workers (the database goes in KARNAK_DATABASE_URL, the
#: broker in KARNAK_BROKER_URL: the variables those options are read from anyway).
DATABASE_ENV = "KARNAK_DATABASE_URL"
BROKER_ENV = "KARNAK_BROKER_URL"
BOT_WORKERS_ENV = "KARNAK_BOT_WORKERS"
SETTINGS_ENV = "KARNAK_SERVER_SETTINGS"
MAIL_ENV = "KARNAK_MAIL_SETTINGS"
#: The logging options and the trusted proxies: the variables ``karnak serve`` reads them from.
LOG_FORMAT_ENV = "KARNAK_LOG_FORMAT"
LOG_LEVEL_ENV = "KARNAK_LOG_LEVEL"
ACCESS_LOG_ENV = "KARNAK_ACCESS_LOG"
TRUSTED_PROXIES_ENV = "KARNAK_FORWARDED_ALLOW_IPS"
FORWARDED_HEADER_ENV = "KARNAK_FORWARDED_HEADER"
#: Where the logging set-up lives (karnak.server.observability.logs.configure_logging).
LOGS_MODULE = "karnak.server.observability.logs"
#: The import string uvicorn gives each worker.
FACTORY = "karnak.server.asgi:create_from_environment"
#: Mail settings that do not travel: the password (read from the environment by each worker)
#: and the tests' certificate authority (not JSON, and no option sets it).
MAIL_KEPT_BACK = ("password", "tls_context")


def worker_environment(
    *,
    database: str,
    broker: str | None,
    bot_workers: int,
    settings: ServerSettings,
    mail: MailSettings,
    log_format: str = "text",
    log_level: str = "info",
    access_log: bool = True,
    trusted_proxies: str | None = None,
    forwarded_header: str = "x-forwarded-for",
) -> dict[str, str]:
    """The variables that make :func:`create_from_environment` build the server these
    options describe (an empty broker or proxy list: none)."""
    shown_mail = {
        field.name: getattr(mail, field.name)
        for field in dataclasses.fields(mail)
        if field.name not in MAIL_KEPT_BACK
    }
    return {
        DATABASE_ENV: database,
        BROKER_ENV: broker or "",
        BOT_WORKERS_ENV: str(bot_workers),
        SETTINGS_ENV: json.dumps(dataclasses.asdict(settings)),
        MAIL_ENV: json.dumps(shown_mail),
        LOG_FORMAT_ENV: log_format,
        LOG_LEVEL_ENV: log_level,
        ACCESS_LOG_ENV: "1" if access_log else "0",
        TRUSTED_PROXIES_ENV: trusted_proxies or "",
        FORWARDED_HEADER_ENV: forwarded_header,
    }


def create_from_environment() -> FastAPI:
    """The server of one worker process, as :func:`worker_environment` describes it (with
    the compiled hot paths where they are built: asked for here, before the engines are
    imported, since importing karnak alone does not install them)."""
    from karnak.native import install

    install()
    from karnak.cli.serve import SMTP_PASSWORD_ENV
    from karnak.server.app import create_app, database_url
    from karnak.server.limits import ServerSettings
    from karnak.server.mail.routes import configure_mail
    from karnak.server.mail.settings import MailSettings
    from karnak.server.proxy import trust_proxies

    start_logging(
        os.environ.get(LOG_FORMAT_ENV) or "text",
        os.environ.get(LOG_LEVEL_ENV) or "info",
        os.environ.get(ACCESS_LOG_ENV, "1").strip().lower() not in ("0", "false", "no", "off"),
    )
    settings = ServerSettings(**_json(SETTINGS_ENV))
    mail = MailSettings(**_json(MAIL_ENV))
    if mail.user is not None:
        mail = dataclasses.replace(mail, password=os.environ.get(SMTP_PASSWORD_ENV) or None)
    bot_workers = os.environ.get(BOT_WORKERS_ENV)
    app = create_app(
        database_url(os.environ.get(DATABASE_ENV) or None),
        bot_workers=int(bot_workers) if bot_workers else 2,
        settings=settings,
        broker=os.environ.get(BROKER_ENV) or None,
    )
    configure_mail(app, mail)
    trust_proxies(
        app,
        os.environ.get(TRUSTED_PROXIES_ENV) or None,
        os.environ.get(FORWARDED_HEADER_ENV) or "x-forwarded-for",
    )
    return app


def start_logging(log_format: str, level: str, access_log: bool) -> bool:
    """Set up the process's logging with ``configure_logging`` (karnak.server.observability);
    where that module is not there, only the server's own one-line messages go to standard
    error (False: uvicorn keeps its own set-up)."""
    from karnak.cli.serve import show_server_log

    try:
        module = importlib.import_module(LOGS_MODULE)
    except ModuleNotFoundError as missing:
        if not LOGS_MODULE.startswith(missing.name or "?"):
            raise
        show_server_log()
        return False
    configure: Callable[..., None] = module.configure_logging
    configure(log_format=log_format, level=level, access_log=access_log)
    return True


def _json(name: str) -> dict[str, Any]:
    text = os.environ.get(name)
    found: dict[str, Any] = json.loads(text) if text else {}
    return found
