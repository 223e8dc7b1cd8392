"""``karnak serve``'s settings from a TOML file and the environment, beside its options.

An operator sets the server in whichever place suits the deployment: a flag, an environment
variable (a systemd ``EnvironmentFile``, a container's ``environment:``) or a TOML file
(``--config FILE`` or ``KARNAK_CONFIG``). One rule decides between them: **flag >
environment > file > default**, so a file holds the site's choices and a flag or a variable
overrides one of them for a run.

Two kinds of setting share the file and the ``KARNAK_`` prefix:

* every option of ``karnak serve``: the key is the option's name (``port``,
  ``bot-workers``), the variable ``KARNAK_`` and the name in capitals (``KARNAK_BOT_WORKERS``).
  The file's values become Click's ``default_map``, which Click ranks below the command line
  and the environment: that ranking is the rule above.
* every field of :class:`~karnak.server.limits.ServerSettings` that no option sets
  (``max-body-bytes``, ``chat-lines-per-minute``, ...), found by walking the dataclass, so a
  limit added there can be set at once, with no option to write. Dashes and underscores are
  the same in keys (``max_body_bytes`` works too).

A file is checked whole before the server starts: an unknown key, a value of the wrong type or
out of range is refused in one line naming the file and the key (exit status 2, as a wrong
option). The SMTP password is never read from a file or a flag, only from its variable.
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
import math
import os
import tomllib
import types
import typing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from karnak.cli.common import EXIT_USAGE, CliError, reported_errors

#: Where ``--config`` is read from when the flag is not given.
CONFIG_ENV = "KARNAK_CONFIG"
#: Every variable's prefix.
ENV_PREFIX = "KARNAK_"
#: Where the loaded file is kept for the command (``ctx.meta``).
META_KEY = "karnak.config"
#: The largest configuration file read (a settings file is a few hundred bytes).
MAX_FILE_BYTES = 256 * 1024
#: Options that are no setting: the file itself, and the one that prints the settings.
NOT_SETTINGS = frozenset({"config", "print_config"})
#: Options refused wherever they are written but in their variable (see serve.py).
SECRETS = {"smtp_password": "KARNAK_SMTP_PASSWORD"}
#: ServerSettings fields set by an option of another name (field -> option).
FIELD_OPTIONS = {"max_running_games": "max_games"}
#: Options whose value is a duration: a number in the file means seconds.
DURATIONS = frozenset({"max_think", "max_game_think"})
#: The largest number a limit without bounds of its own may be given.
LARGEST = 10**12
#: Words read as true and false in variables.
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def env_name(name: str) -> str:
    """``max_body_bytes`` or ``max-body-bytes`` -> ``KARNAK_MAX_BODY_BYTES``."""
    return ENV_PREFIX + name.replace("-", "_").upper()


def key_name(name: str) -> str:
    """A key as ``--print-config`` writes it: ``max_body_bytes`` -> ``max-body-bytes``."""
    return name.replace("_", "-")


class ConfigError(CliError):
    """A file, key or value refused: one line, the usage errors' exit status."""

    def __init__(self, message: str):
        super().__init__(message, EXIT_USAGE)


# ---------------------------------------------------------------------------- settings fields


@dataclass(frozen=True)
class SettingField:
    """One ServerSettings field that no option covers: its name, type and bounds."""

    name: str
    kind: type  # bool, int, float or str
    default: Any
    bounds: tuple[float, float] | None
    note: str = ""

    @property
    def key(self) -> str:
        return key_name(self.name)

    @property
    def env(self) -> str:
        return env_name(self.name)


def setting_fields(option_names: Iterable[str] = ()) -> list[SettingField]:
    """The ServerSettings fields that no option of ``option_names`` sets, in their order.

    A field may carry its bounds as ``field(..., metadata={"range": (low, high)})``; without
    them a number must be at least 0 (every limit counts or measures something) and finite.
    """
    from karnak.server.limits import ServerSettings

    options = set(option_names)
    hints = typing.get_type_hints(ServerSettings)
    notes = _field_notes(ServerSettings)
    found = []
    for item in dataclasses.fields(ServerSettings):
        if item.name in options or FIELD_OPTIONS.get(item.name) in options:
            continue
        kind = _scalar(hints[item.name])
        if kind is None:
            raise TypeError(
                f"ServerSettings.{item.name}: {hints[item.name]} cannot be set from a file or "
                "the environment (give it a bool, int, float or str type)"
            )
        found.append(
            SettingField(
                item.name, kind, item.default, item.metadata.get("range"), notes.get(item.name, "")
            )
        )
    return found


def _scalar(hint: Any) -> type | None:
    """bool, int, float or str from a field's type (``X | None`` reads as X)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kinds = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _scalar(kinds[0]) if len(kinds) == 1 else None
    return hint if hint in (bool, int, float, str) else None


def _field_notes(cls: type) -> dict[str, str]:
    """Each field's ``#:`` comment, for ``--print-config`` (empty when there is no source)."""
    try:
        lines = inspect.getsource(cls).splitlines()
    except (OSError, TypeError):
        return {}
    notes: dict[str, str] = {}
    comment: list[str] = []
    for line in lines:
        text = line.strip()
        if text.startswith("#:"):
            comment.append(text[2:].strip())
        elif text.startswith("#") and comment:
            comment.append(text[1:].strip())
        elif ":" in text and "=" in text and comment:
            notes[text.split(":", 1)[0].strip()] = " ".join(comment)
            comment = []
        else:
            comment = []
    return notes


def check_setting(item: SettingField, value: Any, where: str) -> Any:
    """``value`` for ``item``, checked; ``where`` names the place in the refusal."""
    kind = item.kind
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: must be true or false, not {value!r}")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: must be a string, not {value!r}")
        return value
    numeric = isinstance(value, int) or (kind is float and isinstance(value, float))
    if isinstance(value, bool) or not numeric:
        wanted = "a whole number" if kind is int else "a number"
        raise ConfigError(f"{where}: must be {wanted}, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{where}: must be a finite number, not {value!r}")
    low, high = item.bounds or (0, LARGEST)
    if not low <= value <= high:
        bounds = f"between {low:,} and {high:,}" if item.bounds else "0 or more"
        raise ConfigError(f"{where}: must be {bounds}, not {value!r}")
    return kind(value)


def setting_from_text(item: SettingField, text: str, where: str) -> Any:
    """A variable's text read as ``item``'s type, then checked."""
    value: Any = text.strip()
    if item.kind is bool:
        word = value.lower()
        if word not in TRUE_WORDS | FALSE_WORDS:
            raise ConfigError(f"{where}: must be true or false (1/0, yes/no), not {text!r}")
        value = word in TRUE_WORDS
    elif item.kind in (int, float):
        try:
            value = item.kind(value)
        except ValueError:
            wanted = "a whole number" if item.kind is int else "a number"
            raise ConfigError(f"{where}: must be {wanted}, not {text!r}") from None
    return check_setting(item, value, where)


def settings_given(
    fields: list[SettingField], from_file: dict[str, Any], environ: dict[str, str]
) -> dict[str, Any]:
    """The fields' values: from their variable, else from the file (absent: the default)."""
    chosen = dict(from_file)
    for item in fields:
        text = environ.get(item.env)
        if text is not None and text.strip():
            chosen[item.name] = setting_from_text(item, text, item.env)
    return chosen


def setting_refused(
    message: str, fields: list[SettingField], loaded: LoadedConfig, environ: dict[str, str]
) -> str | None:
    """A server's refusal of a limit's value (``ValueError("metrics_allow: ...")``, raised
    where the value is used) as one line naming where the value came from; None when the
    message names no limit (then it is no refusal of a setting, and is not hidden)."""
    for item in fields:
        if not message.startswith(f"{item.name}:"):
            continue
        if environ.get(item.env, "").strip():
            return f"${item.env}: {message}"
        if item.name in loaded.settings:
            return f"{loaded.path}: {loaded.keys.get(item.name, item.key)}: {message}"
        return message
    return None


# ---------------------------------------------------------------------------- the file


@dataclass
class LoadedConfig:
    """A configuration file, checked: option values (for Click's ``default_map``) and
    ServerSettings values, each by its Python name; ``keys`` holds each name's key as
    written, for the refusals that come later (a range only the command checks)."""

    path: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)


def read_toml(path: Path) -> dict[str, Any]:
    """The file's table, or one line saying why it cannot be read."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        why = exc.strerror or exc
        raise ConfigError(f"{path}: cannot read the configuration file ({why})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(f"{path}: a configuration file is at most {MAX_FILE_BYTES} bytes")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: is not valid TOML ({exc})") from None


def load_config(path: Path, ctx: typer.Context) -> LoadedConfig:
    """Read and check ``path`` against ``command``'s options and the ServerSettings fields."""
    params = {p.name: p for p in ctx.command.params if p.name and p.name not in NOT_SETTINGS}
    fields = {item.name: item for item in setting_fields(params)}
    aliases = {key_name(field_name): option for field_name, option in FIELD_OPTIONS.items()}
    loaded = LoadedConfig(path)
    for key, value in read_toml(path).items():
        where = f"{path}: {key}"
        name = aliases.get(key_name(key), key.replace("-", "_"))
        if name in loaded.keys:
            raise ConfigError(f"{where}: set twice (as {loaded.keys[name]} and {key})")
        if name in SECRETS:
            raise ConfigError(
                f"{where}: the SMTP password is never read from a file: set {SECRETS[name]} "
                "in the server's environment (a file only it can read, e.g. systemd's "
                "EnvironmentFile)"
            )
        if name in params:
            loaded.options[name] = check_option(params[name], value, where)
        elif name in fields:
            loaded.settings[name] = check_setting(fields[name], value, where)
        else:
            known = [key_name(n) for n in [*params, *fields] if n not in SECRETS]
            near = difflib.get_close_matches(key_name(key), known, n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise ConfigError(
                f"{where}: unknown setting{hint} (`karnak serve --print-config` lists them all)"
            )
        loaded.keys[name] = key
    return loaded


def check_option(param: Any, value: Any, where: str) -> Any:
    """A file's value for an option, of the option's own type (its annotation)."""
    kind = param.type_descriptor.annotation
    if kind is not None and typing.get_origin(kind) in (typing.Union, types.UnionType):
        kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
    if isinstance(value, dict | list):
        raise ConfigError(f"{where}: must be a single value, not a {type(value).__name__}")
    if param.name in DURATIONS and isinstance(value, int | float) and not isinstance(value, bool):
        value = f"{value}s"  # a bare number of seconds
    if typing.get_origin(kind) is typing.Literal:
        choices = typing.get_args(kind)
        if value not in choices:
            listed = ", ".join(map(str, choices))
            raise ConfigError(f"{where}: must be one of {listed}, not {value!r}")
        return value
    if kind is bool:
        ok, wanted = isinstance(value, bool), "true or false"
    elif kind is int:
        ok, wanted = isinstance(value, int) and not isinstance(value, bool), "a whole number"
    elif kind is float:
        ok, wanted = isinstance(value, int | float) and not isinstance(value, bool), "a number"
    else:  # strings and paths
        ok, wanted = isinstance(value, str), "a string"
    if not ok:
        raise ConfigError(f"{where}: must be {wanted}, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{where}: must be a finite number, not {value!r}")
    return value


def config_callback(ctx: typer.Context, value: Path | None) -> Path | None:
    """``--config``'s callback: it runs before every other option is read (``is_eager``), so
    the file's values become their defaults, below the flags and the environment."""
    if value is None or ctx.resilient_parsing:
        return value
    with reported_errors():
        loaded = load_config(value, ctx)
    ctx.default_map = {**(ctx.default_map or {}), **loaded.options}
    ctx.meta[META_KEY] = loaded
    return value


def loaded_config(ctx: typer.Context) -> LoadedConfig:
    """What ``--config`` read (an empty one without a file)."""
    found = ctx.meta.get(META_KEY)
    return found if isinstance(found, LoadedConfig) else LoadedConfig()


# ---------------------------------------------------------------------------- provenance


def _source(ctx: typer.Context, name: str) -> str:
    """Click's ParameterSource of an option, by name: COMMANDLINE, ENVIRONMENT, DEFAULT_MAP,
    DEFAULT (Typer's own copy of Click defines the enum, so its name is compared)."""
    source = ctx.get_parameter_source(name)
    return source.name if source is not None else "DEFAULT"


def source_of(ctx: typer.Context, name: str) -> str:
    """Where an option's value came from: ``flag``, ``$VAR``, ``FILE`` or ``default``."""
    source = _source(ctx, name)
    if source == "COMMANDLINE":
        return "flag"
    if source == "ENVIRONMENT":
        return f"${_set_variable(ctx, name) or env_name(name)}"
    if source == "DEFAULT_MAP":
        return str(loaded_config(ctx).path)
    return "default"


def _set_variable(ctx: typer.Context, name: str) -> str | None:
    for param in ctx.command.params:
        if param.name == name:
            names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar or [])
            return next((n for n in names if os.environ.get(n)), None)
    return None


@contextmanager
def naming_sources(ctx: typer.Context) -> Iterator[None]:
    """Refusals of a value that came from the file or the environment name that place: the
    command checks some bounds itself (``--max-think must be ...``), in words that name the
    option only."""
    try:
        yield
    except CliError as exc:
        message = str(exc)
        for param in ctx.command.params:
            if not param.name or not getattr(param, "opts", None):
                continue
            if not any(_names(message, opt) for opt in param.opts):
                continue
            source = _source(ctx, param.name)
            if source == "DEFAULT_MAP":
                loaded = loaded_config(ctx)
                key = loaded.keys.get(param.name, key_name(param.name))
                raise CliError(f"{loaded.path}: {key}: {message}", exc.code) from None
            if source == "ENVIRONMENT":
                variable = _set_variable(ctx, param.name) or env_name(param.name)
                raise CliError(f"{message} (from ${variable})", exc.code) from None
        raise


def _names(message: str, opt: str) -> bool:
    """Whether ``message`` begins with the option ``opt`` (not one that starts like it)."""
    return message.startswith(opt) and message[len(opt) : len(opt) + 1] in ("", " ", ":")


# ---------------------------------------------------------------------------- showing them


def toml_value(value: Any) -> str:
    """``value`` written as TOML (strings JSON-quoted, which TOML reads the same)."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


def config_lines(
    options: list[tuple[str, Any, str, str]],
    settings: list[tuple[SettingField, Any, str]],
) -> list[str]:
    """The settings in effect as a TOML file, each with its variable and where its value came
    from: a file to start from, and an answer to "which value won". ``options`` holds (name,
    value, source, variable) for each option."""
    import textwrap

    lines = ["# karnak serve's settings in effect (flag > environment > file > default)", ""]
    for name, value, source, variable in options:
        line = f"{key_name(name)} = {toml_value(value)}"
        if value is None:
            line = f"# {key_name(name)} = (not set)"
        lines.append(f"{line:<46} # ${variable}; {source}")
    lines += ["", "# the server's limits (karnak.server.limits.ServerSettings)"]
    for item, value, source in settings:
        lines += textwrap.wrap(item.note, 96, initial_indent="# ", subsequent_indent="# ")
        lines.append(f"{f'{item.key} = {toml_value(value)}':<46} # ${item.env}; {source}")
    return lines
