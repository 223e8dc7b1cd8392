"""A newcomer's path through the checkout: the Makefile's commands and what they leave."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def dry_run(*args: str) -> str:
    """What ``make`` would run (``make -n``), without running it."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_make_serve_takes_a_port_and_keeps_its_database_in_a_data_folder() -> None:
    commands = dry_run("serve", "PORT=8080")
    line = next(c for c in commands.splitlines() if "karnak serve" in c)
    assert "--port 8080" in line and "--database data/karnak.sqlite3" in line
    assert "--port 8000" in dry_run("serve")


@pytest.mark.parametrize(
    "path",
    [
        "data/karnak.sqlite3",
        "karnak.sqlite3",
        "karnak.sqlite3-wal",
        "data/karnak.sqlite3-shm",
        "records/amunre-seed7.json",
    ],
)
def test_what_serving_and_playing_leave_behind_is_ignored(path: str) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", path], cwd=ROOT, capture_output=True, check=False
    )
    assert ignored.returncode == 0, f"{path} would show as untracked"
