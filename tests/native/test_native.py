"""The compiled hot paths (karnak.native): the same games as pure Python, and a loader that
uses a build only when it matches its sources and this interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import karnak.native
from karnak.native import loader
from karnak.native.build import MODULES

DIGEST = Path(__file__).with_name("digest_games.py")
#: CI builds the compiled modules (make native) and sets this: a build that silently failed
#: would otherwise leave the identity test skipped.
REQUIRED = os.environ.get("KARNAK_REQUIRE_NATIVE") == "1"


def run_digest(native: bool) -> dict[str, str]:
    env = {**os.environ, "KARNAK_NATIVE": "1" if native else "0"}
    done = subprocess.run(
        [sys.executable, str(DIGEST)], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def test_the_compiled_modules_are_in_use_where_they_were_built() -> None:
    found = karnak.native.status()
    if not REQUIRED and not found.active:
        pytest.skip(f"compiled modules not in use here: {found.reason}")
    assert found.active, found.reason
    from karnak.games.aton.rules import state as aton_state

    assert str(aton_state.__file__).endswith(loader.SUFFIX)


def test_compiled_and_pure_python_play_the_same_games() -> None:
    compiled = run_digest(native=True)
    if compiled["native"] != "on":
        if REQUIRED:
            pytest.fail(f"the compiled modules are not in use: {compiled}")
        pytest.skip("nothing compiled here (make native)")
    pure = run_digest(native=False)
    assert pure["native"] == "off"
    assert compiled["digest"] == pure["digest"]


# ------------------------------------------------------------------ the loader's decision
def fake_build(tmp_path: Path, *, suffix: str | None = None) -> Path:
    """A package folder with two sources, their 'compiled' files and a manifest."""
    package = tmp_path / "karnak"
    (package / "native").mkdir(parents=True)
    modules = {}
    for name in ("fast", "faster"):
        source = package / f"{name}.py"
        source.write_text(f"VALUE = {name!r}\n", encoding="utf-8")
        (package / f"{name}{loader.SUFFIX}").write_bytes(b"not really compiled")
        modules[f"karnak.{name}"] = {"source": f"{name}.py", "sha256": loader.digest(source)}
    (package / "native" / f"runtime__mypyc{loader.SUFFIX}").write_bytes(b"runtime")
    manifest = package / "native" / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "ext_suffix": suffix or sysconfig.get_config_var("EXT_SUFFIX"),
                "runtime": "karnak.native.runtime__mypyc",
                "modules": modules,
            }
        ),
        encoding="utf-8",
    )
    return manifest


def test_a_matching_build_is_used_whole(tmp_path: Path) -> None:
    found, files = loader.check(fake_build(tmp_path))
    assert found.state == "on" and found.active
    assert set(files) == {"karnak.fast", "karnak.faster", "karnak.native.runtime__mypyc"}
    assert files["karnak.fast"] == tmp_path / "karnak" / f"fast{loader.SUFFIX}"


def test_nothing_built_means_pure_python(tmp_path: Path) -> None:
    found, files = loader.check(tmp_path / "karnak" / "native" / "manifest.json")
    assert (found.state, files) == ("not built", {})


def test_a_changed_source_makes_the_whole_build_stale(tmp_path: Path) -> None:
    manifest = fake_build(tmp_path)
    (tmp_path / "karnak" / "faster.py").write_text("VALUE = 'edited'\n", encoding="utf-8")
    found, files = loader.check(manifest)
    assert found.state == "stale" and files == {}  # fast.py is unchanged, but not used alone
    assert found.stale == ("faster.py",) and "faster.py" in found.reason


def test_a_missing_compiled_file_or_runtime_is_stale(tmp_path: Path) -> None:
    manifest = fake_build(tmp_path)
    (tmp_path / "karnak" / f"fast{loader.SUFFIX}").unlink()
    assert loader.check(manifest)[0].state == "stale"
    manifest = fake_build(tmp_path / "again")
    (manifest.parent / f"runtime__mypyc{loader.SUFFIX}").unlink()
    found, files = loader.check(manifest)
    assert found.state == "stale" and "runtime" in found.reason and files == {}


def test_a_build_for_another_python_is_not_loaded(tmp_path: Path) -> None:
    found, files = loader.check(fake_build(tmp_path, suffix=".cpython-399-x86_64-linux-gnu.so"))
    assert found.state == "other python" and files == {}
    assert "cpython-399" in found.reason


@pytest.mark.parametrize("text", ["{not json", "[]", '{"ext_suffix": 1}', ""])
def test_an_unreadable_manifest_is_refused_in_one_line(tmp_path: Path, text: str) -> None:
    manifest = fake_build(tmp_path)
    manifest.write_text(text, encoding="utf-8")
    found, files = loader.check(manifest)
    assert found.state == "unreadable" and files == {}
    assert "make native" in found.reason


def test_karnak_native_0_asks_for_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "_status", loader.NativeStatus())
    monkeypatch.setenv("KARNAK_NATIVE", "0")
    finders = list(sys.meta_path)
    assert loader.install(fake_build(tmp_path)).state == "off"
    assert sys.meta_path == finders


def test_a_stale_build_warns_once_and_installs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(loader, "_status", loader.NativeStatus())
    monkeypatch.delenv("KARNAK_NATIVE", raising=False)
    manifest = fake_build(tmp_path)
    (tmp_path / "karnak" / "fast.py").write_text("VALUE = 1\n", encoding="utf-8")
    finders = list(sys.meta_path)
    assert loader.install(manifest).state == "stale"
    assert sys.meta_path == finders
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "make native" in caplog.records[0].getMessage()


def test_the_finder_serves_only_the_modules_of_the_set(tmp_path: Path) -> None:
    _, files = loader.check(fake_build(tmp_path))
    finder = loader.NativeFinder(files)
    assert finder.find_spec("karnak.core.game") is None
    spec = finder.find_spec("karnak.fast")
    assert spec is not None and spec.origin == str(files["karnak.fast"])


def test_every_module_of_the_set_exists_and_none_is_named_twice() -> None:
    assert len(set(MODULES)) == len(MODULES)
    for source in MODULES:
        assert (loader.PACKAGE / source).is_file(), source


def test_every_clone_copies_every_field_of_its_state() -> None:
    """As pure Python (where ``vars()`` sees every field): the written-out clones miss none."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("clone_fields.py"))],
        env={**os.environ, "KARNAK_NATIVE": "0"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "clones checked" in done.stdout
