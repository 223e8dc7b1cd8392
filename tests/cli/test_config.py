"""``karnak serve``'s settings from flags, the environment and a TOML file (karnak.cli.config).

Every option has a variable, every ServerSettings field a variable and a key, the rule is
flag > environment > file > default, and a file with an unknown key, a wrong type or a value
out of range is refused in one line naming the file and the key. uvicorn is replaced by a
stand-in that keeps what it was asked to serve, so no server starts.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.main import get_command
from typer.testing import CliRunner

from karnak.cli.config import env_name, key_name, setting_fields
from karnak.cli.main import app
from karnak.server.asgi import SETTINGS_ENV, create_from_environment, worker_environment
from karnak.server.limits import ServerSettings
from karnak.server.mail.settings import MailSettings

#: Options that are no setting of the server: the file itself, the command that prints them,
#: and the SMTP password's option, which exists only to refuse a password on the command line.
NOT_SETTINGS = {"config", "print_config", "smtp_password"}
#: Variables the tests' own environment must not lend the command.
OUR_VARIABLES = [name for name in os.environ if name.startswith("KARNAK_")]


def serve_params() -> list[Any]:
    return list(get_command(app).commands["serve"].params)  # type: ignore[attr-defined]


def variables(param: Any) -> list[str]:
    return [param.envvar] if isinstance(param.envvar, str) else list(param.envvar or [])


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """uvicorn.run replaced: what it was asked to serve, and how."""
    for name in [*OUR_VARIABLES, SETTINGS_ENV]:
        monkeypatch.delenv(name, raising=False)
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))
    return calls


def invoke(tmp_path: Path, *arguments: str, env: dict[str, str] | None = None) -> Any:
    database = ["--database", str(tmp_path / "k.sqlite3")]
    environment: dict[str, str | None] = {"COLUMNS": "200", **dict.fromkeys(OUR_VARIABLES)}
    environment.update(env or {})
    return CliRunner(env=environment).invoke(app, ["serve", *database, *arguments])


def one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output  # as every wrong option
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "karnak.toml"
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- every option


def test_every_option_has_its_own_variable_shown_in_the_help() -> None:
    params = [p for p in serve_params() if p.name not in NOT_SETTINGS]
    assert len(params) >= 25
    seen: set[str] = set()
    for param in params:
        names = variables(param)
        assert names, f"--{key_name(param.name)} has no environment variable"
        assert names[0] == env_name(param.name) or param.name in ("database", "broker"), names
        assert param.show_envvar is not False
        assert not seen & set(names), f"{names} shared with another option"
        seen.update(names)
    result = CliRunner(env={"COLUMNS": "250"}).invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for param in params:
        assert variables(param)[0] in result.output, param.name
    assert "KARNAK_CONFIG" in result.output and "--print-config" in result.output


def test_every_limit_of_the_server_has_a_variable_and_a_key() -> None:
    """Walked from the dataclass: a field added to ServerSettings is covered at once (by an
    option of its own, or as a key and a variable of its own name)."""
    options = {p.name for p in serve_params()}
    keyed = {item.name for item in setting_fields(options)}
    covered = {"max_think", "max_game_think", "max_iterations", "max_running_games"}
    covered |= {"creates_per_minute", "moves_per_minute"}
    for item in dataclasses.fields(ServerSettings):
        assert item.name in keyed or item.name in covered, item.name
    assert keyed and not keyed & covered


@pytest.mark.parametrize("item", setting_fields(p.name for p in serve_params()), ids=str)
def test_each_limit_is_read_from_its_variable_and_from_the_file(
    served: list[Any], tmp_path: Path, item: Any
) -> None:
    if item.kind is bool:
        value: Any = not item.default
        text = "1" if value else "0"
    elif item.kind is str:
        value = item.default  # what else a string may be is the server's to say
        text = f'"{value}"'
    else:
        value = item.kind((item.default or 1) + 1)
        text = str(value)
    from_variable = invoke(tmp_path, env={item.env: text.strip('"')})
    assert from_variable.exit_code == 0, from_variable.output
    from_file = invoke(tmp_path, "--config", str(write(tmp_path, f"{item.key} = {text}\n")))
    assert from_file.exit_code == 0, from_file.output
    for served_app, _ in served:
        assert getattr(served_app.state.settings, item.name) == value


# ---------------------------------------------------------------------------- precedence


def test_flag_beats_variable_beats_file_beats_default(served: list[Any], tmp_path: Path) -> None:
    config = write(
        tmp_path,
        'port = 8101\nmax-think = "4s"\nmax-games = 40\nchat-lines-per-minute = 7\n'
        "max-body-bytes = 1000\nsockets-per-client = 9\n",
    )
    result = invoke(
        tmp_path,
        "--config",
        str(config),
        "--port",
        "8103",
        env={
            "KARNAK_PORT": "8102",
            "KARNAK_MAX_THINK": "3s",
            "KARNAK_CHAT_LINES_PER_MINUTE": "8",
            "KARNAK_MAX_RUNNING_GAMES": "41",
        },
    )
    assert result.exit_code == 0, result.output
    [(served_app, options)] = served
    settings = served_app.state.settings
    assert options["port"] == 8103  # flag over variable over file
    assert settings.max_think == 3.0  # variable over file
    assert settings.max_running_games == 41  # the field's own variable, over the file
    assert settings.chat_lines_per_minute == 8  # a limit without an option: variable first
    assert settings.max_body_bytes == 1000  # the file over the default
    assert settings.sockets_per_client == 9
    assert settings.moves_per_minute == ServerSettings().moves_per_minute  # the default


def test_the_file_may_come_from_its_variable(served: list[Any], tmp_path: Path) -> None:
    config = write(tmp_path, "moves-per-minute = 33\nbot_workers = 0\n")  # _ or - alike
    result = invoke(tmp_path, env={"KARNAK_CONFIG": str(config)})
    assert result.exit_code == 0, result.output
    assert served[0][0].state.settings.moves_per_minute == 33


def test_print_config_says_where_each_value_came_from(served: list[Any], tmp_path: Path) -> None:
    config = write(tmp_path, "creates-per-minute = 5\nchat-lines-per-minute = 4\n")
    result = invoke(
        tmp_path,
        "--config",
        str(config),
        "--print-config",
        "--broker",
        "redis://:hunter2@cache:6379/0",
        env={"KARNAK_MOVES_PER_MINUTE": "70"},
    )
    assert result.exit_code == 2  # a broker needs PostgreSQL: checked before printing
    result = invoke(
        tmp_path, "--config", str(config), "--print-config", env={"KARNAK_MOVES_PER_MINUTE": "70"}
    )
    assert result.exit_code == 0, result.output
    assert not served  # printed, not served
    lines = result.output.splitlines()
    assert any(line.startswith("creates-per-minute = 5") and str(config) in line for line in lines)
    assert any(
        line.startswith("moves-per-minute = 70") and "$KARNAK_MOVES" in line for line in lines
    )
    assert any(line.startswith("chat-lines-per-minute = 4") for line in lines)
    assert any(line.startswith("port = 8000") and "default" in line for line in lines)
    # what it prints is a file karnak serve reads back
    printed = write(tmp_path, result.output)
    again = invoke(tmp_path, "--config", str(printed), "--print-config")
    assert again.exit_code == 0, again.output


def test_print_config_never_shows_a_password(served: list[Any], tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "200", **dict.fromkeys(OUR_VARIABLES)}).invoke(
        app,
        ["serve", "--print-config", "--database", "postgresql+psycopg://k:hunter2@db/k"],
        env={"KARNAK_SMTP_PASSWORD": "hunter3"},
    )
    assert result.exit_code == 0, result.output
    assert "hunter2" not in result.output and "hunter3" not in result.output
    assert 'database = "postgresql+psycopg://db/k"' in result.output


# ---------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("prot = 8000\n", "prot: unknown setting; did you mean port?"),
        ("colour = 'red'\n", "colour: unknown setting"),
        ('port = "8000"\n', "port: must be a whole number, not '8000'"),
        ("port = 8000.5\n", "port: must be a whole number"),
        ("port = 0\n", "port: --port must be between 1 and 65535, not 0"),
        ("workers = 65\n", "workers: --workers must be between 1 and 64"),
        ("max-games = 0\n", "max-games: --max-games must be between 1 and"),
        ('max-think = "forever"\n', "max-think: --max-think: cannot read the time"),
        ("max-think = 100000\n", "max-think: --max-think must be between 10ms and 10min"),
        ("mail-daily-hour = 24\n", "mail-daily-hour:"),
        ('log-format = "xml"\n', "log-format: must be one of text, json, not 'xml'"),
        ("access-log = 1\n", "access-log: must be true or false, not 1"),
        ("chat-lines-per-minute = -1\n", "chat-lines-per-minute: must be 0 or more, not -1"),
        ("chat-lines-per-minute = true\n", "chat-lines-per-minute: must be a whole number"),
        ("max-body-bytes = 'big'\n", "max-body-bytes: must be a whole number"),
        ("idle-game-expiry-days = nan\n", "idle-game-expiry-days: must be a finite number"),
        ("[server]\nport = 1\n", "server: unknown setting"),
        ("port = [1, 2]\n", "port: must be a single value"),
        ("port = 8001\nport = 8002\n", "is not valid TOML"),
        ("port = 8001\nPort = 8002\n", "Port: unknown setting"),
        ("max-running-games = 5\nmax-games = 6\n", "max-games: set twice"),
        ("smtp-password = 'hunter2'\n", "smtp-password: the SMTP password is never read"),
        ("port = \n", "is not valid TOML"),
    ],
)
def test_a_wrong_file_is_refused_in_one_line_naming_file_and_key(
    served: list[Any], tmp_path: Path, text: str, said: str
) -> None:
    config = write(tmp_path, text)
    line = one_line_error(invoke(tmp_path, "--config", str(config)))
    assert str(config) in line.replace("\n", "")
    assert said in line
    assert "hunter2" not in line
    assert not served
    assert not (tmp_path / "k.sqlite3").exists()  # refused before the database is touched


def test_a_missing_or_unreadable_file_is_refused(served: list[Any], tmp_path: Path) -> None:
    line = one_line_error(invoke(tmp_path, "--config", str(tmp_path / "nowhere.toml")))
    assert "nowhere.toml" in line and "cannot read" in line
    (tmp_path / "big.toml").write_text("# " + "x" * 300_000)
    assert "at most" in one_line_error(invoke(tmp_path, "--config", str(tmp_path / "big.toml")))
    (tmp_path / "latin.toml").write_bytes(b"host = '\xe9'\n")
    assert "not UTF-8" in one_line_error(invoke(tmp_path, "--config", str(tmp_path / "latin.toml")))


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("KARNAK_CHAT_LINES_PER_MINUTE", "lots", "KARNAK_CHAT_LINES_PER_MINUTE: must be a whole"),
        ("KARNAK_MAX_BODY_BYTES", "-5", "KARNAK_MAX_BODY_BYTES: must be 0 or more"),
        ("KARNAK_PORT", "0", "--port must be between 1 and 65535, not 0 (from $KARNAK_PORT)"),
        ("KARNAK_WORKERS", "99", "(from $KARNAK_WORKERS)"),
    ],
)
def test_a_wrong_variable_is_refused_naming_it(
    served: list[Any], tmp_path: Path, variable: str, value: str, said: str
) -> None:
    assert said in one_line_error(invoke(tmp_path, env={variable: value}))
    assert not served


# ---------------------------------------------------------------------------- several processes


def test_the_workers_environment_carries_every_setting(
    served: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--workers 2``: the settings from the flags, the variables and the file, and the
    logging and proxy options, travel to each worker, which builds the same server."""
    config = write(tmp_path, "chat-lines-per-minute = 6\nlog-format = 'json'\n")
    monkeypatch.setattr(
        "karnak.cli.serve.check_processes", lambda url, workers, broker: "redis://cache:6379/0"
    )
    monkeypatch.setattr("karnak.server.db.check_database", lambda url, shown: None)
    for name in ("KARNAK_LOG_FORMAT", "KARNAK_LOG_LEVEL", "KARNAK_ACCESS_LOG"):
        monkeypatch.setenv(name, "")  # put back after the test (the command sets them)
    for name in ("KARNAK_FORWARDED_ALLOW_IPS", "KARNAK_FORWARDED_HEADER", "KARNAK_DATABASE_URL"):
        monkeypatch.setenv(name, "")
    for name in ("KARNAK_BROKER_URL", "KARNAK_BOT_WORKERS", "KARNAK_MAIL_SETTINGS"):
        monkeypatch.setenv(name, "")
    monkeypatch.setenv(SETTINGS_ENV, "")
    result = invoke(
        tmp_path,
        "--config",
        str(config),
        "--workers",
        "2",
        "--bot-workers",
        "0",
        "--max-think",
        "2s",
        "--no-access-log",
        "--forwarded-allow-ips",
        "10.0.0.2",
        "--forwarded-header",
        "forwarded",
        env={"KARNAK_SOCKETS_PER_ACCOUNT": "3"},
    )
    assert result.exit_code == 0, result.output
    [(factory, options)] = served
    assert isinstance(factory, str) and options["workers"] == 2
    carried = json.loads(os.environ[SETTINGS_ENV])
    assert carried["chat_lines_per_minute"] == 6
    assert carried["sockets_per_account"] == 3
    assert carried["max_think"] == 2.0
    assert os.environ["KARNAK_LOG_FORMAT"] == "json"
    assert os.environ["KARNAK_ACCESS_LOG"] == "0"
    assert os.environ["KARNAK_FORWARDED_ALLOW_IPS"] == "10.0.0.2"
    assert os.environ["KARNAK_FORWARDED_HEADER"] == "forwarded"
    # a worker built from that environment runs with the same settings and proxies
    built = create_from_environment()
    assert built.state.settings.chat_lines_per_minute == 6
    assert built.state.settings.sockets_per_account == 3
    [proxies] = [m for m in built.user_middleware if m.cls.__name__ == "ProxyHeadersMiddleware"]
    assert proxies.kwargs["header"] == "forwarded" and "10.0.0.2" in proxies.kwargs["trusted"]


def test_worker_environment_holds_every_field_of_the_settings() -> None:
    changed = {
        item.name: (not item.default if isinstance(item.default, bool) else item.default)
        for item in dataclasses.fields(ServerSettings)
    }
    settings = ServerSettings(**changed)
    environment = worker_environment(
        database="sqlite:///k",
        broker=None,
        bot_workers=1,
        settings=settings,
        mail=MailSettings(),
        log_level="debug",
        trusted_proxies="10.0.0.0/8",
    )
    assert ServerSettings(**json.loads(environment[SETTINGS_ENV])) == settings
    assert environment["KARNAK_LOG_LEVEL"] == "debug"
    assert environment["KARNAK_FORWARDED_ALLOW_IPS"] == "10.0.0.0/8"


@pytest.mark.skipif(
    "metrics_allow" not in {f.name for f in dataclasses.fields(ServerSettings)},
    reason="ServerSettings has no metrics_allow (karnak.server.observability) here",
)
def test_a_value_the_server_refuses_is_told_in_one_line_naming_its_place(
    served: list[Any], tmp_path: Path
) -> None:
    """A string limit whose form only the server knows (here the networks allowed /metrics):
    its ValueError becomes one line naming the file's key, or the variable."""
    config = write(tmp_path, 'metrics-allow = "everyone"\n')
    line = one_line_error(invoke(tmp_path, "--config", str(config)))
    assert line.startswith(f"Error: {config}: metrics-allow: metrics_allow: 'everyone'")
    line = one_line_error(invoke(tmp_path, env={"KARNAK_METRICS_ALLOW": "everyone"}))
    assert "$KARNAK_METRICS_ALLOW: metrics_allow: 'everyone'" in line
    assert not served
