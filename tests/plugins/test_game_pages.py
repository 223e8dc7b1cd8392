"""Every registered game's part of the web page, whatever the game: its browser files served
from its own package (and nothing else there), its observation schema served, and its script
reading only the observation keys that schema declares."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from karnak.core import Rng
from karnak.core.plugin import GamePlugin, WebPage
from karnak.core.registry import plugins
from karnak.core.view_schema import observation_schema, top_level_keys
from karnak.server.app import create_app
from karnak.server.game_pages import client_assets

STATIC = Path(__file__).resolve().parents[2] / "src" / "karnak" / "server" / "static"
PLUGINS = sorted(plugins())
#: The observation keys the common page reads of every game (server/static/game.js): the
#: header's round and the banner's sentence.
PAGE_READS = {"round", "decision"}


def web_page(name: str) -> WebPage | None:
    return plugins()[name].web_page()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("db") / "karnak.sqlite3"
    with TestClient(create_app(f"sqlite:///{database}", bot_workers=0)) as test_client:
        yield test_client


# ---------------------------------------------------------------------- static files
@pytest.mark.parametrize("name", PLUGINS)
def test_each_games_script_and_stylesheets_are_served_from_its_package(
    client: TestClient, name: str
) -> None:
    page = web_page(name)
    assets = client_assets(name)
    if page is None or page.static is None:
        assert assets == {"script": None, "stylesheets": []}
        return
    urls = [assets["script"], *assets["stylesheets"]] if assets["script"] else assets["stylesheets"]
    assert urls, f"{name} has a static folder but names no file in it"
    for url in urls:
        assert url.startswith(f"/static/games/{name}/")
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.content == (page.static / url.rsplit("/", 1)[1]).read_bytes()
        kind = "javascript" if url.endswith(".js") else "css"
        assert kind in response.headers["content-type"], url


@pytest.mark.parametrize("name", PLUGINS)
def test_nothing_outside_a_games_static_folder_is_served_under_it(
    client: TestClient, name: str
) -> None:
    for path in (
        f"/static/games/{name}/..%2f..%2fgame.js",
        f"/static/games/{name}/%2e%2e/%2e%2e/game.js",
        f"/static/games/{name}/..%2f..%2f..%2fplugin.py",
        f"/static/games/{name}/no-such-file.js",
    ):
        assert client.get(path).status_code == 404, path


def test_an_unknown_game_has_no_static_files(client: TestClient) -> None:
    assert client.get("/static/games/senet/senet.js").status_code == 404
    assert client.get("/static/games/").status_code == 404


# ---------------------------------------------------------------------- observation schema
@pytest.mark.parametrize("name", PLUGINS)
def test_each_game_serves_the_schema_of_the_observation_it_declares(
    client: TestClient, name: str
) -> None:
    response = client.get(f"/api/games/{name}/observation-schema")
    schema = observation_schema(plugins()[name])
    if schema is None:
        assert response.status_code == 404 and "declares no" in response.json()["error"]
        return
    assert response.status_code == 200
    assert response.json() == schema
    assert schema["type"] == "object" and top_level_keys(schema) >= PAGE_READS


@pytest.mark.parametrize("name", PLUGINS)
def test_each_games_observations_have_the_shape_it_declares(name: str) -> None:
    """Every seat's and a spectator's observation along a random game, every few moves."""
    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator
    plugin = plugins()[name]
    schema = observation_schema(plugin)
    if schema is None:
        pytest.skip(f"{name} declares no observation TypedDict (GamePlugin.observation)")
    check = validator(schema)
    game = plugin.game()
    players = max(game.min_players, min(3, game.max_players))
    state = game.new_state(players, seed=4)
    rng = Rng(4)
    for step in range(400):
        if step % 7 == 0 or state.is_over():
            for seat in [None, *range(players)]:
                check.validate(state.observation(seat))
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])


def test_an_unknown_game_has_no_schema(client: TestClient) -> None:
    response = client.get("/api/games/senet/observation-schema")
    assert response.status_code == 404 and "senet" in response.json()["error"]


# ---------------------------------------------------------------------- the scripts' reads
OBSERVATION = r"view\.observation"
IDENT = r"[A-Za-z_$][\w$]*"


def observation_reads(script: str) -> set[str]:
    """The top-level observation keys a page script reads.

    The idioms of the games' scripts: ``view.observation.key``, a name bound to it
    (``const obs = view.observation;``, and ``obs`` anywhere, the scripts' name for an
    observation handed down), ``name.key``, ``name?.key``, ``name["key"]`` and destructuring
    (``const { key, other: alias = 1 } = obs``). A spread into a new object
    (``{ ...view.observation, players }``) writes keys, and is not a read.
    """
    aliases = {"obs"}
    aliases |= set(re.findall(rf"\b({IDENT})\s*=\s*{OBSERVATION}\s*(?:[;,)\n]|\|\|)", script))
    sources = "|".join([OBSERVATION, *(rf"\b{re.escape(a)}" for a in sorted(aliases))])
    keys = set(re.findall(rf"(?:{sources})\s*\??\.\s*({IDENT})", script))
    keys |= set(re.findall(rf"(?:{sources})\s*\[\s*[\"'](\w+)[\"']\s*\]", script))
    for fields in re.findall(rf"\{{([^{{}}]*)\}}\s*=\s*(?:{sources})\b(?!\s*\??\.)", script):
        for field in fields.split(","):
            key = field.split(":")[0].split("=")[0].strip()
            if key and not key.startswith("..."):
                keys.add(key)
    return keys


def test_the_reader_finds_every_idiom_and_nothing_else() -> None:
    script = """
      const obs = view.observation;
      const title = `${obs.round} ${obs?.phase_name}`;
      const me = view.observation.players[view.seat];
      const { winner, last_scoring: scores = [], ...rest } = obs;
      function f(o) { return o.not_an_observation; }
      const again = view.observation || {};
      again["order"].map((x) => x.seat);
      const changed = { ...view.observation, made_up: 1 };
      const length = obs.players.length;
    """
    assert observation_reads(script) == {
        "round",
        "phase_name",
        "players",
        "winner",
        "last_scoring",
        "order",
    }


def scripts_with_schema() -> list[tuple[str, Path]]:
    found = []
    for name in PLUGINS:
        page = web_page(name)
        if page is not None and page.static is not None and page.script:
            found.append((name, page.static / page.script))
    return found


@pytest.mark.parametrize(("name", "script"), scripts_with_schema(), ids=lambda v: str(v))
def test_each_games_script_reads_only_keys_its_schema_declares(name: str, script: Path) -> None:
    plugin: GamePlugin = plugins()[name]
    schema = observation_schema(plugin)
    if schema is None:
        pytest.skip(f"{name} declares no observation TypedDict (GamePlugin.observation)")
    reads = observation_reads(script.read_text())
    assert reads, f"no observation read found in {script.name}: the reader has lost its idioms"
    undeclared = reads - top_level_keys(schema)
    assert not undeclared, (
        f"{script.name} reads {sorted(undeclared)}, which {name} does not declare"
    )


def test_the_plain_page_reads_no_particular_key() -> None:
    """plain.js draws any observation, so it may read nothing by name but ``players``
    (the scores of the players' panel, where the observation has them)."""
    assert observation_reads((STATIC / "plain.js").read_text()) <= {"players"}
