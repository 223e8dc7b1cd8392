"""docs/research.md stays true: its tables are the code's, and its code blocks run.

The tables of game facts and tensor layouts are what ``python -m karnak.envs.describe``
prints; when a layout or a bound changes, paste its new output into the page. Every Python
block of the page (```python) runs as it is written, in a fresh interpreter; a block fenced
```py is an outline of a script under examples/, which runs on its own (tests/envs).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from karnak.envs.describe import description_table, layout_tables

PAGE = Path(__file__).resolve().parents[2] / "docs" / "research.md"
DOCUMENTED = [("aton", 2), ("amunre", 3), ("egyptia", 2)]


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "players"), [*DOCUMENTED, ("egyptia", 1)])
def test_the_game_facts_on_the_page_are_the_code_s(name: str, players: int) -> None:
    table = description_table(name, players)
    assert table in page(), (
        f"docs/research.md: the facts of {name} at {players} changed; paste the output of "
        f"python -m karnak.envs.describe {name} --players {players}"
    )


@pytest.mark.parametrize(("name", "players"), DOCUMENTED)
def test_the_tensor_layouts_on_the_page_are_the_code_s(name: str, players: int) -> None:
    assert layout_tables(name, players) in page(), (
        f"docs/research.md: the layout of {name} changed; paste the output of "
        f"python -m karnak.envs.describe {name} --players {players}"
    )


def code_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", page(), flags=re.DOTALL)


def test_the_page_has_its_examples() -> None:
    blocks = code_blocks()
    assert len(blocks) >= 5
    for entry in ("pettingzoo_env", "gymnasium_env", "register_openspiel", "BatchStepper"):
        assert any(entry in block for block in blocks), entry


@pytest.mark.parametrize("index", range(len(code_blocks())))
def test_every_python_block_of_the_page_runs(index: int) -> None:
    block = code_blocks()[index]
    result = subprocess.run(
        [sys.executable, "-c", block],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"block {index}:\n{block}\n{result.stderr}"
