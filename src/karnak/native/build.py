"""``python -m karnak.native.build``: compile the engines' hot paths with mypyc.

The modules in :data:`MODULES` are compiled together (one mypyc group, so they call each
other directly) in a temporary folder, then each extension is copied next to its source as
``<name>.mypyc.so`` with mypyc's shared runtime in ``karnak/native``, and the manifest of
source digests is written last: a build that fails half way leaves no manifest, hence pure
Python. ``--if-stale`` does nothing when the manifest already matches (``make`` calls it on
every run); ``--clean`` removes every compiled file. A missing compiler or mypyc is told in
one line and the exit status is 0 unless ``--strict``: Karnak runs as pure Python then.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from karnak.native.loader import MANIFEST, PACKAGE, SUFFIX, check, digest

#: The generic part of the compiled set, as paths under ``karnak/``: what search and training
#: spend their time in. A module joins when it compiles unchanged and the identity test still
#: passes.
GENERIC_MODULES: tuple[str, ...] = (
    "core/rng.py",
    "core/events.py",
    # Not core/state.py: its State is subclassed by interpreted classes (Amun-Re's state and
    # test doubles), which a compiled class forbids; compiling it measured no faster anyway.
    "bots/ismcts.py",
    # The research fast path: spelling moves in ids (the masks of every research adapter).
    # Not the games' research/action_ids.py: mypyc
    # (1.x) emits a call to a native check_id that its open ActionSpace base does not
    # have, and the Speller spells each move object once anyway (see its memory).
    "core/action_ids.py",
    # Integer play over a state (IdState): every step of every research adapter. In the
    # core, not in karnak.envs, so that compiling it type-checks no framework adapter.
    "core/id_play.py",
)


def game_modules() -> tuple[str, ...]:
    """What each built-in game's plugin names as worth compiling (``compiled``), as paths.

    Only Karnak's own games: a game from another distribution is not compiled in place."""
    from karnak.core.registry import BUILTIN, get_plugin

    return tuple(
        module.removeprefix("karnak.").replace(".", "/") + ".py"
        for name in BUILTIN
        for module in get_plugin(name).compiled
    )


#: The whole compiled set.
MODULES: tuple[str, ...] = GENERIC_MODULES + game_modules()
#: mypyc's shared runtime of the group is the module ``karnak.native.runtime__mypyc``.
GROUP = "karnak.native.runtime"


def module_name(source: str) -> str:
    """``games/aton/rules/state.py`` -> ``karnak.games.aton.rules.state``."""
    return "karnak." + source.removesuffix(".py").replace("/", ".")


def compiled_path(source: str) -> Path:
    path = PACKAGE / source
    return path.with_name(path.name.removesuffix(".py") + SUFFIX)


def clean() -> int:
    """Remove the manifest and every compiled file; how many files went."""
    removed = 0
    MANIFEST.unlink(missing_ok=True)
    for path in PACKAGE.rglob(f"*{SUFFIX}"):
        path.unlink()
        removed += 1
    return removed


def build(jobs: int) -> float:
    """Compile :data:`MODULES`; the seconds it took. Raises on any failure."""
    from mypyc.build import mypycify  # the dev tools: only a build needs them
    from setuptools import setup

    started = time.perf_counter()
    digests = {source: digest(PACKAGE / source) for source in MODULES}
    with tempfile.TemporaryDirectory(prefix="karnak-native-") as tmp:
        work = Path(tmp)
        # mypyc names modules from paths relative to the folder it runs in, and mypy reads
        # that folder as the user's code: a folder holding only (a link to) the package, not
        # the one above it, which for an installed wheel is site-packages, whose own
        # modules (typing_extensions, ...) mypy would then refuse as shadowing the library.
        root = work / "src"
        root.mkdir()
        (root / "karnak").symlink_to(PACKAGE, target_is_directory=True)
        here = Path.cwd()
        os.chdir(root)
        try:
            extensions = mypycify(
                # mypy's arguments: its cache goes with the rest of the build, then away
                [
                    "--cache-dir",
                    str(work / "mypy"),
                    # The optional research packages (pyspiel, ray, ...) may be absent: a
                    # module that imports them is type-checked, not compiled, so its
                    # missing imports are Any here, as the project's mypy settings say.
                    "--ignore-missing-imports",
                    *(f"karnak/{source}" for source in MODULES),
                ],
                opt_level="3",
                target_dir=str(work / "c"),
                group_name=GROUP,
            )
            setup(
                name="karnak-native",
                ext_modules=extensions,
                script_args=[
                    "--quiet",
                    "build_ext",
                    "--build-lib",
                    str(work / "lib"),
                    "--build-temp",
                    str(work / "temp"),
                    "--parallel",
                    str(jobs),
                ],
            )
        finally:
            os.chdir(here)
        built = work / "lib"
        ext_suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
        copies: dict[Path, Path] = {}
        for source in MODULES:
            copies[built / "karnak" / source.removesuffix(".py")] = compiled_path(source)
        runtime = GROUP.rsplit(".", 1)[-1] + "__mypyc"
        copies[built / "karnak" / "native" / runtime] = PACKAGE / "native" / (runtime + SUFFIX)
        clean()
        for stem, target in copies.items():
            shutil.copyfile(stem.with_name(stem.name + ext_suffix), target)
    if any(digest(PACKAGE / source) != sha for source, sha in digests.items()):
        raise RuntimeError("a source changed while it was being compiled: run the build again")
    manifest = {
        "ext_suffix": ext_suffix,
        "runtime": f"{GROUP}__mypyc",
        "python": sys.version.split()[0],
        "modules": {
            module_name(source): {
                "source": source,
                "sha256": digests[source],
            }
            for source in MODULES
        },
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--if-stale", action="store_true", help="only when the build is stale")
    parser.add_argument("--clean", action="store_true", help="remove every compiled file")
    parser.add_argument("--strict", action="store_true", help="a failed build exits with 1")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compilers at once")
    args = parser.parse_args(argv)
    if args.clean:
        print(f"removed {clean()} compiled file(s): Karnak runs as pure Python")
        return 0
    if not 1 <= args.jobs <= 64:
        parser.error("--jobs is from 1 to 64")
    if args.if_stale:
        found, _ = check()
        if found.active and set(found.modules) == {module_name(s) for s in MODULES}:
            return 0
    print(f"compiling {len(MODULES)} engine modules with mypyc (a minute or two) ...", flush=True)
    said = io.StringIO()  # mypyc's notes, shown only if the build fails
    try:
        with contextlib.redirect_stdout(said):
            seconds = build(args.jobs)
    except (Exception, SystemExit) as exc:  # no compiler, no headers, no mypyc: pure Python
        clean()
        print(said.getvalue()[-2000:], end="")
        problem = f"{type(exc).__name__}: {exc}"
        print(f"could not compile the engines ({problem}); Karnak runs as pure Python")
        return 1 if args.strict else 0
    print(
        f"compiled {len(MODULES)} modules in {seconds:.0f} s (python -m karnak.native lists them)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
