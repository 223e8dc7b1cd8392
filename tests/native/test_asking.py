"""Who installs the compiled hot paths (karnak.native): the entry points, a program that
asks, or KARNAK_NATIVE=1; never a bare ``import karnak``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from karnak.native import loader


def run(code: str, **env: str | None) -> str:
    """``code`` in a fresh interpreter, with the variables of ``env`` set (None: unset)."""
    environment = {k: v for k, v in os.environ.items() if k not in env}
    environment.update({k: v for k, v in env.items() if v is not None})
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


#: Prepended to a check: the loader's decision faked as "a build that matches", so that an
#: install is seen in sys.meta_path on any machine (nothing is loaded from the fake file).
FAKE_BUILD = """
    import sys
    from pathlib import Path
    import karnak.native.loader as loader

    def check(manifest=loader.MANIFEST):
        found = loader.NativeStatus("on", "a fake build", ("karnak.not_a_module",))
        return found, {"karnak.not_a_module": Path("/nowhere/not_a_module.mypyc.so")}

    loader.check = check
    finders = list(sys.meta_path)

    def installed():
        return any(isinstance(f, loader.NativeFinder) for f in sys.meta_path)
"""


def test_importing_karnak_and_its_engines_leaves_the_import_system_alone() -> None:
    answer = run(
        """
        import os, sys
        finders = list(sys.meta_path)
        import karnak
        from karnak.core import get_game
        get_game("egyptia").new_state(2, seed=1)
        print(sys.meta_path == finders, "karnak.native.loader" in sys.modules,
              "KARNAK_NATIVE" in os.environ)
        """,
        KARNAK_NATIVE=None,
    )
    assert answer == "True False False"


@pytest.mark.parametrize("value", ["1", "on", "true"])
def test_karnak_native_1_makes_the_import_ask(value: str) -> None:
    answer = run(
        """
        import sys
        import karnak
        print("karnak.native.loader" in sys.modules)
        """,
        KARNAK_NATIVE=value,
    )
    assert answer == "True"


def test_a_program_asks_and_its_child_processes_follow() -> None:
    answer = run(
        FAKE_BUILD
        + """
    import os, subprocess
    assert not installed()
    loader.install()
    child = subprocess.run(
        [sys.executable, "-c", "import sys, karnak; print('karnak.native.loader' in sys.modules)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    print(installed(), os.environ["KARNAK_NATIVE"], child)
    """,
        KARNAK_NATIVE=None,
    )
    assert answer == "True 1 True"


def test_the_karnak_command_asks_before_it_imports_the_engines() -> None:
    answer = run(
        FAKE_BUILD
        + """
    sys.argv = ["karnak", "--help"]
    from karnak.cli import entry
    assert not installed()
    try:
        entry.main()
    except SystemExit:
        pass
    print(installed())
    """,
        KARNAK_NATIVE=None,
    )
    assert answer == "True"


def test_the_server_factory_asks(tmp_path: Path) -> None:
    answer = run(
        FAKE_BUILD
        + """
    import karnak.server.asgi as asgi
    assert not installed()
    asgi.create_from_environment()
    print(installed())
    """,
        KARNAK_NATIVE=None,
        KARNAK_DATABASE_URL=f"sqlite:///{tmp_path / 'k.sqlite3'}",
    )
    assert answer == "True"


def test_karnak_native_0_still_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "_status", loader.NativeStatus())
    monkeypatch.setenv("KARNAK_NATIVE", "0")
    finders = list(sys.meta_path)
    assert loader.install(tmp_path / "manifest.json").state == "off"
    assert sys.meta_path == finders and os.environ["KARNAK_NATIVE"] == "0"


def test_installing_marks_the_environment_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "_status", loader.NativeStatus())
    monkeypatch.delenv("KARNAK_NATIVE", raising=False)
    assert loader.install(tmp_path / "manifest.json").state == "not built"
    assert os.environ["KARNAK_NATIVE"] == "1"
    monkeypatch.setattr(loader, "_status", loader.NativeStatus())
    monkeypatch.setenv("KARNAK_NATIVE", "yes")
    loader.install(tmp_path / "manifest.json")
    assert os.environ["KARNAK_NATIVE"] == "yes"  # what was asked stays as it was said
