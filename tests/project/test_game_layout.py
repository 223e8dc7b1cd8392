"""Each game in one place: the same layout in every game's package, no game named anywhere
outside its own folder but the one list of built-ins, and each part of a game importing only
the core, its own game and the libraries its client needs.

This is the test that keeps registries from growing back: a generic module that names a game
(``if game.name == "aton"``, a dict keyed by the three names, a script or a stylesheet link)
fails here, and the game's plugin is where that knowledge belongs.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import karnak
from karnak.core.registry import BUILTIN, get_plugin

SRC = Path(karnak.__file__).parent
GAMES = SRC / "games"
#: The one place that lists Karnak's own games.
REGISTRY = SRC / "core" / "registry.py"

#: What every built-in game's package holds, whatever else the game needs of its own.
LAYOUT = (
    "__init__.py",
    "plugin.py",
    "rules/__init__.py",
    "rules/game.py",
    "rules/state.py",
    "rules/actions.py",
    "data",
    "view.py",
    "research/__init__.py",
    "research/tensors.py",
    "research/action_ids.py",
    "bot.py",
    "terminal.py",
    "web/__init__.py",
    "web/board.py",
    "web/guide.py",
    "web/static",
)
#: Third-party libraries each part of a game may import (beyond the standard library).
ALLOWED_LIBRARIES = {
    "rules": {"numpy"},
    "research": {"numpy"},
    "view.py": set(),
    "bot.py": {"numpy"},
    "plugin.py": set(),
    "terminal.py": {"rich"},
    "web": {"orjson"},
}


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (lazy imports in functions count)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def docstring_lines(text: str) -> set[int]:
    """The line numbers of a module's docstrings (a string standing alone as a statement)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def part_of(game_dir: Path, path: Path) -> str:
    relative = path.relative_to(game_dir)
    return relative.parts[0] if len(relative.parts) > 1 else relative.name


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_every_game_has_the_same_layout(name: str) -> None:
    missing = [entry for entry in LAYOUT if not (GAMES / name / entry).exists()]
    assert not missing, f"{name} lacks {missing}"
    page = get_plugin(name).web_page()
    assert page is not None and page.static is not None and page.script is not None
    assert (page.static / page.script).is_file()
    assert all((page.static / sheet).is_file() for sheet in page.stylesheets)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_a_game_imports_only_the_core_itself_and_its_clients_libraries(name: str) -> None:
    game_dir = GAMES / name
    wrong = []
    for path in sorted(game_dir.rglob("*.py")):
        part = part_of(game_dir, path)
        allowed = ALLOWED_LIBRARIES.get(part, set())
        for module in imports_of(path):
            top = module.partition(".")[0]
            if top == "karnak":
                ok = module.startswith(("karnak.core", "karnak.i18n", f"karnak.games.{name}"))
                # the rules never draw: no terminal kit, however close to the core it sits
                if part == "rules" and module == "karnak.core.terminal":
                    ok = False
            else:
                ok = top in allowed or top in sys.stdlib_module_names or top == "__future__"
            if not ok:
                wrong.append(f"{path.relative_to(SRC)} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_no_generic_module_names_a_game() -> None:
    """Outside the games' own folders, only the list of built-ins names one of them."""
    names = "|".join(re.escape(name) for name in BUILTIN)
    pattern = re.compile(
        rf"""karnak\.games\.({names})\b|games/({names})/|["'`]({names})["'`.]|/({names})\.(js|css)"""
    )
    offenders = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in {".py", ".js", ".html", ".css"} or GAMES in path.parents:
            continue
        if path == REGISTRY:
            continue
        text = path.read_text(encoding="utf-8")
        prose = docstring_lines(text) if path.suffix == ".py" else set()
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            # docstrings and comments may use a game as an example; code may not
            if number in prose or stripped.startswith(("#", "//", "*", "<!--")):
                continue
            if pattern.search(line):
                offenders.append(f"{path.relative_to(SRC)}:{number}: {stripped}")
    assert not offenders, "\n".join(offenders)
