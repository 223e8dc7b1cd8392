"""The example game installed through its entry point for the tests of this folder, one
module at a time (support.example_game), so no other test ever sees a fourth game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browser.conftest import browser, chromium_process  # noqa: F401 (Chromium, as the browser tests launch it)
from karnak.core.game import Game
from karnak.core.registry import get_game
from support.example_game import NAME, Installed, installed


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    with installed(tmp_path_factory.mktemp("site")) as found:
        yield found


@pytest.fixture(scope="module")
def goofspiel(example: Installed) -> Game:
    return get_game(NAME)
