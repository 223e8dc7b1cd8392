"""``karnak serve``: the game server with its web pages, on uvicorn.

The database is an SQLite file in the current folder unless ``--database`` or
``KARNAK_DATABASE_URL`` names another (``postgresql+psycopg://user:pw@host/db`` for
PostgreSQL); migrations are applied at start, and running games resume where they stopped.

An SQLite file is served by one process: a second ``karnak serve`` on it is refused (see
karnak.server.cluster.instance_lock). Several processes (``--workers N`` on one machine, or
one on each of several machines) share a PostgreSQL database and a Redis broker
(``--broker``) that carries live updates between them.

Every option has an environment variable (``KARNAK_`` and its name) and a key in the optional
TOML file (``--config``), as has every limit of ServerSettings: karnak.cli.config.
"""

from __future__ import annotations

import errno
import os
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from karnak.cli.common import EXIT_USAGE, CliError, flag_option, reported_errors
from karnak.cli.config import (
    CONFIG_ENV,
    config_callback,
    config_lines,
    loaded_config,
    naming_sources,
    setting_fields,
    setting_refused,
    settings_given,
    source_of,
)
from karnak.server.asgi import (
    ACCESS_LOG_ENV,
    BOT_WORKERS_ENV,
    BROKER_ENV,
    DATABASE_ENV,
    FORWARDED_HEADER_ENV,
    LOG_FORMAT_ENV,
    LOG_LEVEL_ENV,
    TRUSTED_PROXIES_ENV,
)

if TYPE_CHECKING:
    from karnak.server.limits import ServerSettings
    from karnak.server.mail.settings import MailSettings

#: The log formats and levels ``--log-format`` and ``--log-level`` accept.
LogFormat = Literal["text", "json"]
LogLevel = Literal["debug", "info", "warning", "error", "critical"]
#: The headers ``--forwarded-header`` may name (karnak.server.proxy).
ForwardedHeader = Literal["x-forwarded-for", "forwarded"]


def serve_command(
    ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(envvar="KARNAK_HOST", help="Interface to listen on (0.0.0.0: every one)."),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="KARNAK_PORT", help="TCP port.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            envvar=DATABASE_ENV,
            help="Database URL or SQLite file (default: karnak.sqlite3 here).",
        ),
    ] = None,
    bot_workers: Annotated[
        int,
        typer.Option(
            envvar=BOT_WORKERS_ENV,
            help="Processes in which bots think (0: in a thread of the server).",
        ),
    ] = max(1, min(4, (os.cpu_count() or 2))),
    max_think: Annotated[
        str | None,
        typer.Option(
            envvar="KARNAK_MAX_THINK",
            metavar="TIME",
            help="Longest a bot may think a move (10s, 500ms; default 10s).",
        ),
    ] = None,
    max_game_think: Annotated[
        str | None,
        typer.Option(
            envvar="KARNAK_MAX_GAME_THINK",
            metavar="TIME",
            help="Think times of one game's bots added up (default 60s).",
        ),
    ] = None,
    max_iterations: Annotated[
        int | None,
        typer.Option(
            envvar="KARNAK_MAX_ITERATIONS",
            help="Most search iterations a bot may ask a move (default 200000).",
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            envvar=["KARNAK_MAX_GAMES", "KARNAK_MAX_RUNNING_GAMES"],
            help="Games running at once; more are refused (default 500).",
        ),
    ] = None,
    creates_per_minute: Annotated[
        int | None,
        typer.Option(
            envvar="KARNAK_CREATES_PER_MINUTE",
            help="Games one client may create a minute (default 20).",
        ),
    ] = None,
    moves_per_minute: Annotated[
        int | None,
        typer.Option(
            envvar="KARNAK_MOVES_PER_MINUTE",
            help="Moves one client may send a minute (default 600).",
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            envvar=CONFIG_ENV,
            metavar="FILE",
            is_eager=True,
            callback=config_callback,
            dir_okay=False,
            help="A TOML file of settings: its keys are these options' names and the "
            "server's limits (flag > environment > file > default).",
            rich_help_panel="Configuration and logs",
        ),
    ] = None,
    print_config: Annotated[
        bool,
        flag_option(
            "--print-config",
            help="Print the settings in effect, as a TOML file saying where each came from, "
            "and stop.",
            rich_help_panel="Configuration and logs",
        ),
    ] = False,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            envvar=LOG_FORMAT_ENV,
            help="Log lines as text or as one JSON object each.",
            rich_help_panel="Configuration and logs",
        ),
    ] = "text",
    log_level: Annotated[
        LogLevel,
        typer.Option(
            envvar=LOG_LEVEL_ENV,
            help="The least important lines logged.",
            rich_help_panel="Configuration and logs",
        ),
    ] = "info",
    access_log: Annotated[
        bool,
        flag_option(
            "--access-log/--no-access-log",
            envvar=ACCESS_LOG_ENV,
            help="A line per request (never a seat's token or a cookie).",
            rich_help_panel="Configuration and logs",
        ),
    ] = True,
    workers: Annotated[
        int,
        typer.Option(
            envvar="KARNAK_WORKERS",
            help="Server processes on this machine (1-64); more than one needs PostgreSQL "
            "and --broker.",
            rich_help_panel="Several processes",
        ),
    ] = 1,
    broker: Annotated[
        str | None,
        typer.Option(
            envvar=BROKER_ENV,
            metavar="URL",
            help="The Redis server that carries live updates between server processes "
            "(redis://HOST:6379/0, rediss:// with TLS, unix:///PATH); needs PostgreSQL.",
            rich_help_panel="Several processes",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            envvar=TRUSTED_PROXIES_ENV,
            metavar="IPS",
            help="Behind a reverse proxy or load balancer: its addresses (comma-separated, "
            "networks like 10.0.0.0/8, or *), whose --forwarded-header names the client "
            "(default: nobody's is believed, not even this machine's).",
            rich_help_panel="Several processes",
        ),
    ] = None,
    forwarded_header: Annotated[
        ForwardedHeader,
        typer.Option(
            envvar=FORWARDED_HEADER_ENV,
            help="The header those proxies name the client in: X-Forwarded-For, or RFC "
            "7239's Forwarded (only that one is read).",
            rich_help_panel="Several processes",
        ),
    ] = "x-forwarded-for",
    smtp_host: Annotated[
        str | None,
        typer.Option(
            envvar="KARNAK_SMTP_HOST",
            help="SMTP server that sends the e-mails (default: none, e-mail is off).",
            rich_help_panel="E-mail",
        ),
    ] = None,
    smtp_port: Annotated[
        int | None,
        typer.Option(
            envvar="KARNAK_SMTP_PORT",
            help="Its port (default 587 with --smtp-starttls, 465 with --smtp-ssl, else 25).",
            rich_help_panel="E-mail",
        ),
    ] = None,
    smtp_user: Annotated[
        str | None,
        typer.Option(
            envvar="KARNAK_SMTP_USER",
            help="Log in to it as this user, with the password in $KARNAK_SMTP_PASSWORD "
            "(never on the command line).",
            rich_help_panel="E-mail",
        ),
    ] = None,
    smtp_from: Annotated[
        str | None,
        typer.Option(
            envvar="KARNAK_SMTP_FROM",
            metavar="ADDRESS",
            help="The e-mails' sender: karnak@example.org or 'Karnak <karnak@example.org>'.",
            rich_help_panel="E-mail",
        ),
    ] = None,
    smtp_starttls: Annotated[
        bool,
        flag_option(
            "--smtp-starttls",
            envvar="KARNAK_SMTP_STARTTLS",
            help="Encrypt with STARTTLS (usual on port 587).",
            rich_help_panel="E-mail",
        ),
    ] = False,
    smtp_ssl: Annotated[
        bool,
        flag_option(
            "--smtp-ssl",
            envvar="KARNAK_SMTP_SSL",
            help="Encrypt with TLS from the start (port 465).",
            rich_help_panel="E-mail",
        ),
    ] = False,
    smtp_password: Annotated[
        str | None, typer.Option("--smtp-password", hidden=True, show_default=False)
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            envvar="KARNAK_PUBLIC_URL",
            help="Where people reach this server, for the links in e-mails "
            "(default: http://HOST:PORT).",
            rich_help_panel="E-mail",
        ),
    ] = None,
    mail_daily_hour: Annotated[
        int,
        typer.Option(
            envvar="KARNAK_MAIL_DAILY_HOUR",
            help="The hour (UTC, 0-23) of the daily reminder of the games waiting.",
            rich_help_panel="E-mail",
        ),
    ] = 8,
    mail_turn_hours: Annotated[
        float,
        typer.Option(
            envvar="KARNAK_MAIL_TURN_HOURS",
            help='At most one "your turn" e-mail per game in this many hours (0-168).',
            rich_help_panel="E-mail",
        ),
    ] = 12.0,
) -> None:
    """Serve Amun-Re, Aton and Egyptia in the browser, against friends and bots, with replays.

    Every option can also be set in the environment (its variable is shown beside it) or in a
    TOML file (--config), as can the server's other limits (KARNAK_CHAT_LINES_PER_MINUTE=...
    or chat-lines-per-minute = ...): --print-config lists them all with their values.
    """
    with reported_errors(), naming_sources(ctx):
        if not 0 < port < 65536:
            raise CliError(f"--port must be between 1 and 65535, not {port}", EXIT_USAGE)
        if bot_workers < 0:
            raise CliError("--bot-workers cannot be negative", EXIT_USAGE)
        # The compiled hot paths (karnak.native), for this process if nothing imported the
        # engines yet (the karnak command asked already) and for the bot and server workers
        # it starts (install marks the environment they inherit).
        from karnak.native import install

        install()
        try:
            import uvicorn

            from karnak.server.app import create_app, database_url
            from karnak.server.asgi import FACTORY, start_logging, worker_environment
            from karnak.server.cluster.instance_lock import InstanceLockError, instance_lock
            from karnak.server.db import DatabaseProblem, check_database
            from karnak.server.mail.routes import configure_mail
            from karnak.server.mail.settings import default_public_url
            from karnak.server.proxy import trust_proxies
        except ModuleNotFoundError as missing:
            raise CliError(
                f"the game server is not installed ({missing.name} is missing): "
                "pip install 'karnak[server]'"
            ) from None

        fields = setting_fields(p.name for p in ctx.command.params if p.name)
        chosen: dict[str, Any] = counted_limits(
            max_running_games=("--max-games", max_games),
            creates_per_minute=("--creates-per-minute", creates_per_minute),
            moves_per_minute=("--moves-per-minute", moves_per_minute),
        )
        # the limits no option sets: from their variables, else the file
        chosen.update(settings_given(fields, loaded_config(ctx).settings, dict(os.environ)))
        settings = replace(bot_settings(max_think, max_game_think, max_iterations), **chosen)
        mail = mail_settings_given(
            host=smtp_host,
            port=smtp_port,
            user=smtp_user,
            password_option=smtp_password,
            sender=smtp_from,
            starttls=smtp_starttls,
            use_ssl=smtp_ssl,
            public_url=public_url or default_public_url(host, port),
            daily_hour=mail_daily_hour,
            turn_hours=mail_turn_hours,
        )
        url = database_url(database)
        shown = url.split("@")[-1] if "@" in url else url  # never print a password
        broker = check_processes(url, workers, broker or None)
        trusted = trusted_proxies(forwarded_allow_ips)
        if print_config:
            print_settings(ctx, settings, fields)
            return
        # built here even when the workers build their own: a limit the server refuses
        # (ValueError naming it) is told once, in one line, before any process starts
        try:
            app = create_app(url, bot_workers=bot_workers, settings=settings, broker=broker)
        except ValueError as exc:
            said = setting_refused(str(exc), fields, loaded_config(ctx), dict(os.environ))
            if said is None:
                raise
            raise CliError(said, EXIT_USAGE) from None
        check_port(host, port)
        with ExitStack() as held:
            try:
                held.enter_context(instance_lock(url))  # held until the server stops
            except InstanceLockError as exc:
                raise CliError(str(exc)) from None
            try:
                check_database(url, shown)
            except DatabaseProblem as exc:
                raise CliError(str(exc)) from None
            own_logging = start_logging(log_format, log_level, access_log)
            typer.echo(f"Karnak on http://{host}:{port}/  (database: {shown})", err=True)
            if broker is not None:
                typer.echo(
                    f"Processes: {workers} here, sharing live updates through {shown_url(broker)}",
                    err=True,
                )
            if trusted is not None:
                typer.echo(f"Clients named by {forwarded_header} from {trusted}", err=True)
            typer.echo(f"E-mail: {mail_banner(mail)}", err=True)
            options = uvicorn_options(
                host, port, workers=workers, level=log_level, own_logging=own_logging
            )
            if workers == 1:
                configure_mail(app, mail)
                trust_proxies(app, trusted, forwarded_header)
                uvicorn.run(app, **options)
                return
            # uvicorn starts the processes and each builds its own app from the environment
            # (karnak.server.asgi), which they inherit from this one
            os.environ.update(
                worker_environment(
                    database=url,
                    broker=broker,
                    bot_workers=bot_workers,
                    settings=settings,
                    mail=mail,
                    log_format=log_format,
                    log_level=log_level,
                    access_log=access_log,
                    trusted_proxies=trusted,
                    forwarded_header=forwarded_header,
                )
            )
            uvicorn.run(FACTORY, factory=True, **options)


def print_settings(ctx: typer.Context, settings: ServerSettings, fields: list[Any]) -> None:
    """``--print-config``: every option and limit in effect, as TOML, with where it came from
    (passwords in URLs left out)."""
    options = []
    for param in ctx.command.params:
        name = param.name
        if name is None or name in ("config", "print_config", "smtp_password"):
            continue
        value = ctx.params[name]
        if name in ("database", "broker") and value:
            value = shown_url(value)
        variable = param.envvar if isinstance(param.envvar, str) else (param.envvar or "?")[0]
        options.append((name, value, source_of(ctx, name), variable))
    loaded = loaded_config(ctx)
    limits = []
    for item in fields:
        if os.environ.get(item.env, "").strip():
            source = f"${item.env}"
        elif item.name in loaded.settings:
            source = str(loaded.path)
        else:
            source = "default"
        limits.append((item, getattr(settings, item.name), source))
    typer.echo("\n".join(config_lines(options, limits)))


def uvicorn_options(
    host: str, port: int, *, workers: int, level: str = "info", own_logging: bool = False
) -> dict[str, Any]:
    """How uvicorn serves, whether it serves one process or several."""
    return {
        "host": host,
        "port": port,
        # uvicorn logs warnings and errors only: its request and connection lines would
        # carry the seats' secret tokens (they travel in the links' query strings), and a
        # busy server makes several requests a move. Karnak's own access log leaves them out.
        "log_level": level if level in ("error", "critical") else "warning",
        "access_log": False,
        # with Karnak's logging set up (karnak.server.observability), uvicorn's lines go
        # through its handlers and format instead of uvicorn's own
        **({"log_config": None} if own_logging else {}),
        # No per-message compression on the WebSocket: every seat gets a complete view
        # (about 30 KB) after every move, and compressing each one for each listener was the
        # server's largest single cost under load (bench/server_load.py).
        "ws_per_message_deflate": False,
        # a client sends only the word "view": larger messages are refused before they are
        # read whole (uvicorn's default would read 16 MiB first)
        "ws_max_size": WS_MAX_BYTES,
        # never uvicorn's proxy headers: it would believe X-Forwarded-For from this machine
        # by default, and it cannot read Forwarded; karnak.server.proxy reads either, from
        # the proxies --forwarded-allow-ips names only
        "proxy_headers": False,
        # SIGTERM: finish the requests under way, then stop, within this time
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN,
        # always given: uvicorn would otherwise read $WEB_CONCURRENCY
        "workers": workers,
    }


#: The most server processes ``--workers`` may start.
MAX_WORKERS = 64
#: Seconds a stopping server (SIGTERM, Ctrl-C) gives the requests under way before it closes.
GRACEFUL_SHUTDOWN = 10
#: The broker URLs accepted: Redis, over TCP, TLS or a Unix socket.
BROKER_SCHEMES = ("redis", "rediss", "unix")


def check_processes(url: str, workers: int, broker: str | None) -> str | None:
    """The broker, once ``--workers`` and ``--broker`` are checked against each other and
    the database: an SQLite file is served by one process, and several processes must share
    live updates, which only the broker carries between them."""
    if not 1 <= workers <= MAX_WORKERS:
        raise CliError(f"--workers must be between 1 and {MAX_WORKERS}, not {workers}", EXIT_USAGE)
    if broker is not None:
        check_broker(broker)
    if url.startswith("sqlite") and (workers > 1 or broker is not None):
        given = f"--workers {workers}" if workers > 1 else "--broker"
        raise CliError(
            f"{given} needs PostgreSQL: an SQLite database is served by one process "
            "(--database postgresql+psycopg://USER:PASSWORD@HOST/DB)",
            EXIT_USAGE,
        )
    if workers > 1 and broker is None:
        raise CliError(
            f"--workers {workers} needs --broker redis://HOST:6379/0 (or {BROKER_ENV}): the "
            "processes share live updates through it",
            EXIT_USAGE,
        )
    return broker


def check_broker(broker: str) -> None:
    """Refuse in one line a broker URL that is not Redis's (said without its password)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(broker)
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        parts = None
    usable = parts is not None and (
        (parts.scheme in ("redis", "rediss") and bool(parts.hostname))
        or (parts.scheme == "unix" and bool(parts.path))
    )
    if not usable:
        raise CliError(
            f"--broker must be a Redis URL: redis://HOST:6379/0, rediss://HOST:6380/0 (TLS) "
            f"or unix:///PATH/redis.sock, not {shown_url(broker)!r}",
            EXIT_USAGE,
        )


def shown_url(url: str) -> str:
    """``url`` without the user name and password it may hold."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url.rpartition("@")[2]
    address, slash, path = rest.partition("/")
    return f"{scheme}://{address.rpartition('@')[2]}{slash}{path}"


def trusted_proxies(given: str | None) -> str | None:
    """The addresses whose proxy header names the client (None: nobody's), checked.

    Behind a load balancer every request comes from the balancer, and the rate limits would
    count all clients as one; believing its header counts each client. Believing anyone
    else's would let a client choose the address it is counted as."""
    import ipaddress

    if given is None or not given.strip():
        return None
    entries = [entry.strip() for entry in given.split(",") if entry.strip()]
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise CliError(
                f"--forwarded-allow-ips: {entry!r} is not an IP address or network (write "
                "them like 10.0.0.5,10.1.0.0/16, or * for every address)",
                EXIT_USAGE,
            ) from None
    return ",".join(entries)


#: The bounds of ``--max-think`` (seconds): long enough to decide, short enough to answer.
MAX_THINK_RANGE = (0.01, 600.0)
#: The most ``--max-game-think`` may be (seconds).
MAX_GAME_THINK = 3600.0
#: The bounds of ``--max-iterations``.
MAX_ITERATIONS_RANGE = (1, 10_000_000)


def bot_settings(
    max_think: str | None, max_game_think: str | None, max_iterations: int | None
) -> ServerSettings:
    """The server's settings with the bot limits given on the command line, each checked."""
    from karnak.server.bot_limits import parse_duration
    from karnak.server.limits import ServerSettings

    def seconds(option: str, text: str) -> float:
        try:
            value = parse_duration(text)
        except ValueError:
            raise CliError(
                f"{option}: cannot read the time {text!r}; write it like 10s, 2.5s or 500ms",
                EXIT_USAGE,
            ) from None
        return value

    defaults = ServerSettings()
    think = defaults.max_think if max_think is None else seconds("--max-think", max_think)
    low, high = MAX_THINK_RANGE
    if not low <= think <= high:
        raise CliError(f"--max-think must be between 10ms and 10min, not {max_think}", EXIT_USAGE)
    game = (
        defaults.max_game_think
        if max_game_think is None
        else seconds("--max-game-think", max_game_think)
    )
    if not 0 < game <= MAX_GAME_THINK:
        raise CliError(
            f"--max-game-think must be more than 0 and at most 60min, not {max_game_think}",
            EXIT_USAGE,
        )
    if game < think:
        raise CliError(
            f"--max-game-think ({game:g}s) is less than --max-think ({think:g}s): no bot could "
            "think its longest; raise --max-game-think or lower --max-think",
            EXIT_USAGE,
        )
    iterations = defaults.max_iterations if max_iterations is None else max_iterations
    low_it, high_it = MAX_ITERATIONS_RANGE
    if not low_it <= iterations <= high_it:
        raise CliError(
            f"--max-iterations must be between {low_it} and {high_it}, not {iterations}",
            EXIT_USAGE,
        )
    return replace(defaults, max_think=think, max_game_think=game, max_iterations=iterations)


#: The largest WebSocket message a client may send (it only ever sends "view").
WS_MAX_BYTES = 4096

#: The bounds of the counted limits (``--max-games``, the per-minute rates).
COUNT_RANGE = (1, 1_000_000)


def counted_limits(**given: tuple[str, int | None]) -> dict[str, int]:
    """The counted limits given on the command line (setting name -> value), each checked;
    those not given keep their defaults."""
    low, high = COUNT_RANGE
    chosen: dict[str, int] = {}
    for setting, (option, value) in given.items():
        if value is None:
            continue
        if not low <= value <= high:
            raise CliError(f"{option} must be between {low} and {high:,}, not {value}", EXIT_USAGE)
        chosen[setting] = value
    return chosen


def check_port(host: str, port: int) -> None:
    """Refuse in one line a port that is taken (uvicorn would print the banner, then fail
    with its own log lines)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise CliError(f"--host {host}: cannot listen there ({exc.strerror or exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                why = "is already in use" if exc.errno == errno.EADDRINUSE else "is not allowed"
                raise CliError(
                    f"port {port} on {host} {why}: is another server running? "
                    "Choose another with --port (make serve PORT=8080)"
                ) from None
            raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def show_server_log() -> None:
    """The server's own lines (games that cannot be loaded, loading done) on standard error,
    one line each."""
    import logging

    logger = logging.getLogger("karnak.server")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("karnak: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


#: Where the SMTP password is read from (never from the command line).
SMTP_PASSWORD_ENV = "KARNAK_SMTP_PASSWORD"


def mail_settings_given(*, password_option: str | None, **given: Any) -> MailSettings:
    """The e-mail settings from the options (and their environment variables), checked.

    ``--smtp-password`` exists only to be refused: a password on the command line is visible
    to every user of the machine (the process list) and stays in shell histories.
    """
    from karnak.server.mail.settings import MailSettingsError, mail_settings

    if password_option is not None:
        raise CliError(
            "the SMTP password is never taken on the command line (every user of this "
            f"machine could read it there): set {SMTP_PASSWORD_ENV} instead",
            EXIT_USAGE,
        )
    try:
        return mail_settings(password=os.environ.get(SMTP_PASSWORD_ENV) or None, **given)
    except MailSettingsError as exc:
        raise CliError(str(exc), EXIT_USAGE) from None


def mail_banner(mail: MailSettings) -> str:
    """One line on how e-mail goes out (never the user's password)."""
    if not mail.enabled:
        return "off (no --smtp-host or KARNAK_SMTP_HOST)"
    login = f", as {mail.user}" if mail.user else ""
    return (
        f"via {mail.host}:{mail.port} ({mail.security}{login}), from {mail.sender}, "
        f"links to {mail.public_url}/"
    )
