"""Honest departures (issue 33): the person a bot replaced is told why on their page; the
result's standing ranks as the ratings do; the timer's note is a sentence for its reader;
none of it depends on anything hidden."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.i18n import use_language
from karnak.server.rooms import Departure, Room
from karnak.server.timebank.abandonment import rated_places
from karnak.server.timebank.views import standing, timeouts_note
from support.amunre_hidden import redeal_hidden

from .conftest import create, humans
from .test_abandonment import leave, service
from .test_accounts import csrf, sign_up
from .test_api import play_random, view


def claimed_game(client: TestClient, seed: int = 5) -> tuple[str, list[str], int]:
    """Amun-Re for three; the logged-in account holds a seat that is not to move."""
    sign_up(client, "Ana")
    created = create(client, humans(3), seed=seed)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    seat = next(s for s in range(3) if s not in view(client, game_id)["to_move"])
    claimed = client.post(
        f"/api/games/{game_id}/claim", params={"token": tokens[seat]}, headers=csrf(client)
    )
    assert claimed.status_code == 200, claimed.text
    return game_id, tokens, seat


def test_the_account_that_left_is_told_why_and_nobody_else(client: TestClient) -> None:
    game_id, tokens, seat = claimed_game(client)
    assert "you_departed" not in view(client, game_id)  # its seat, live
    assert leave(client, game_id, None, **csrf(client)).status_code == 200
    mine = view(client, game_id)  # by the session: a spectator's view, and why
    note = mine.pop("you_departed")
    assert note["seat"] == seat and note["reason"] == "left" and note["at_move"] >= 0
    assert "a bot plays your seat" in note["text"]
    client.cookies.clear()
    assert mine == view(client, game_id)  # otherwise exactly what a spectator sees
    for other in range(3):
        if other != seat:
            assert "you_departed" not in view(client, game_id, tokens[other])


def test_the_departure_note_is_translated(client: TestClient) -> None:
    game_id, _, _ = claimed_game(client)
    assert leave(client, game_id, None, **csrf(client)).status_code == 200
    pseudo = client.get(f"/api/games/{game_id}", params={"lang": "xx"}).json()
    assert pseudo["you_departed"]["text"].startswith("⟦")  # translated (the pseudo-locale)


def test_the_departure_note_ignores_hidden_facts(client: TestClient) -> None:
    game_id, _, _ = claimed_game(client, seed=8)
    assert leave(client, game_id, None, **csrf(client)).status_code == 200
    room = service(client).rooms[game_id]
    truth = room.state
    assert isinstance(truth, AmunReState)
    shown = view(client, game_id)["you_departed"]
    for k in range(3):
        room.state = redeal_hidden(truth, None, Rng(70 + k))
        service(client)._positions.pop(game_id, None)
        assert view(client, game_id)["you_departed"] == shown
    room.state = truth


def test_the_standing_ranks_those_who_left_last_as_the_ratings_do(client: TestClient) -> None:
    created = create(client, humans(3), seed=6)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    play_random(client, game_id, tokens, 5000)
    room = service(client).rooms[game_id]
    finished = view(client, game_id)
    assert finished["status"] == "finished"
    # the best scorer is marked as having left: it ranks last, played by a bot
    best = min(range(3), key=lambda s: (finished["result"]["ranks"][s], s))
    room.seats[best] = room.seats[best].__class__(
        **{**room.seats[best].__dict__, "left": Departure("timeout", 3, 3)}
    )
    result = {**finished["result"], "left": [best]}
    ranked = standing(room, result)
    places = rated_places(result)
    assert [entry["seat"] for entry in ranked][-1] == best
    assert all(entry["place"] == places[entry["seat"]] for entry in ranked)
    gone = next(entry for entry in ranked if entry["seat"] == best)
    assert gone["left"] == "timeout" and gone["played_by_bot"] and gone["place"] == 3
    assert ranked[0]["place"] == 1 and not ranked[0]["played_by_bot"]
    # the view carries it
    service(client)._positions.pop(game_id, None)
    shown = view(client, game_id)["standing"]
    assert [entry["seat"] for entry in shown] == [entry["seat"] for entry in ranked]


def test_a_solo_standing_has_one_entry(client: TestClient) -> None:
    created = create(client, [{"name": "Ana"}], game="egyptia", seed=2)
    game_id = created["id"]
    play_random(client, game_id, [created["seats"][0]["token"]], 5000)
    finished = view(client, game_id)
    assert finished["status"] == "finished"
    [only] = finished["standing"]
    assert only["seat"] == 0 and only["place"] == 1 and not only["played_by_bot"]
    assert only["score"] == finished["result"]["scores"][0]


def fake_room(names: list[str]) -> Any:
    class Seat:
        def __init__(self, seat: int, name: str) -> None:
            self.seat, self.name = seat, name

    class Fake:
        seats = [Seat(i, n) for i, n in enumerate(names)]

    return Fake()


def test_the_timer_note_reads_as_a_sentence_for_its_reader() -> None:
    room: Room = fake_room(["Red", "Blue"])
    once = [{"seat": 0, "number": 4}]
    assert timeouts_note(room, 0, once) == "Your time ran out once; the server played your move."
    assert timeouts_note(room, 1, once) == (
        "The timer ran out once, for Red; the server played the move."
    )
    assert timeouts_note(room, None, once).startswith("The timer ran out once, for Red")
    thrice = [{"seat": 0, "number": 2}, {"seat": 1, "number": 5}, {"seat": 0, "number": 9}]
    assert timeouts_note(room, 0, thrice) == (
        "Your time ran out 2 times; the server played your moves."
    )
    assert timeouts_note(room, 1, thrice) == (
        "The timer ran out 3 times, last for Red; the server played those moves."
    )
    assert timeouts_note(room, 1, []) == ""
    with use_language("xx"):
        assert timeouts_note(room, 0, once).startswith("⟦")
