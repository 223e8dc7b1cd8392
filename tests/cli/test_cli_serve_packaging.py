"""How Karnak is installed and run as a service: ``make serve``, the container image, the
compose file and the licence.

``make serve`` must answer a newcomer in seconds: it installs the server extra only (never
the dev tools) and never compiles in the foreground (the build runs in the background, nice'd,
for the next start). The Dockerfile and compose.yaml are read and checked here, since this
machine has no Docker daemon to build them: the stages, the unprivileged user, the volume, the
health check, and every KARNAK_ variable they set being one that Karnak reads.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.main import get_command

from karnak.cli.main import app
from karnak.server.limits import ServerSettings

ROOT = Path(__file__).resolve().parents[2]


def make_dry_run(*targets: str, cwd: Path = ROOT) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # run as a top-level make even under `make test` (CI): a sub-make would inherit the
    # outer one's flags and print "Entering directory" lines into the plan
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", *targets],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def known_variables() -> set[str]:
    """Every KARNAK_ variable ``karnak serve`` reads: its options' and its limits'."""
    params = get_command(app).commands["serve"].params  # type: ignore[attr-defined]
    names = {"KARNAK_SMTP_PASSWORD"}
    for param in params:
        names.update([param.envvar] if isinstance(param.envvar, str) else param.envvar or [])
    names.update(f"KARNAK_{f.name.upper()}" for f in dataclasses.fields(ServerSettings))
    return names


# ---------------------------------------------------------------------------- make serve


@pytest.fixture
def fresh_checkout(tmp_path: Path) -> Path:
    """The Makefile and pyproject.toml in a folder with no virtualenv: a fresh clone."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_make_serve_installs_the_server_extra_only(fresh_checkout: Path) -> None:
    plan = make_dry_run("serve", cwd=fresh_checkout)
    assert "-e '.[server]'" in plan
    assert "[dev]" not in plan and "dev," not in plan
    for tool in ("mypy", "playwright", "schemathesis", "hypothesis", "pytest"):
        assert tool not in plan, tool
    assert "--quiet" in plan  # pip is quiet; one line says what is happening
    assert "installing the server's packages" in plan


def test_make_serve_never_compiles_in_the_foreground(fresh_checkout: Path) -> None:
    plan = make_dry_run("serve", cwd=fresh_checkout)
    lines = plan.splitlines()
    assert not any("karnak.native.build" in line for line in lines), plan
    [background] = [line for line in lines if "native-if-stale" in line]
    assert "nohup nice" in background and background.rstrip(" \\").endswith("&")
    assert "data/native-build.log" in background
    # the server is started after the build is sent away, in the same run
    assert lines[-1].endswith(
        "karnak serve --host 127.0.0.1 --port 8000 --database data/karnak.sqlite3"
    )
    # the background build alone installs the compiler's tools
    build_plan = make_dry_run("native-if-stale", cwd=fresh_checkout)
    assert "optional-dependencies" in build_plan and "karnak.native.build --if-stale" in build_plan


def test_make_test_still_runs_everything_with_the_compiled_build() -> None:
    plan = make_dry_run("test")
    assert "-e '.[dev]'" in plan or (ROOT / ".venv/.installed-dev").exists()
    assert "karnak.native.build --if-stale" in plan  # in the foreground, before the tests
    for step in ("ruff check", "ruff format --check", "mypy", "pytest"):
        assert step in plan, step


# ---------------------------------------------------------------------------- the image


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuations joined, comments left out)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(
        r"\\\n",
        " ",
        "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")),
    )
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def stages() -> list[list[tuple[str, str]]]:
    split: list[list[tuple[str, str]]] = []
    for instruction in dockerfile():
        if instruction[0] == "FROM":
            split.append([])
        if split:
            split[-1].append(instruction)
    return split


def test_the_image_is_built_on_python_slim_and_runs_unprivileged() -> None:
    instructions = dockerfile()
    args = dict(rest.split("=", 1) for word, rest in instructions if word == "ARG" and "=" in rest)
    assert args["PYTHON_IMAGE"] == "python:3.11-slim"
    build, final = stages()
    assert build[0] == ("FROM", "${PYTHON_IMAGE} AS build")
    assert final[0] == ("FROM", "${PYTHON_IMAGE}")
    runs = " ".join(rest for word, rest in build if word == "RUN")
    assert "pip install --quiet '.[server]'" in runs and "[dev]" not in runs
    assert "karnak.native.build --strict" in runs  # compiled in the build stage
    final_words = dict(final)
    assert final_words["USER"].split(":")[0] not in ("root", "0")
    assert "/data" in final_words["VOLUME"]
    assert "/healthz" in final_words["HEALTHCHECK"]
    assert "--from=build /opt/karnak /opt/karnak" in final_words["COPY"]
    assert final_words["ENTRYPOINT"] == '["karnak"]' and final_words["CMD"] == '["serve"]'
    # the compiler stays in the build stage
    assert not any("gcc" in rest for word, rest in final if word == "RUN")


def test_the_image_copies_only_what_exists_and_is_not_ignored() -> None:
    ignored = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for needed in (".venv", ".git", "data", "**/*.mypyc.so", "*.sqlite3", ".env"):
        assert needed in ignored, needed
    for word, rest in dockerfile():
        if word != "COPY" or rest.startswith("--from"):
            continue
        *sources, _ = rest.split()
        for source in sources:
            assert (ROOT / source).exists(), source
            assert source not in ignored, source


def test_the_variables_the_image_and_compose_set_are_karnaks_own() -> None:
    known = known_variables()
    text = (ROOT / "Dockerfile").read_text() + (ROOT / "compose.yaml").read_text()
    used = set(re.findall(r"\bKARNAK_[A-Z_]+\b", text))
    assert used and used <= known, used - known


# ---------------------------------------------------------------------------- compose


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


def test_compose_runs_two_processes_after_one_migration() -> None:
    services = compose()["services"]
    assert {"karnak", "migrate", "postgres", "redis"} <= set(services)
    migrate, karnak = services["migrate"], services["karnak"]
    assert migrate["command"] == ["db", "upgrade"] and migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert karnak["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert karnak["depends_on"]["redis"]["condition"] == "service_healthy"
    environment = karnak["environment"]
    assert environment["KARNAK_WORKERS"] == "2"
    assert environment["KARNAK_DATABASE_URL"].startswith("postgresql+psycopg://karnak:")
    assert environment["KARNAK_BROKER_URL"] == "redis://redis:6379/0"
    assert migrate["environment"]["KARNAK_DATABASE_URL"] == environment["KARNAK_DATABASE_URL"]
    for name in ("karnak", "postgres", "redis"):
        assert services[name]["healthcheck"]["test"], name
    assert "/healthz" in " ".join(karnak["healthcheck"]["test"])
    # the database password comes from the operator, never a default written here
    assert ":?" in environment["KARNAK_DATABASE_URL"]


# ---------------------------------------------------------------------------- licence


def test_the_licence_is_an_osi_one_named_in_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Karnak contributors" in text
    assert "Permission is hereby granted, free of charge" in text
    operating = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    for owner in ("Reiner Knizia", "Thorsten Gimmler", "Steven Aramini", "Board Game Arena"):
        assert owner in operating, owner
