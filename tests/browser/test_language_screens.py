"""Each game's page in German and French (issue 33, part 7): drawn in Chromium at a laptop's
size, its words in the reader's language, and no text overflowing its button, label or cell.

With ``KARNAK_SCREENSHOTS`` naming a folder, the pictures are saved there (the README's);
otherwise in the test's temporary folder, where they are looked at by hand when needed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from karnak.core.registry import available_games

from .test_one_screen import LAPTOP, seat_page
from .test_play_in_browser import SCREENSHOTS_ENV

#: Words the English page shows that a translated page must not (in its moves and decision).
ENGLISH_WORDS = (" the ", " your ", "Waiting for", "Place a", "Buy ", "Take the")

OVERFLOWING = """() => {
  const found = [];
  for (const node of document.querySelectorAll(
      "button, label, th, td, .move, #decision, #title, #seat-banner, .chip")) {
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") continue;
    // a label for screen readers only (clipped to a pixel) is not seen, so cannot overflow
    if (style.position === "absolute" && node.clientWidth <= 2) continue;
    if (style.overflow === "visible" && style.textOverflow !== "ellipsis"
        && node.tagName !== "BUTTON") continue;
    if (node.scrollWidth > node.clientWidth + 2 && node.clientWidth > 2)
      found.push(node.tagName + ": " + node.textContent.trim().slice(0, 60));
  }
  return found;
}"""


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("game", available_games())
def test_each_game_page_reads_in_the_language_and_nothing_overflows(
    browser: Any, server_url: str, tmp_path: Path, game: str, language: str
) -> None:
    page = seat_page(
        browser, server_url, game, LAPTOP, extra_http_headers={"Accept-Language": language}
    )
    try:
        assert page.evaluate("document.documentElement.lang") == language
        words = " " + page.inner_text("#moves") + " " + page.inner_text("#decision") + " "
        leftovers = [word for word in ENGLISH_WORDS if word in words]
        assert not leftovers, f"{game} in {language} still reads {leftovers}: {words[:300]}"
        overflowing = page.evaluate(OVERFLOWING)
        assert not overflowing, f"{game} in {language}: text overflows {overflowing[:8]}"
        folder = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{game}-{language}.png"))
    finally:
        page.close()
