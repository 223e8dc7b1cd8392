"""The application of each process of ``karnak serve --workers N``, built from the environment.

With several workers uvicorn starts the processes itself, and each builds its own
application: uvicorn needs an import string for that (``karnak.server.asgi:
create_from_environment``, with ``factory=True``), not an application object. So
``karnak serve`` checks its options once, writes what they decided into environment
variables (which the workers inherit), and each worker builds the same server from them here.

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
import json
import os
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
) -> dict[str, str]:
    """The variables that make :func:`create_from_environment` build the server these
    options describe (an empty broker: none)."""
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
    }


def create_from_environment() -> FastAPI:
    """The server of one worker process, as :func:`worker_environment` describes it."""
    from karnak.cli.serve import SMTP_PASSWORD_ENV, show_server_log
    from karnak.server.app import create_app, database_url
    from karnak.server.limits import ServerSettings
    from karnak.server.mail.routes import configure_mail
    from karnak.server.mail.settings import MailSettings

    show_server_log()
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
    return app


def _json(name: str) -> dict[str, Any]:
    text = os.environ.get(name)
    found: dict[str, Any] = json.loads(text) if text else {}
    return found
