"""Load the compiled modules when, and only when, they match their sources.

The compiled files sit next to the sources under a name the import system never tries
(``state.mypyc.so`` beside ``state.py``), so a checkout without a build, a stale build or
``KARNAK_NATIVE=0`` all import the plain sources. :func:`install` decides once, before any
engine module is imported, and either installs :class:`NativeFinder` for the whole set or
leaves the import system alone: a compiled module calls the others of its set directly, so
they are used all together or not at all. Nothing is installed unless asked for (an entry
point, a library user, or ``KARNAK_NATIVE=1``; see :mod:`karnak.native`).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

log = logging.getLogger("karnak.native")

#: The package folder every manifest path is relative to (``src/karnak``).
PACKAGE = Path(__file__).resolve().parents[1]
#: Written by ``karnak.native.build`` after a successful build, read here.
MANIFEST = PACKAGE / "native" / "manifest.json"
#: The suffix of every compiled file.
SUFFIX = ".mypyc.so"
#: The environment variable that asks for (or refuses) the compiled modules.
ENV = "KARNAK_NATIVE"
#: Values of ``KARNAK_NATIVE`` that force pure Python.
OFF = frozenset({"0", "off", "no", "false", "pure"})
#: Values of ``KARNAK_NATIVE`` that ask for the compiled modules from ``import karnak`` on.
ON = frozenset({"1", "on", "yes", "true", "compiled"})


@dataclass
class NativeStatus:
    """What runs, and why: ``state`` is "on", "off" (asked for), "not built", "stale",
    "other python" or "unreadable"."""

    state: str = "not built"
    reason: str = "nothing has been compiled: `make native` compiles the engines' hot paths"
    modules: tuple[str, ...] = ()
    stale: tuple[str, ...] = field(default=())

    @property
    def active(self) -> bool:
        return self.state == "on"


_status = NativeStatus()


def status() -> NativeStatus:
    """What :func:`install` decided for this process."""
    return _status


class NativeFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled file of each module of the set (and mypyc's shared runtime)."""

    def __init__(self, files: dict[str, Path]):
        self.files = files

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(manifest_path: Path = MANIFEST) -> tuple[NativeStatus, dict[str, Path]]:
    """Decide from the manifest whether the compiled set may be used, without installing."""
    if not manifest_path.is_file():
        return NativeStatus(), {}
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        ext_suffix = str(manifest["ext_suffix"])
        runtime = str(manifest["runtime"])
        modules = manifest["modules"].items()
        entries = {str(m): (str(e["source"]), str(e["sha256"])) for m, e in modules}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        reason = f"{manifest_path} cannot be read ({exc}): `make native` writes it again"
        return NativeStatus("unreadable", reason), {}
    package = manifest_path.parents[1]
    names = tuple(sorted(entries))
    if ext_suffix != sysconfig.get_config_var("EXT_SUFFIX"):
        reason = (
            f"the compiled modules were built for {ext_suffix.strip('.')}, not this Python "
            "(`make native` builds them for it)"
        )
        return NativeStatus("other python", reason, names), {}
    files: dict[str, Path] = {}
    stale: list[str] = []
    for module, (source, sha) in entries.items():
        source_path = package / source
        compiled = source_path.with_name(source_path.name.removesuffix(".py") + SUFFIX)
        try:
            fresh = compiled.is_file() and digest(source_path) == sha
        except OSError:
            fresh = False
        if not fresh:
            stale.append(source)
        files[module] = compiled
    if stale:
        reason = (
            f"{len(stale)} compiled module(s) no longer match their sources "
            f"({', '.join(sorted(stale)[:3])}{', ...' if len(stale) > 3 else ''}): running pure "
            "Python; `make native` compiles them again"
        )
        return NativeStatus("stale", reason, names, tuple(sorted(stale))), {}
    runtime_file = package / "native" / (runtime.rsplit(".", 1)[-1] + SUFFIX)
    if not runtime_file.is_file():
        reason = f"mypyc's runtime {runtime_file.name} is missing: `make native` builds it"
        return NativeStatus("stale", reason, names), {}
    files[runtime] = runtime_file
    return NativeStatus("on", f"{len(names)} compiled modules", names), files


def asked() -> bool:
    """Whether ``KARNAK_NATIVE`` asks for the compiled modules (``import karnak`` then
    installs them; see the package's docstring)."""
    return os.environ.get(ENV, "").strip().lower() in ON


def install(manifest_path: Path = MANIFEST) -> NativeStatus:
    """Use the compiled modules if they match (see the module's docstring); idempotent.

    Unless ``KARNAK_NATIVE`` says already, it is set to ``1`` for the processes this one
    starts: a worker process (the server's bots, the arena's games) that imports karnak
    then uses the same build, before its engines are imported."""
    global _status
    if _status.active:
        return _status
    if os.environ.get(ENV, "").strip().lower() in OFF:
        _status = NativeStatus("off", "KARNAK_NATIVE asks for pure Python")
        return _status
    if not os.environ.get(ENV, "").strip():
        os.environ[ENV] = "1"
    found, files = check(manifest_path)
    early = [name for name in files if name in sys.modules]
    if found.active and early:
        found = NativeStatus(
            "off", f"{', '.join(early)} was imported before karnak.native.install", found.modules
        )
        files = {}
    if found.state in ("stale", "other python", "unreadable"):
        log.warning("karnak: %s", found.reason)
    if files:
        sys.meta_path.insert(0, NativeFinder(files))
    _status = found
    return _status
