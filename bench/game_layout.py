"""Where each game's code lives: files and lines inside ``src/karnak/games/<game>/`` and
outside it, and the generic lines that name a game (a registry a new game would have to join).

    python bench/game_layout.py            # the working tree's HEAD
    python bench/game_layout.py e2a268e    # any commit, for a before/after comparison

A file outside a game's folder belongs to that game when its name says so
(``bots/aton_heuristic.py``, ``server/static/aton.js``). A generic line names a game when it
spells the game's name as a string, a module path or a file name in code (comments and
docstrings do not count); ``core/registry.py``'s list of built-ins is reported apart, since
it is the one place a built-in game is meant to be named.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("amunre", "aton", "egyptia")
CODE = re.compile(r"\.(py|js|css|html|toml|json)$")


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def code_lines(path: str, text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` that are code: Python without comments and docstrings."""
    if not path.endswith(".py"):
        return [
            (n, line)
            for n, line in enumerate(text.splitlines(), 1)
            if not line.strip().startswith(("//", "/*", "*", "<!--"))
        ]
    prose: set[int] = set()
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            prose.add(token.start[0])
        elif token.type == tokenize.STRING and previous in (
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.NL,
        ):
            prose.update(range(token.start[0], token.end[0] + 1))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if n not in prose]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD")
    rev = parser.parse_args().rev
    files = [
        f for f in git("ls-tree", "-r", "--name-only", rev, "src/karnak").split() if CODE.search(f)
    ]
    inside = {g: Counter() for g in GAMES}
    outside = {g: Counter() for g in GAMES}
    naming: dict[str, list[str]] = {}
    pattern = re.compile(
        r"""karnak\.games\.(%s)\b|games/(%s)/|["'`](%s)["'`.]|/(%s)\.(js|css)"""
        % (("|".join(GAMES),) * 4)
    )
    for path in files:
        text = git("show", f"{rev}:{path}")
        lines = len(text.splitlines())
        owner = next((g for g in GAMES if path.startswith(f"src/karnak/games/{g}/")), None)
        if owner is not None:
            inside[owner]["files"] += 1
            inside[owner]["lines"] += lines
            continue
        named = next(
            (g for g in GAMES if re.search(rf"(^|/){g}(_[a-z]+)?\.(py|js|css)$", path)), None
        )
        if named is not None:
            outside[named]["files"] += 1
            outside[named]["lines"] += lines
            continue
        hits = [
            f"{n}: {line.strip()}" for n, line in code_lines(path, text) if pattern.search(line)
        ]
        if hits:
            naming[path] = hits
    print(f"## {rev}\n")
    print("| game | files inside | lines inside | files outside | lines outside | share outside |")
    print("|---|---|---|---|---|---|")
    for g in GAMES:
        total = inside[g]["lines"] + outside[g]["lines"]
        share = outside[g]["lines"] / total if total else 0.0
        cells = [inside[g]["files"], inside[g]["lines"], outside[g]["files"], outside[g]["lines"]]
        print(f"| {g} | {' | '.join(map(str, cells))} | {share:.0%} |")
    registry = {p: h for p, h in naming.items() if p.endswith("core/registry.py")}
    others = {p: h for p, h in naming.items() if p not in registry}
    named_lines = sum(map(len, others.values()))
    print(f"\nGeneric files whose code names a game: {len(others)} ({named_lines} lines)")
    for path, hits in sorted(others.items()):
        print(f"- {path}: {len(hits)}")
    print(f"The list of built-ins (core/registry.py): {sum(map(len, registry.values()))} lines")


if __name__ == "__main__":
    main()
