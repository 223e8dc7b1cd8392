"""Profiles: finished games played and won per game, the rating with its history, the recent
finished games with their results; public facts only. Neither a profile nor a leaderboard
nor a game's rating changes may tell anything a running game hides: not a private step,
not a re-dealt hand, not even that a game is under way."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from karnak.core import Rng, available_games
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.server.service import GameService
from support.amunre_hidden import redeal_hidden
from support.egyptia_positions import THREE_IN_GRAIN, roll, set_have

from .test_public_channels import post
from .test_ratings import TWO_AND_A_BOT, finish, new_game, settle, sign_up


def profile(client: TestClient, name: str) -> dict[str, Any]:
    response = client.get(f"/api/players/{name}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def per_game(found: dict[str, Any], game: str) -> dict[str, Any]:
    return next(g for g in found["games"] if g["game"] == game)


def test_a_profile_counts_finished_games_and_lists_them(client: TestClient) -> None:
    ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
    rated, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes}, seed=3)
    finish(client, rated, tokens)
    guest_game, guest_tokens = new_game(client, TWO_AND_A_BOT, {0: ana}, seed=4)  # Bes a guest
    finish(client, guest_game, guest_tokens, seed=2)
    running, _ = new_game(client, [{"name": "Ana"}, {"name": "Bes"}], {0: ana, 1: bes}, "aton")
    settle(client)
    found = profile(client, "ana")  # a name is one account whatever its case
    assert found["name"] == "Ana"
    assert [g["game"] for g in found["games"]] == available_games()
    egyptia = per_game(found, "egyptia")
    results = [client.get(f"/api/games/{g}").json()["result"] for g in (rated, guest_game)]
    assert egyptia["played"] == 2
    assert egyptia["wins"] == sum(0 in r["winners"] for r in results)
    assert egyptia["rating"]["games"] == 1 and len(egyptia["history"]) == 1
    aton = per_game(found, "aton")  # the running game is neither counted nor listed
    assert aton == {
        "game": "aton",
        "title": "Aton",
        "played": 0,
        "wins": 0,
        "rating": None,
        "history": [],
    }
    recent = found["recent"]
    assert [g["id"] for g in recent] == [guest_game, rated]  # newest first
    assert running not in str(found)
    first = recent[1]
    assert first["seat"] == 0 and first["rank"] == results[0]["ranks"][0]
    assert first["score"] == results[0]["scores"][0] and first["won"] == (
        0 in results[0]["winners"]
    )
    assert (
        first["rating_change"]
        == client.get(f"/api/games/{rated}/ratings").json()["seats"][0]["change"]
    )
    assert recent[0]["rating_change"] is None  # not rated: a guest played
    assert [(p["name"], p["account"], p["kind"], p["bot"]) for p in first["players"][:2]] == [
        ("Ana", "Ana", "human", None),
        ("Bes", "Bes", "human", None),
    ]
    assert first["players"][2]["kind"] == "bot" and first["players"][2]["bot"] == "random"
    assert [p["account"] for p in recent[0]["players"]] == ["Ana", None, None]


def test_the_pages_are_served(client: TestClient) -> None:
    for path, script in (("/players/Ana", "profile.js"), ("/leaderboard/aton", "leaderboard.js")):
        page = client.get(path)
        assert page.status_code == 200 and f'src="/static/{script}"' in page.text
        assert "<script>" not in page.text  # no inline script (the CSP forbids it)
    assert 'id="friends-panel" hidden' in client.get("/players/Ana").text
    for asset in ("profile.js", "profile.css", "leaderboard.js", "rating-change.js"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert "leaderboard" in client.get("/static/lobby_cards.js").text  # each game's card


def public_texts(client: TestClient, game_id: str, names: list[str]) -> list[str]:
    """Everything a stranger can fetch from this module's channels."""
    texts = [client.get(f"/api/players/{name}").text for name in names]
    texts += [client.get(f"/api/leaderboard/{game}").text for game in ("amunre", "egyptia")]
    texts.append(client.get(f"/api/games/{game_id}/ratings").text)
    texts += [client.get(f"/players/{names[0]}").text, client.get("/leaderboard/egyptia").text]
    return texts


def test_private_steps_change_no_profile_or_leaderboard(client: TestClient) -> None:
    names = ["Ana", "Bes", "Ka"]
    accounts = {seat: sign_up(client, name) for seat, name in enumerate(names)}
    earlier, tokens = new_game(client, [{"name": n} for n in names], accounts, seed=5)
    finish(client, earlier, tokens)  # so that the profiles have ratings and history
    game_id, tokens = new_game(client, [{"name": n} for n in names], accounts, seed=8)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, THREE_IN_GRAIN)
    for seat in range(3):
        set_have(state, seat, (3, 3, 3, 2))
    room.state = state
    for seat, column in ((0, "diamond"), (2, "diamond"), (1, "grain")):
        post(client, game_id, str(tokens[seat]), f"choose {column}")
    settle(client)
    before = public_texts(client, game_id, names)
    steps = 0
    post(client, game_id, str(tokens[1]), "ship 1")
    for _ in range(8):  # Bes's round: plague, payments, building, reward
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[1]}).json()
        legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
        after = post(client, game_id, str(tokens[1]), legal[-1])
        settle(client)
        if after["observation"]["you"]["stage"] == "done":
            break
        steps += 1
        assert public_texts(client, game_id, names) == before, f"after Bes's step {steps}"
    assert steps >= 2
    # the game's end is public: then the profiles change (the comparison can see it)
    finish(client, game_id, tokens)
    settle(client)
    after_end = public_texts(client, game_id, names)
    assert after_end[0] != before[0] and after_end[4] != before[4]


def test_re_dealt_hidden_information_changes_no_profile(client: TestClient) -> None:
    names = ["Ana", "Bes", "Ka"]
    accounts = {seat: sign_up(client, name) for seat, name in enumerate(names)}
    earlier, tokens = new_game(client, [{"name": n} for n in names], accounts, "amunre", seed=2)
    finish(client, earlier, tokens)
    game_id, tokens = new_game(client, [{"name": n} for n in names], accounts, "amunre", seed=21)
    settle(client)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    truth = room.state
    assert isinstance(truth, AmunReState)
    before = public_texts(client, game_id, names)
    for seat in [*range(3), None]:
        for k in range(3):
            room.state = redeal_hidden(truth, seat, Rng(10 * k + (seat or 0)))
            assert public_texts(client, game_id, names) == before
    room.state = truth
