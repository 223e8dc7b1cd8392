"""Open tables in Chromium: Ana (an account) creates a table with two open seats from the
lobby; a guest joins it under a name from another browser, Bes with his account from a
third; the last join starts the game and every page goes to its seat; they play, and Ana's
page /me lists the game waiting for her first. A logged-in person makes a guest seat theirs
from the game page, and a finished game's Rematch button opens the new table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx2 as httpx

from karnak.core import Rng

from .test_leaderboard import api, finish, shots_dir, signed_up

GAME_URL = re.compile(r".*/games/[A-Za-z0-9_-]+(\?token=.+)?$")


def table_of(page: Any) -> str:
    page.wait_for_url(re.compile(r".*/tables/[A-Za-z0-9_-]+$"))
    return str(page.url.rsplit("/", 1)[1])


def play_until_seat_waits(
    server_url: str, game_id: str, seat: int, sessions: dict[int, Any], token: str
) -> int:
    """Random legal moves until ``seat`` is to move (at least 3 moves): the accounts' seats
    by their pages' sessions, the guest's by its link."""
    rng = Rng(5)
    for moves in range(200):
        public = httpx.get(f"{server_url}/api/games/{game_id}").json()
        if moves >= 3 and seat in public["to_move"]:
            return moves
        mover = public["to_move"][0]
        page = sessions.get(mover)
        path = f"/api/games/{game_id}" + ("" if page else f"?token={token}")
        if page is not None:
            mine = api(page, "GET", path)["body"]
        else:
            mine = httpx.get(server_url + path).json()
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        move = {"version": mine["version"], "action": choice["action"]}
        if page is not None:
            answer = api(page, "POST", f"/api/games/{game_id}/actions", move)
            assert answer["status"] == 200, answer
        else:
            posted = httpx.post(
                f"{server_url}/api/games/{game_id}/actions?token={token}", json=move
            )
            assert posted.status_code == 200, posted.text
    raise AssertionError("the seat never came to move")


def test_a_table_from_the_lobby_filled_by_a_guest_and_an_account(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    ana = signed_up(browser, server_url, "Ana")
    ana.goto(server_url + "/")
    ana.click("#more-options summary")  # the full form is folded (issue 33)
    ana.select_option("#game", "amunre")
    ana.select_option("#players", "3")
    for seat in (1, 2):
        ana.select_option(f'.seat-row[data-seat="{seat}"] .kind', "open")
    ana.click("#create")
    table_id = table_of(ana)
    ana.wait_for_selector("#table-title")
    assert "a table of 3" in ana.inner_text("#table-title")
    assert "Ana" in ana.inner_text("#table-body") and "(you)" in ana.inner_text("#table-body")

    guest = browser.new_page(viewport={"width": 1300, "height": 900})
    guest.goto(server_url + "/")
    item = f'.table-item[data-table="{table_id}"]'
    guest.wait_for_selector(item)
    assert "1: Ana" in guest.inner_text(item) and "2: open" in guest.inner_text(item)
    guest.fill(f"{item} .guest-name", "Ana")  # an account's name: refused, said why
    guest.click(f"{item} .table-join")
    guest.wait_for_function(
        "() => document.querySelector('.table-item .error')?.textContent.includes('account')"
    )
    guest.fill(f"{item} .guest-name", "Nut")
    guest.click(f"{item} .table-join")
    guest.wait_for_function(
        "() => document.querySelector('#table-body')?.textContent.includes('Nut (guest) (you)')"
    )

    bes = signed_up(browser, server_url, "Bes")
    bes.goto(server_url + "/")
    bes.wait_for_selector(f'{item} .table-join:has-text("Join as Bes")')
    assert "2: Nut (guest)" in bes.inner_text(item)
    bes.screenshot(path=str(shots_dir(tmp_path) / "open-tables.png"))
    bes.click(f"{item} .table-join")

    # the last seat taken starts the game: every page goes to its own seat
    for page, name in ((bes, "Bes"), (ana, "Ana"), (guest, "Nut")):
        page.wait_for_url(GAME_URL, timeout=15000)
        page.wait_for_function(
            f"() => document.querySelector('#status')?.textContent.includes('you: {name}')"
        )
    assert "?token=" in guest.url and "?token=" not in ana.url + bes.url
    game_id = ana.url.rsplit("/", 1)[1]
    assert httpx.get(f"{server_url}/api/tables").json() == []  # it left the list

    # they play (the accounts' seats by their sessions, the guest by the link)
    started = api(ana, "GET", f"/api/tables/{table_id}")
    assert started["body"]["game_id"] == game_id
    token = guest.url.split("token=", 1)[1]
    assert play_until_seat_waits(server_url, game_id, 0, {0: ana, 2: bes}, token) >= 3

    # another game of Ana's, where she has laid out her cards: it waits for Ka, not for her
    other = api(
        ana, "POST", "/api/games", {"game": "aton", "seats": [{"mine": True}, {"name": "Ka"}]}
    )
    assert other["status"] == 201, other
    other_id = other["body"]["id"]
    mine = api(ana, "GET", f"/api/games/{other_id}")["body"]
    lay_out = next(m["action"] for m in mine["legal"] if m["text"] != "exchange")
    laid = api(
        ana,
        "POST",
        f"/api/games/{other_id}/actions",
        {"version": mine["version"], "action": lay_out},
    )
    assert laid["status"] == 200, laid
    ana.goto(server_url + "/me")
    ana.wait_for_selector(f'#waiting .my-game[data-game="{game_id}"]')
    assert "your turn" in ana.inner_text("#waiting")
    ana.wait_for_selector(f'#running .my-game[data-game="{other_id}"]')
    assert ana.eval_on_selector_all("#waiting .my-game", "(l) => l.length") == 1
    ana.wait_for_selector('#notifications .notification[data-kind="table"]')
    ana.screenshot(path=str(shots_dir(tmp_path) / "my-games.png"), full_page=True)
    ana.click(f'#waiting .my-game[data-game="{game_id}"] a')  # one click, no link needed
    ana.wait_for_function(
        "() => document.querySelector('#status')?.textContent.includes('you: Ana')"
    )


def test_claim_a_guest_seat_and_ask_for_a_rematch(browser: Any, server_url: str) -> None:
    seats = [{"name": "Ana"}, {"name": "Bes"}]
    created = httpx.post(
        server_url + "/api/games", json={"game": "egyptia", "seats": seats, "seed": 3}
    ).json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    ana = signed_up(browser, server_url, "Ana")
    ana.goto(f"{server_url}/games/{game_id}?token={tokens[0]}")
    ana.wait_for_selector("#claim-seat")
    ana.click("#claim-seat")
    ana.wait_for_function(
        "() => document.querySelector('#claim-bar')?.textContent.includes(\"Ana's now\")"
    )
    held = httpx.get(f"{server_url}/api/games/{game_id}").json()["players"]
    assert [p["held"] for p in held] == [True, False]
    ana.reload()
    ana.wait_for_function(
        "() => document.querySelector('#status')?.textContent.includes('you: Ana')"
    )
    assert ana.query_selector("#claim-bar") is None  # held: nothing to offer
    finish(server_url, game_id, tokens, 2)
    ana.goto(f"{server_url}/games/{game_id}")  # the session opens the seat
    ana.wait_for_selector("#rematch")
    ana.click("#rematch")
    table_id = table_of(ana)
    ana.wait_for_function(
        "() => document.querySelector('#table-title')?.textContent.includes('a rematch')"
    )
    body = ana.inner_text("#table-body")
    assert "Ana (you)" in body and "open" in body
    answer = httpx.get(f"{server_url}/api/tables/{table_id}").json()
    assert answer["rematch_of"] == game_id
    assert [s["name"] for s in answer["seats"]] == [None, "Ana"]


def test_the_creator_invites_a_friend_offered_first(browser: Any, server_url: str) -> None:
    """Friends are who an invitation goes to first: the table's invite field suggests them
    (any account's name still works), and the friend is told."""
    ana, bes = signed_up(browser, server_url, "Ana"), signed_up(browser, server_url, "Bes")
    signed_up(browser, server_url, "Ka")  # an account, but not Ana's friend
    asked = api(ana, "POST", "/api/friends/requests", {"name": "Bes"})
    assert asked["status"] == 201, asked
    ana_id = api(ana, "GET", "/api/account")["body"]["account"]["id"]
    assert api(bes, "POST", f"/api/friends/{ana_id}/accept")["status"] == 200
    ana.goto(server_url + "/")
    ana.wait_for_selector("#game option[value='aton']", state="attached")
    ana.click("#more-options summary")  # the full form is folded (issue 33)
    ana.select_option("#game", "aton")
    ana.select_option('.seat-row[data-seat="1"] .kind', "open")
    ana.click("#create")
    table_id = table_of(ana)
    ana.wait_for_selector(".invite-name")
    assert ana.get_attribute(".invite-name", "list") == "invite-friends"
    offered = ana.eval_on_selector_all("#invite-friends option", "(o) => o.map((x) => x.value)")
    assert offered == ["Bes"]
    ana.fill(".invite-name", "Bes")
    ana.click("button.invite")
    ana.wait_for_function(
        "() => document.querySelector('#table-body')?.textContent.includes('kept for Bes')"
    )
    notes = api(bes, "GET", "/api/notifications")["body"]["notifications"]
    assert any(n["kind"] == "invitation" and table_id in (n["link"] or "") for n in notes)
