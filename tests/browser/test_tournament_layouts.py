"""Every layout of a tournament's page in Chromium (/tournaments/<id>), each tournament
created with the page's form and run to the end by the server (it ticks by itself; the bots
play their games, the player's are played through the API):

- a single elimination of five (byes for the best three), the player in it with a turn
  timer: its rounds side by side, then the semi-finals and the final, the winner named;
- pools of Amun-Re for seven, two rounds: tables of four and three, numbered, and the
  standings without Buchholz;
- a double elimination of Aton for six at a real-time speed: each round split into the
  winners' bracket, the losers' bracket and the grand final;
- a tournament by invitation at a turn-based speed: another account cannot join until its
  creator invites them in the page (an unknown name told as such), then can;
- the report (each player's and each seat's share with its 95% interval) once games are
  over, and not before.

A finished double elimination is photographed for docs/screenshots when KARNAK_SCREENSHOTS
names it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from i18n.pseudo import stray_words

from .test_accessibility import axe_script, report, violations
from .test_leaderboard import shots_dir, signed_up
from .test_tournaments_page import create_in_page, play_to_the_end

FINISHED = "#status[data-status=finished]"
PERCENT = r"\d{1,3}\s?%"
DASH = "\u2013"  # an en dash: between an interval's ends, and for a row without games
INTERVAL = re.compile(rf"^{PERCENT} {DASH} {PERCENT}$")


def wait_finished(page: Any) -> None:
    """The page showing the tournament over (its bots play everything; the server ticks
    every few seconds and the page asks every five); otherwise the failure says where it
    stood, as the server tells it."""
    try:
        page.wait_for_selector(f"{FINISHED}, #status[data-status=cancelled]", timeout=240_000)
    except Exception as error:
        where = page.evaluate("fetch('/api' + location.pathname).then((r) => r.text())")
        raise AssertionError(f"the tournament did not end: {where}") from error
    assert page.get_attribute("#status", "data-status") == "finished", page.inner_text("main")


def games_of(page: Any, round_: int, selector: str = "li") -> Any:
    return page.locator(f"#schedule .round[data-round='{round_}'] {selector}")


def check_report(page: Any, players: int, seats: int) -> None:
    """The report's two tables: a row per player and per seat, shares as percentages,
    intervals as "48% {DASH} 91%"."""
    page.wait_for_selector("#report-panel:not([hidden])")
    assert page.inner_text("#report-note")
    assert page.locator("#report-players tbody tr").count() == players
    assert page.locator("#report-seats tbody tr").count() == seats
    heads = page.locator("#report-players thead th").all_inner_texts()
    assert heads[:5] == ["Player", "Games", "Score", "Share", "95% interval"], heads
    seat_names = page.locator("#report-seats tbody th").all_inner_texts()
    assert seat_names == [f"Seat {n}" for n in range(1, seats + 1)]
    for table in ("#report-players", "#report-seats"):
        for cell in page.locator(f"{table} td.interval").all_inner_texts():
            assert cell == DASH or INTERVAL.match(cell), cell
        for cell in page.locator(f"{table} td.share").all_inner_texts():
            assert cell == DASH or re.fullmatch(PERCENT, cell), cell
    seats_intervals = page.locator("#report-seats td.interval").all_inner_texts()
    assert all(INTERVAL.match(cell) for cell in seats_intervals)  # every seat played


def test_a_single_elimination_of_five_shows_its_byes_and_rounds_to_the_final(
    browser: Any, tournament_server: str
) -> None:
    server_url = tournament_server
    page = signed_up(browser, server_url, "Thutmose")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url + "/tournaments")
    page.wait_for_selector("#create-panel:not([hidden])")
    # the formats each game allows: Egyptia (one to 99 seats) every one
    for game, allowed in (
        ("aton", ["swiss", "elimination", "double"]),
        ("amunre", ["pools"]),
        ("egyptia", ["swiss", "elimination", "double", "pools"]),
    ):
        page.select_option("#t-game", game)
        formats = page.eval_on_selector_all("#t-format option", "os => os.map(o => o.value)")
        assert formats == allowed, game
    page.select_option("#t-format", "double")
    assert page.is_hidden("#rounds-line")
    # the pace: no clock, a turn timer (its seconds asked only then), the server's speeds
    assert page.is_hidden("#timer-line")
    page.select_option("#t-pace", "timer")
    assert page.is_visible("#t-timer")
    groups = page.eval_on_selector_all("#t-pace optgroup", "gs => gs.map(g => g.dataset.kind)")
    assert groups == ["real-time", "turn-based"]
    speeds = page.eval_on_selector_all("#t-pace optgroup option", "os => os.map(o => o.value)")
    assert "speed:normal" in speeds and "speed:24h" in speeds

    tournament_id = create_in_page(
        page, server_url, "Knockout", format="elimination", players="5", pace="timer", timer="120"
    )
    facts = page.inner_text("#facts")
    assert "Elimination" in facts and "turn timer: 2 min a decision" in facts
    assert "open to all" in facts and "rounds" not in facts
    page.click("#join")
    page.wait_for_selector("#leave:not([hidden])")
    assert page.is_hidden("#report-panel")  # no game is over yet
    page.click("#start")
    page.wait_for_selector("#status[data-status=running]")
    page.wait_for_selector(".round[data-round='1'] li:nth-child(4)")
    assert games_of(page, 1, "li.bye").count() == 3  # five in a bracket of eight
    assert page.is_hidden("#report-panel")

    play_to_the_end(server_url, page, tournament_id)
    wait_finished(page)
    assert page.locator("#schedule .bracket > .round").count() == 3
    headings = page.locator("#schedule .round > h3").all_inner_texts()
    assert headings == ["Round 1", "Semi-finals", "Final"]
    assert [games_of(page, n).count() for n in (1, 2, 3)] == [4, 2, 1]
    assert games_of(page, 1, "li.bye").first.inner_text().endswith(": bye")
    champion = page.locator("#standings tbody tr").first.locator("th").inner_text()
    assert page.inner_text("#winner") == f"Winner: {champion}"
    assert games_of(page, 3, ".winner").inner_text() == champion
    assert page.locator("#standings thead th").count() == 3  # no Buchholz in a knockout
    assert "null" not in page.inner_text("#standings")
    check_report(page, players=5, seats=2)
    assert not errors, errors


def test_pools_of_amunre_show_their_tables_and_standings(
    browser: Any, tournament_server: str
) -> None:
    server_url = tournament_server
    page = signed_up(browser, server_url, "Ramses")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    create_in_page(
        page, server_url, "Pools of the Nile", game="amunre", format="pools", rounds="2",
        players="7",
    )  # fmt: skip
    assert "Pools" in page.inner_text("#facts") and "no clock" in page.inner_text("#facts")
    page.click("#start")
    wait_finished(page)
    for number in (1, 2):
        tables = games_of(page, number)
        sizes = tables.evaluate_all("ls => ls.map(l => Number(l.dataset.seats))")
        assert sorted(sizes) == [3, 4]
        labels = games_of(page, number, ".table-label").all_inner_texts()
        assert labels == ["Table 1:", "Table 2:"]
        assert games_of(page, number, "a.game-link").count() == 2
    assert page.locator("#standings tbody tr").count() == 7
    assert page.locator("#standings thead th").all_inner_texts() == ["#", "Player", "Points"]
    assert page.inner_text("#winner").startswith("Winner: ")
    check_report(page, players=7, seats=4)
    assert not errors, errors


def test_a_double_elimination_of_aton_shows_both_brackets_and_the_grand_final(
    browser: Any, tournament_server: str, tmp_path: Path
) -> None:
    server_url = tournament_server
    script = axe_script()
    page = signed_up(browser, server_url, "Khufu")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    create_in_page(
        page, server_url, "Second chance cup", format="double", players="6", pace="speed:normal"
    )
    facts = page.inner_text("#facts")
    assert "Double elimination" in facts and "real-time: 2 min a move" in facts
    page.click("#start")
    wait_finished(page)
    rounds = page.locator("#schedule .bracket > .round")
    assert rounds.count() >= 5
    kinds = "gs => gs.map(g => g.dataset.bracket)"
    assert games_of(page, 1, ".bracket-group").evaluate_all(kinds) == ["winners"]
    brackets = page.eval_on_selector_all("#schedule .bracket-group", kinds)
    assert {"winners", "losers", "final"} <= set(brackets)
    assert brackets[-1] == "final"
    group_headings = set(page.locator("#schedule .bracket-group > h4").all_inner_texts())
    assert {"Winners' bracket", "Losers' bracket", "Grand final"} <= group_headings
    last = rounds.last.get_attribute("data-round")
    final = page.locator(f".round[data-round='{last}'] .bracket-group[data-bracket=final] li")
    assert final.count() == 1
    champion = page.locator("#standings tbody tr").first.locator("th").inner_text()
    assert page.inner_text("#winner") == f"Winner: {champion}"
    assert final.locator(".winner").inner_text() == champion
    # every game is in its bracket's group, a bye too
    assert page.locator("#schedule li:not([data-bracket])").count() == 0
    check_report(page, players=6, seats=2)
    found = {"finished double elimination": violations(page, script)}
    page.set_viewport_size({"width": 1100, "height": 900})
    page.screenshot(path=str(shots_dir(tmp_path) / "tournament-double.png"), full_page=True)
    assert not any(found.values()), report(found)

    # every word of the brackets, the report and the pace goes through the catalogue (the
    # pseudo-locale brackets each): the players' names and the game's are not the site's
    page.goto(page.url + "?lang=xx")
    page.wait_for_selector(FINISHED)
    page.wait_for_selector("#report-panel:not([hidden])")
    names = page.locator("#players li, #title").all_inner_texts()
    extra = frozenset(word for text in names for word in text.split())
    assert not stray_words(page.inner_text("main") + " " + page.title(), extra)
    assert not errors, errors


def test_only_the_invited_join_a_tournament_by_invitation(
    browser: Any, tournament_server: str
) -> None:
    server_url = tournament_server
    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}
    errors: list[str] = []
    creator = signed_up(browser, server_url, "Ahmose")
    creator.on("pageerror", lambda exc: errors.append(str(exc)))
    tournament_id = create_in_page(
        creator, server_url, "Family cup", players="4", bots="", pace="speed:24h", invite=True
    )
    facts = creator.inner_text("#facts")
    assert "by invitation" in facts and "turn-based: 1 day a move, then a bank of 3 days" in facts
    creator.wait_for_selector("#invite-panel:not([hidden])")
    assert creator.inner_text("#invited") == "Nobody is invited yet."
    assert creator.is_visible("#join")  # its creator may play in it

    guest_of_nobody = signed_up(browser, server_url, "Tiye")
    guest_of_nobody.on("pageerror", lambda exc: errors.append(str(exc)))
    address = f"{server_url}/tournaments/{tournament_id}"
    guest_of_nobody.goto(address)
    guest_of_nobody.wait_for_selector("#join-note:not([hidden])")
    assert guest_of_nobody.is_hidden("#join") and guest_of_nobody.is_hidden("#invite-panel")
    assert "only the players its creator invites" in guest_of_nobody.inner_text("#join-note")
    found["not invited"] = violations(guest_of_nobody, script)

    # the list marks it
    guest_of_nobody.goto(server_url + "/tournaments")
    guest_of_nobody.wait_for_selector("#list tbody tr .invite-mark")
    assert guest_of_nobody.inner_text("#list tbody tr .invite-mark") == "(by invitation)"

    # nothing typed: told at once; then a name of nobody's, one twice, and a real one
    creator.click("#invite")
    creator.wait_for_selector("#invite-error:not(:empty)")
    creator.fill("#invite-names", "Nobody Here,\ntiye\nTiye")
    creator.focus("#invite")  # by keyboard
    creator.keyboard.press("Enter")
    creator.wait_for_selector("#invite-result .invited-now")
    assert creator.inner_text("#invite-error") == ""
    assert creator.inner_text("#invite-result .invited-now") == "Invited: Tiye."
    assert creator.inner_text("#invite-result .unknown-names") == (
        "No account has these names: Nobody Here."
    )
    assert creator.input_value("#invite-names") == "Nobody Here"  # left to correct
    creator.wait_for_selector("#invited li >> text=Tiye")
    creator.fill("#invite-names", "Tiye")
    creator.click("#invite")
    creator.wait_for_selector("#invite-result .invited-before")
    assert creator.inner_text("#invite-result") == "Invited already: Tiye."
    found["invitations"] = violations(creator, script)

    guest_of_nobody.goto(address)
    guest_of_nobody.wait_for_selector("#join:not([hidden])")
    assert "You are invited" in guest_of_nobody.inner_text("#join-note")
    guest_of_nobody.click("#join")
    guest_of_nobody.wait_for_selector("#leave:not([hidden])")
    guest_of_nobody.wait_for_selector("#players li >> text=Tiye")
    assert guest_of_nobody.is_hidden("#join-note")

    assert not any(found.values()), report(found)
    assert not errors, errors
