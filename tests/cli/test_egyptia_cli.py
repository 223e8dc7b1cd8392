"""The terminal commands for Egyptia: simulate, replay, board, arena and play (alone, against
bots, with several people at one terminal, with a hundred builders), and their refusals.

Egyptia's rounds are simultaneous and sealed: every builder chooses a column unseen, and
what a builder does after the reveal is shown to the others when the round ends. The tests
of hidden information play the same deal twice against bots that differ only in a hidden
choice and compare what the person was shown.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from karnak.bots import available_bots, make_bot
from karnak.bots import base as bot_base
from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.cli.main import app
from karnak.cli.play import DEFAULT_OPPONENT, DEFAULT_THINK
from karnak.cli.simulate import play_one
from karnak.core import Game, GameRecord, Rng, get_game, replay
from karnak.core.actions import Action
from karnak.games.egyptia import GAME
from karnak.games.egyptia.rules.actions import Build, Choose, Gain, UseShip
from karnak.games.egyptia.rules.pharaoh import card_parts
from karnak.games.egyptia.rules.sheet import DEFAULT_SHEET
from karnak.games.egyptia.rules.state import CODES, EgyptiaState
from karnak.games.egyptia.terminal import EgyptiaRenderer, draw_map

runner = CliRunner(env={"COLUMNS": "150", "LINES": "400"})  # every move with its hint

PLAY = ["play", "egyptia", "--full", "--opponents", "random", "--full"]  # the whole table each time
CARDS = "A2,B2,C3,D2,E3"


def sheet_text() -> str:
    return DEFAULT_SHEET.read_text(encoding="utf-8")


def saved_path(output: str) -> Path:
    match = re.search(r"saved in (\S+?\.json)", output)
    assert match, output[-2000:]
    return Path(match.group(1))


def ones(count: int = 400) -> str:
    return "1\n" * count


def prompts(output: str, name: str = "Builder 1") -> int:
    return output.count(f"{name} >")


@pytest.fixture()
def play_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner(env={"COLUMNS": "150", "LINES": "400"})  # every move with its hint


# ---------------------------------------------------------------------- a careful plan
def _cards_after(state: EgyptiaState, seat: int, building: str, label: str) -> int:
    city = list(state.city[seat])
    city[state.sheet.by_label[label]] = CODES[building]
    return sum(sum(card_parts(state.sheet, state.sheet.card(c), city)) for c in state.cards)


def careful(state: EgyptiaState, seat: int) -> Action:
    """A plan that keeps off the red dots (so the maps fill up) and builds for the cards."""
    sheet = state.sheet
    legal = [a for a in state.legal_actions(seat) if not isinstance(a, UseShip)]

    def safe(bundle: tuple[int, ...]) -> bool:
        return all(
            state.circled[seat][i] + bundle[i] <= sheet.dots[i] - sheet.red[i] for i in range(4)
        )

    first = legal[0]
    if isinstance(first, Choose):
        best: tuple[tuple[bool, int], Action] | None = None
        for action in legal:
            assert isinstance(action, Choose)
            size = state.column_size(action.column)
            bundle = [0, 0, 0, 0]
            bundle[action.column] = size + state.modifier(seat, action.column)
            if safe(tuple(bundle)):
                key = (size < 3, size)
                if best is None or key > best[0]:
                    best = (key, action)
        return best[1] if best is not None else first
    if isinstance(first, Gain):
        return next((a for a in legal if isinstance(a, Gain) and safe(a.bundle)), first)
    if isinstance(first, Build):
        builds = [a for a in legal if isinstance(a, Build)]
        return max(
            builds,
            key=lambda a: (
                _cards_after(state, seat, a.building, a.hex),
                a.building != "mound",
                -builds.index(a),
            ),
        )
    return first


def planned_solo_game(seed: int) -> tuple[EgyptiaState, list[str]]:
    """The careful plan played alone, and the answers that type it: move texts and move
    numbers in turn (the numbers of the list the terminal shows)."""
    state = GAME.new_state(1, seed=seed, options={"cards": CARDS})
    answers = []
    while not state.is_over():
        legal = state.legal_actions(0)
        action = careful(state, 0)
        answers.append(action.to_text() if len(answers) % 2 else str(legal.index(action) + 1))
        state.apply(0, action)
    return state, answers


# ---------------------------------------------------------------------- simulate and replay
def test_simulate_plays_solo_by_default_and_writes_records(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "egyptia", "-n", "3", "--seed", "4", "--record", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Egyptia: 3 game(s), 1 player (solo)" in out
    assert "Builder 1" in out
    assert re.search(r"Solo builder status: (Apprentice|Standard|Skilled|Master|Legendary) \d", out)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "egyptia-4.json",
        "egyptia-5.json",
        "egyptia-6.json",
    ]
    bot = make_bot("random", GAME)
    for seed in (4, 5, 6):
        record = GameRecord.load(tmp_path / f"egyptia-{seed}.json")
        assert record.game == "egyptia" and record.seats == ["Builder 1"]
        assert record.result is not None
        state = replay(record)
        assert state.is_over() and state.scores() == record.result["scores"]
        played = play_one(GAME, seed, ["Builder 1"], [bot], {})
        assert state.to_json() == played.to_json()


def test_simulate_many_builders_is_deterministic() -> None:
    args = ["simulate", "egyptia", "-p", "5", "-n", "2", "--seed", "9", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    games = [json.loads(line) for line in first.stdout.splitlines()]
    assert [g["seed"] for g in games] == [9, 10]
    for g in games:
        assert len(g["scores"]) == 5 and g["actions"] > 0
        assert "status" not in g  # a solo status only for one builder
    assert runner.invoke(app, args).stdout == first.stdout
    solo = runner.invoke(app, ["simulate", "egyptia", "-n", "1", "--json"])
    assert json.loads(solo.stdout)["status"] in ("Apprentice", "Standard", "Skilled")


def test_simulate_with_chosen_cards(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "egyptia",
            "-p",
            "2",
            "-n",
            "2",
            "--cards",
            "a1, e2",
            "--record",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    for path in tmp_path.iterdir():
        record = GameRecord.load(path)
        assert record.options == {"cards": "A1,E2"}
        state = replay(record)
        assert isinstance(state, EgyptiaState)
        assert state.cards[0] == "A1" and state.cards[4] == "E2"


@pytest.fixture()
def record_file(tmp_path: Path) -> Path:
    result = runner.invoke(
        app,
        ["simulate", "egyptia", "-p", "3", "-n", "1", "--seed", "12", "--record", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    return tmp_path / "egyptia-12.json"


def test_replay_verifies_and_shows_the_final_scoring(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Log (everything)" in out
    assert "replayed and verified; the recorded result matches" in " ".join(out.split())
    # the omniscient log has every builder's sealed column and private steps
    for seat in (1, 2, 3):
        assert re.search(rf"Builder {seat} chooses the \w+ column\.", out)
        assert re.search(rf"^\s*Builder {seat} (builds|suffers|uses|takes) .*\.$", out, re.M)
    for part in ("Final scoring", "Favor", "Ships", "Pest.", "Total", "Plagues", "river"):
        assert part in out
    assert re.search(r"(Winner|Shared victory): Builder \d", out)
    assert "Builder status" not in out  # only alone


def test_replay_as_one_seat_hides_the_others_sealed_choices(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file), "--seat", "0"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Log as Builder 1 saw it" in out
    assert re.search(r"Builder 1 chooses the \w+ column\.", out)
    assert not re.search(r"Builder [23] chooses", out)
    assert "Builder 2: " not in out and "Builder 3: " not in out
    assert re.search(r"Builder 2 takes the \w+ column", out)  # the reveal is public


def test_replay_of_an_unfinished_record(record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    data.pop("result")
    data["actions"] = data["actions"][:4]
    short = record_file.with_name("short.json")
    short.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(short), "-q"])
    assert result.exit_code == 0, result.output
    assert "stops before the end" in result.output
    assert "Scores so far: Builder 1" in result.output


def test_replay_names_an_illegal_egyptia_move(record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    data["actions"][0][1] = "build quarry Z9"
    bad = record_file.with_name("bad.json")
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "action 0 (" in result.output and "'build quarry Z9'" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------- board
def test_board_shows_the_sheet_with_confidences() -> None:
    result = runner.invoke(app, ["board", "egyptia"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Egyptia sheet (built-in)" in out
    rows = {line.split()[1]: line for line in out.splitlines() if re.match(r"│ d\d+ ", line)}
    assert set(rows) == {"d4", "d6", "d8", "d10", "d12", "d20"}
    assert "printed" in rows["d4"] and "reconstructed?" in rows["d6"]
    assert re.search(r"│ d8 +│ Mine +│ +1-3 +│ +4-5 +│ +6-7 +│ +8 +│", out)
    assert "any (+1 favor)" in rows["d20"]
    assert re.search(r"Quarry +│ 2 grain, 1 diamond +│ stone \+1 step +│ printed", out)
    assert "on a Sacred Site" in out and "+1 favor (not a Burial Mound)" in out
    # the map, drawn with its labels: Sacred Sites marked *, the Oasis ~
    assert "        /A1 *\\  /A2  \\  /A3 *\\" in out
    assert "/C1  \\  /C2  \\  /C3 ~\\  /C4  \\  /C5  \\" in out
    assert "Oasis C3; Sacred Sites A1, A3, E1, E3; river along the top" in out
    assert "Ships: 1: 2 grain, 1 diamond reconstructed?" in out
    assert "Pharaoh cards (one of each letter per game)" in out
    assert re.search(r"│ E2 +│ points by the most Fields", out)
    assert "Apprentice 0-49 · Standard 50-59 · Skilled 60-64 · Master 65-69 · Legendary 70+" in out
    assert "Confidence: printed (no mark) · one source * · reconstructed ?" in out
    assert "karnak board egyptia --dump" in out


def test_board_dump_is_the_shipped_file() -> None:
    result = runner.invoke(app, ["board", "egyptia", "--dump"])
    assert result.exit_code == 0
    assert result.stdout == sheet_text()


def test_corrected_sheet_is_validated_and_shown(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    text = sheet_text()
    text = text.replace('  "  S . S",\n', '  "  . S .",\n', 1)
    text = text.replace("gives = { grain = 2, diamond = 1 }", "gives = { grain = 3 }", 1)
    path.write_text(text)
    result = runner.invoke(app, ["board", "egyptia", "--board", str(path)])
    assert result.exit_code == 0, result.output
    assert "is a valid board file" in result.output
    assert f"Egyptia sheet ({path})" in result.output
    assert "        /A1  \\  /A2 *\\  /A3  \\" in result.output
    assert "Sacred Sites A2, E1, E3" in result.output
    assert "Ships: 1: 3 grain reconstructed?" in result.output
    dumped = runner.invoke(app, ["board", "egyptia", "--board", str(path), "--dump"])
    assert dumped.stdout == path.read_text()


MALFORMED = [
    ("die = 4\n", "die = 5\n", "d5: the columns must cover the values 1 to 5 once"),
    ('grain = "1-2"', 'grain = "1-3"', "d6: the value 3 is in two columns"),
    ('"  S . S",', '"  S . X",', "map row 1 has 'X'; use O (Oasis), S (Sacred Site)"),
    ('". . O . .",', '". . . . .",', "the map needs exactly one Oasis (O), not 0"),
    ('format = "karnak-egyptia-sheet/1"', 'format = "x"', "'format' must be"),
    ("[tracks]", "[tracks", "is not valid TOML"),
    ("cost = { diamond = 1, grain = 2 }", "cost = { wood = 2 }", "unknown resource(s) wood"),
    ('rule = "mine_remote"', 'rule = "nope"', "card C2: rule must be one of"),
    ("favor_per_point = 2", 'favor_per_point = "two"', "favor_per_point must be a whole"),
    ("cost = { stone = 1, diamond = 2 }", "cost = 3", "buildings.obelisk.cost must be a table"),
    ("number = 2", "number = 4", "the ships must be numbered 1, 2, 3"),
    ('rule = "mine_remote"', "rule = [1]", "card C2: rule must be one of"),
]


@pytest.mark.parametrize(("old", "new", "message"), MALFORMED)
def test_malformed_sheet_files_are_refused(
    play_runner: CliRunner, tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = sheet_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    commands = (["board", "egyptia"], ["simulate", "egyptia", "-n", "1"], [*PLAY])
    for command in (*commands, ["arena", "egyptia", "--bots", "random", "-n", "1"]):
        result = play_runner.invoke(app, [*command, "--board", str(path)], "quit\n")
        assert result.exit_code == 1, result.output
        assert message in result.output
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_missing_sheet_file() -> None:
    result = runner.invoke(app, ["board", "egyptia", "--board", "no/such.toml"])
    assert result.exit_code == 1
    assert "cannot read the sheet file no/such.toml" in result.output


def test_a_record_carries_its_corrected_sheet(tmp_path: Path) -> None:
    board = tmp_path / "sheet.toml"
    board.write_text(sheet_text().replace("ship_points = 2", "ship_points = 5"))
    runs = tmp_path / "runs"
    args = ["simulate", "egyptia", "-n", "1", "--seed", "3", "--board", str(board)]
    made = runner.invoke(app, [*args, "--record", str(runs)])
    assert made.exit_code == 0, made.output
    board.unlink()  # the record alone must be enough
    record = GameRecord.load(runs / "egyptia-3.json")
    assert record.variant is not None
    assert record.variant["sheet"]["scoring"]["ship_points"] == 5
    result = runner.invoke(app, ["replay", str(runs / "egyptia-3.json"), "-q"])
    assert result.exit_code == 0, result.output
    assert "the recorded result matches" in result.output


# ---------------------------------------------------------------------- arena and games
def test_arena() -> None:
    result = runner.invoke(
        app, ["arena", "egyptia", "--bots", "random,random,random", "-n", "3", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "Egyptia arena: 3 game(s), 3 players, seeds 1-3" in result.stdout


def test_arena_with_cards_and_a_corrected_sheet(tmp_path: Path) -> None:
    board = tmp_path / "sheet.toml"
    board.write_text(sheet_text().replace("ship_points = 2", "ship_points = 4"))
    args = ["arena", "egyptia", "--bots", "random,random", "-n", "2", "--cards", CARDS]
    result = runner.invoke(app, [*args, "--board", str(board), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2


def test_games_lists_egyptia() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert re.search(r"egyptia\s+│\s+Egyptia\s+│\s+1-99\s+│", result.output)
    assert "cards: the Pharaoh cards" in result.output


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["simulate", "egyptia", "-p", "100"], "Egyptia is for 1 to 99 players, not 100"),
        (["simulate", "egyptia", "-p", "0"], "Egyptia is for 1 to 99 players, not 0"),
        (["simulate", "egyptia", "--cards", "A9"], "there is no Pharaoh card 'A9'; cards are A1"),
        (["simulate", "egyptia", "--cards", "A1,A2"], "names two cards of letter A"),
        (["simulate", "egyptia", "--edition", "2016"], "Egyptia has no option(s) edition"),
        (["simulate", "egyptia", "-p", "2", "--bots", "random,random,random"], "one bot name or 2"),
        (["simulate", "aton", "--cards", "A1"], "Aton has no option(s) cards"),
        (["arena", "egyptia", "--bots", ",".join(["random"] * 100)], "and 100 bot(s)"),
        (["arena", "egyptia", "--bots", "random,oracle"], "unknown bot 'oracle' for Egyptia"),
        (["arena", "egyptia", "--bots", "random", "--cards", "Z1"], "no Pharaoh card 'Z1'"),
        ([*PLAY, "--seat", "1"], "--seat must be between 0 and 0, not 1"),
        ([*PLAY, "-p", "100"], "Egyptia is for 1 to 99 players, not 100"),
        ([*PLAY, "-p", "3", "--opponents", "random,random,random"], "one bot name or 2"),
        (["play", "egyptia", "-p", "2", "--opponents", "genius"], "or human: another person"),
        ([*PLAY, "-p", "2", "--name", "Builder 2"], "'Builder 2' is already another seat's"),
        ([*PLAY, "--cards", "B1,B2"], "names two cards of letter B"),
        ([*PLAY, "--offer-cards"], "Egyptia has no option(s) offer_cards"),
    ],
)
def test_bad_arguments(play_runner: CliRunner, command: list[str], message: str) -> None:
    result = play_runner.invoke(app, command, "quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------- play alone
def test_a_solo_game_typed_to_the_end(play_runner: CliRunner) -> None:
    planned, answers = planned_solo_game(seed=1)
    assert planned.round == 18  # the careful plan fills the map
    result = play_runner.invoke(
        app,
        ["play", "egyptia", "--full", "--seed", "1", "--cards", CARDS],
        "\n".join(answers) + "\n",
    )
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out and "Builder 1 cannot" not in out
    assert prompts(out) == len(answers)
    # what a decision shows alone: no table of other builders
    opening = out.split("Builder 1 >", 1)[0]
    for part in (
        "Round 1 · Builder 1: choosing a column",
        "Resource board (round 1)",
        "You produce",
        "The Pharaoh's demands",
        "points by the number of Obelisks",
        "Your sheet (Builder 1): 0 building(s)",
        "        /A1 *\\  /A2  \\  /A3 *\\",
        "Resources: ● circled ⊗ spent ○ empty; | red dots end the game",
        "Plagues Locusts Blood",
        "Ships 1: 2g+1d unused",
        "If the game ended now: A2 0 · B2 0 · C3 0 · D2 0 · E3 0",
        "Apprentice 0-49",
        "Choose a column to produce from",
    ):
        assert part in opening, part
    assert "Builders" not in out
    assert "What you may build" in out and "Best for the cards now" in out
    assert "Choose the Burial Mound's resources" in out
    # the end: the map, each card's points, the solo status
    end = out.split("The game is over", 1)[1]
    assert "Builder 1 (59 points)" in end
    assert re.search(
        r"^ +1 +Builder 1 +0 +9 \(3\+3\+3\) +0 +35 +9 \(3\+3\+3\) .* 59 +0 *$", end, re.M
    )
    assert "Builder status: Standard with 59 points" in end
    assert "/E1 *\\" in end and "~~~~" in end
    record = GameRecord.load(saved_path(end))
    state = replay(record)
    assert state.to_json() == planned.to_json()
    assert record.result is not None and record.result["scores"] == [59]


def test_plagues_and_payments_by_numbers(play_runner: CliRunner) -> None:
    # At this seed the first move of every list reaches every kind of step.
    result = play_runner.invoke(app, ["play", "egyptia", "--full", "--seed", "11"], ones())
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "choose grain  (+4 grain · builds" in out and "plague!)" in out
    assert "Your column held 3 dice or more: choose a plague to suffer." in out
    assert "plague locusts  (lose 2 grain)" in out
    assert "plague darkness  (no market and no Sacred Site this round)" in out
    assert re.search(r"plague hail-fire 1  \(lose ship 1 \(2 grain, 1 diamond\)", out)
    assert "Choose what to lose to Locusts." in out
    assert re.search(r"pay 2g  \(leaves \d+g", out)
    assert "Choose how to pay" in out
    assert "Choose the Burial Mound's resources: 2 basic or 1 favor." in out
    assert "xLocusts" in out  # crossed off the sheet
    assert "The game is over" in out and "Builder status: " in out
    assert replay(GameRecord.load(saved_path(out))).is_over()


def test_a_plague_that_forbids_hexes_marks_them_on_the_map(play_runner: CliRunner) -> None:
    result = play_runner.invoke(
        app, ["play", "egyptia", "--full", "--seed", "11"], "choose grain\nplague darkness\nquit\n"
    )
    out = result.output
    assert result.exit_code == 0, out
    build = out.split("Builder 1 > plague darkness", 1)[1]
    assert "What you may build (Darkness: no market and no Sacred Site this round" in build
    assert "        \\ -  /  \\ ·  /  \\ -  /" in build  # the Sacred Sites A1 and A3
    assert "build mound A1" not in build and "build mound A2" in build


def test_bad_moves_get_clear_answers(play_runner: CliRunner) -> None:
    lines = [
        "choose wood",
        "ship 7",
        "ship 1",
        "ship 1",
        "plague locusts",
        "build quarry A1",
        "pay 1g",
        "gain 2g",
        "99",
        "",
        "fly away",
        "choose grain",
        "plague hail-fire",
        "plague measles",
        "build castle A1",
        "plague locusts",
        "2",
        "build quarry C3",
        "build quarry Z9",
        "gain 1x",
        "help",
        "figures",
        "log",
        "moves",
        "quit",
    ]
    result = play_runner.invoke(
        app, ["play", "egyptia", "--full", "--seed", "11"], "\n".join(lines) + "\n"
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    assert "cannot read 'choose wood'; moves are: choose grain|diamond|stone|favor" in out
    assert "Builder 1 cannot 'ship 7': the ships are numbered 1 to 3" in out
    assert "Builder 1 cannot 'ship 1': that ship is already crossed off" in out
    assert "cannot 'plague locusts': a plague is suffered only after choosing a column" in out
    assert "cannot 'build quarry A1': you are choosing a column" in out
    assert "cannot 'pay 1g': there is nothing to pay for now" in out
    assert "cannot 'gain 2g': only a Burial Mound gives resources" in out
    assert "There is no move 99" in out and "Type a move number" in out
    assert "cannot read 'fly away'" in out
    assert "Hail-fire takes a ship; write e.g. plague hail-fire 2" in out
    assert "'measles' is not a plague" in out
    assert "'castle' is not a building" in out
    assert "cannot 'build quarry C3': nothing may be built on the Oasis" in out
    assert "cannot 'build quarry Z9': there is no hex Z9 on the sheet" in out
    assert "'x' is not a resource" in out
    assert "A round: choose a column of the resource board (sealed)" in out  # help
    assert "Egyptia sheet (built-in)" in out  # board
    assert "The whole log as you saw it" in out  # log
    assert "Stopped: you quit" in out
    record = GameRecord.load(saved_path(out))
    texts = [text for _, text in record.actions]
    assert texts[:3] == ["ship 1", "choose grain", "plague locusts"]
    assert texts[3].startswith("pay ") and len(texts) == 4  # "2" chose how to pay


def test_bad_builds_and_gains_get_clear_answers(play_runner: CliRunner) -> None:
    # At this seed the grain column holds the d4 (Pyramid) and the d10 (Obelisk) only.
    lines = [
        "choose grain",
        "build quarry B2",
        "build mound A2",
        "gain 3f",
        "gain 1f",
        "build mound B2",
        "choose grain",
        "build mound A2",
        "quit",
    ]
    result = play_runner.invoke(
        app, ["play", "egyptia", "--full", "--seed", "1"], "\n".join(lines) + "\n"
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "cannot 'build quarry B2': no die in your column shows that building" in out
    assert "cannot 'gain 3f': a Burial Mound gives 2 basic resources or a favor" in out
    assert "Builder 1 builds a Burial Mound on A2; takes 1 favor for the Burial Mound." in out
    assert "cannot 'build mound B2': you are choosing a column" in out
    assert "cannot 'build mound A2': A2 is already built on" in out
    assert "Stopped: you quit" in out


def test_quit_and_resume(play_runner: CliRunner) -> None:
    args = [*PLAY, "-p", "2", "--seed", "5", "--save", "g.json", "--cards", CARDS]
    first = play_runner.invoke(app, args, "1\n1\nquit\n")
    assert first.exit_code == 0, first.output
    assert "play egyptia --resume g.json" in first.output
    saved = json.loads(Path("g.json").read_text())
    assert saved["karnak_cli"] == {"human_seat": 0, "opponents": {"1": "random"}}
    assert saved["options"] == {"cards": CARDS}
    second = play_runner.invoke(app, ["play", "egyptia", "--full", "--resume", "g.json"], ones())
    assert second.exit_code == 0, second.output[-3000:]
    assert "replayed and verified" in " ".join(second.output.split())  # wrapped to the width
    assert "The last moves before the game was saved" in second.output
    assert "Final scoring" in second.output
    final = GameRecord.load(Path("g.json"))
    assert [list(a) for a in final.actions[: len(saved["actions"])]] == saved["actions"]
    assert replay(final).is_over()
    again = play_runner.invoke(app, ["play", "egyptia", "--full", "--resume", "g.json"])
    assert "That game is already over." in again.output and "Final scoring" in again.output


def test_end_of_input_saves(play_runner: CliRunner) -> None:
    result = play_runner.invoke(app, ["play", "egyptia", "--full", "--seed", "2"], "1\n")
    assert result.exit_code == 0
    assert "the input ended" in result.output
    state = replay(GameRecord.load(saved_path(result.output)))
    assert not state.is_over() and len(state.history) == 1


def test_defaults_one_builder_and_the_game_s_bot(play_runner: CliRunner) -> None:
    alone = play_runner.invoke(app, ["play", "egyptia", "--full", "--seed", "3"], "quit\n")
    assert alone.exit_code == 0, alone.output
    saved = json.loads(saved_path(alone.output).read_text())
    assert saved["seats"] == ["Builder 1"]
    assert saved["karnak_cli"]["opponents"] == {}
    table = play_runner.invoke(app, ["play", "egyptia", "-p", "3", "--seed", "3"], "quit\n")
    assert table.exit_code == 0, table.output
    opponents = json.loads(saved_path(table.output).read_text())["karnak_cli"]["opponents"]
    bot = (
        "heuristic"
        if "heuristic" in available_bots(GAME)
        else f"{DEFAULT_OPPONENT}:{DEFAULT_THINK}"
    )
    assert opponents == {"1": bot, "2": bot}


# ---------------------------------------------------------------------- play against bots
def test_a_game_against_bots(play_runner: CliRunner) -> None:
    result = play_runner.invoke(app, [*PLAY, "-p", "4", "--seed", "3"], ones())
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    opening = out.split("Builder 1 >", 1)[0]
    assert "4 of 4 builders still choosing (sealed)" in opening
    assert "Your column stays sealed until every builder has chosen." in opening
    assert "Builders (sheets as of the last reveal or round end" in opening
    assert re.search(r"Builder 2 +choosing +· +· +1/1/1/1 +0/0/0 +0 +3 +7", opening)
    assert "The others see what you do now when the round ends." in out
    assert "Chosen by" in out and "incl. you" in out
    assert re.search(r"Builder 2 takes the \w+ column", out)
    end = out.split("The game is over", 1)[1]
    for seat in range(1, 5):
        assert re.search(rf"Builder {seat} \(-?\d+ points?\)", end)  # every map at the end
    assert "Final scoring" in end and re.search(r"(Winner|Shared victory): Builder", end)
    record = GameRecord.load(saved_path(end))
    assert record.result is not None and replay(record).scores() == record.result["scores"]


def test_a_hundred_builders_stay_readable(play_runner: CliRunner) -> None:
    result = play_runner.invoke(app, [*PLAY, "-p", "99", "--seed", "3"], ones(8) + "quit\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Builders: the 9 leaders of 99 by score now" in out
    assert "more builder(s) not shown" in out
    assert "(98 line(s) about the other 98 builders; type log to read them)" in out
    screens = out.split("Builder 1 >")
    assert len(screens) == 10
    assert max(len(screen.splitlines()) for screen in screens) < 140
    tables = [
        s.split("Builders: ", 1)[1].split("Buildings: P", 1)[0]
        for s in screens
        if "Builders: " in s
    ]
    assert len(tables) >= 3  # at every choice of a column or a building
    for table in tables:
        assert 9 <= len(re.findall(r"^ *Builder \d+", table, re.MULTILINE)) <= 10


# ---------------------------------------------------------------------- hidden information
class FixedBot(Bot):
    """Chooses ``column``; then suffers the first plague, pays the first way and builds a
    Burial Mound on the first (or last) free hex."""

    def __init__(self, column: str, last: bool):
        self.column = column
        self.last = last
        self.name = f"fixed-{column}"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        legal = [a for a in view.legal_actions if not isinstance(a, UseShip)]
        for action in legal:
            if isinstance(action, Choose) and action.to_text() == f"choose {self.column}":
                return action
        mounds = [a for a in legal if isinstance(a, Build) and a.building == "mound"]
        if mounds:
            return mounds[-1] if self.last else mounds[0]
        return legal[0]


@pytest.fixture()
def fixed_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    bot_base.available_bots()  # load the built-in bots before the registry is copied
    monkeypatch.setattr(bot_base, "_REGISTRY", dict(bot_base._REGISTRY))

    def factory(column: str, last: bool) -> Callable[[Game, Budget | None], Bot]:
        return lambda game, budget: FixedBot(column, last)

    for column in ("grain", "stone"):
        for where in ("first", "last"):
            register_bot(f"{column}-{where}", factory(column, where == "last"), help="test bot")


def _session(play_runner: CliRunner, opponent: str, answers: str, *extra: str) -> str:
    args = ["play", "egyptia", "-p", "2", "--seed", "3", "--opponents", opponent, *extra]
    result = play_runner.invoke(app, args, answers)
    assert result.exit_code == 0, result.output
    return result.output.split("Stopped:", 1)[0]  # the saved file's name has a timestamp


def test_a_bot_s_sealed_column_is_never_shown_before_the_reveal(
    play_runner: CliRunner, fixed_bots: None
) -> None:
    answers = ones(12) + "quit\n"
    grain = _session(play_runner, "grain-first", answers)
    stone = _session(play_runner, "stone-first", answers)
    reveal = "Builder 2 takes the "
    assert reveal in grain and reveal in stone
    # everything before the reveal is the same whichever column the bot chose ...
    assert grain.split(reveal, 1)[0] == stone.split(reveal, 1)[0]
    # ... and the reveal tells them apart, so the comparison could have failed
    assert "Builder 2 takes the grain column" in grain
    assert "Builder 2 takes the stone column" in stone
    for out in (grain, stone):
        assert "Builder 2 chooses" not in out  # the bot's sealed line, never
        assert "Builder 2: " not in out  # nor any of its private lines


def test_a_bot_s_building_is_shown_only_when_the_round_ends(
    play_runner: CliRunner, fixed_bots: None
) -> None:
    answers = ones(12) + "quit\n"
    first = _session(play_runner, "grain-first", answers)
    last = _session(play_runner, "grain-last", answers)

    def shown_at(out: str) -> int:
        """Where the transcript first tells of the bot's building (its round's end)."""
        match = re.search(r"^  Builder 2 .*builds a Burial Mound on (\w+)", out, re.MULTILINE)
        assert match, out[-3000:]
        return match.start()

    at = shown_at(first)
    assert at == shown_at(last) and first[:at] == last[:at]
    assert first[at : at + 200] != last[at : at + 200]  # the hexes differ from there on
    # it is shown with the round's end: the person had finished the round before
    assert "Round 1 ends" in first[at:] and "Round 1 ends" not in first[:at]


def test_the_person_in_the_second_seat_sees_no_more(
    play_runner: CliRunner, fixed_bots: None
) -> None:
    answers = ones(8) + "quit\n"
    grain = _session(play_runner, "grain-first", answers, "--seat", "1")
    stone = _session(play_runner, "stone-first", answers, "--seat", "1")
    reveal = "Builder 1 takes the "
    assert "Builder 2 >" in grain and "Builder 1 >" not in grain
    assert grain.split(reveal, 1)[0] == stone.split(reveal, 1)[0]
    assert "Builder 1 chooses" not in grain + stone


def test_two_people_take_turns_without_seeing_each_other_s_column(
    play_runner: CliRunner,
) -> None:
    args = ["play", "egyptia", "-p", "2", "--opponents", "human", "--seed", "3"]
    # Builder 2 asks for the full board (the compact screen shows only a count of those
    # still deciding): it says that Builder 1 has chosen, never what.
    answers = "1\n\nboard\n2\n\n1\nquit\n"
    result = play_runner.invoke(app, [*args, "--save", "h.json"], answers)
    out = result.output
    assert result.exit_code == 0, out
    first_turn, rest = out.split("Pass the terminal to Builder 2.", 1)
    second_turn, back = rest.split("Pass the terminal to Builder 1.", 1)
    assert "Builder 1 >" in first_turn
    assert "Builder 2 >" in second_turn and "Builder 1 >" not in second_turn
    assert "Builder 1 chooses" not in second_turn
    assert "1 still deciding" in second_turn  # the compact screen: a count only
    assert re.search(r"Builder 1 +chosen +· ", second_turn)  # only that Builder 1 has chosen
    assert re.search(r"Builder 2 chooses the diamond column", second_turn) is None
    assert "Builder 1 chooses the grain column." in back
    assert "Builder 2 takes the diamond column" in back  # after the reveal
    saved = json.loads(Path("h.json").read_text())
    assert saved["karnak_cli"]["opponents"] == {"1": "human"}
    assert [a[1] for a in saved["actions"]] == ["choose grain", "choose diamond", "plague locusts"]


# ---------------------------------------------------------------------- the renderer
def test_the_map_drawing_follows_the_sheet() -> None:
    sheet = GAME.sheet
    drawing = draw_map(sheet.hexes, {"A1": "pyramid", "C4": "mound"}, river="bottom").plain
    lines = drawing.splitlines()
    assert lines[0] == "        /A1 *\\  /A2  \\  /A3 *\\"
    assert lines[1] == "        \\PYR /  \\ ·  /  \\ ·  /"
    assert lines[5] == "\\ ·  /  \\ ·  /  \\~~~~/  \\MND /  \\ ·  /"
    assert lines[-1].startswith("~~~~") and lines[-1].endswith("river")


def test_the_log_folds_only_the_other_builders_lines() -> None:
    renderer = EgyptiaRenderer()
    state = get_game("egyptia").new_state(12, seed=1)
    lines = [
        "Round 1: the dice fall as ...",
        "Builder 1 chooses the grain column.",
        "Builder 1 takes the grain column (2 dice): 2 grain.",
        "Builder 10 takes the stone column (1 dice): 1 stone.",
        "Builder 11: builds a Mine.",
        "Builder 12 takes the grain column (2 dice): 2 grain.",
        "Round 1 ends: every city has 1 buildings.",
    ]
    folded = renderer.fold_log(state.game, state.observation(0), 0, lines)
    assert folded == [
        "Round 1: the dice fall as ...",
        "Builder 1 chooses the grain column.",
        "Builder 1 takes the grain column (2 dice): 2 grain.",
        "(3 line(s) about the other 11 builders; type log to read them)",
        "Round 1 ends: every city has 1 buildings.",
    ]
    small = get_game("egyptia").new_state(3, seed=1)
    assert renderer.fold_log(small.game, small.observation(0), 0, lines) == lines


def test_the_terminal_draws_from_the_game_and_the_view_alone() -> None:
    """Two states a seat cannot tell apart (a world re-dealt for it) draw the same status,
    hints, decision and folded log for that seat, character for character: the renderer
    reads the game and the seat's view, never the state."""
    import io

    from rich.console import Console

    def shown(parts: list[Any]) -> str:
        console = Console(file=io.StringIO(), width=140, force_terminal=True, record=True)
        for part in parts:
            console.print(part)
        return console.export_text(styles=True)

    renderer = EgyptiaRenderer()

    def drawn(
        game: Game, view: dict[str, Any], seat: int, legal: list[Action], lines: list[str]
    ) -> tuple[Any, ...]:
        return (
            shown(renderer.status(game, view, seat)),
            [renderer.action_hint(game, view, seat, a) for a in legal],
            renderer.decision_for(game, view, seat),
            renderer.fold_log(game, view, seat, lines),
        )

    compared = 0
    for seed, players in ((3, 3), (12, 2)):
        state = GAME.new_state(players, seed=seed)
        rng = Rng(seed)
        step = 0
        while not state.is_over():
            step += 1
            for seat in range(players) if step % 11 == 0 else ():
                view, legal = state.observation(seat), state.legal_actions(seat)
                lines = state.log_lines(seat)
                world = state.resample(seat, Rng(compared))
                other = world.observation(seat)
                assert other == view and world.legal_actions(seat) == legal
                assert drawn(state.game, view, seat, legal, lines) == drawn(
                    world.game, other, seat, legal, lines
                )
                compared += 1
            movers = state.to_move()
            mover = movers[rng.below(len(movers))]
            moves = state.legal_actions(mover)
            state.apply(mover, moves[rng.below(len(moves))])
        for seat in range(players):
            world = state.resample(seat, Rng(seat))
            assert shown(renderer.final_for(state.game, state.observation(seat), seat)) == shown(
                renderer.final_for(world.game, world.observation(seat), seat)
            )
    assert compared > 10
