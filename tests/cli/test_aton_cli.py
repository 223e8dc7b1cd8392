"""The terminal commands for Aton: simulate, replay, board, arena and play (one person
against a bot, or two people taking turns at one terminal), and their refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.bots import make_bot
from karnak.cli.main import app
from karnak.cli.simulate import play_one
from karnak.core import GameRecord, get_game, replay
from karnak.games.aton.rules.board import DEFAULT_BOARD

runner = CliRunner(env={"COLUMNS": "150", "LINES": "400"})  # every move with its hint

PLAY = ["play", "aton", "--full", "--opponents", "random", "--full"]  # the whole table each time


def board_text() -> str:
    return DEFAULT_BOARD.read_text(encoding="utf-8")


def saved_path(output: str) -> Path:
    match = re.search(r"saved in (\S+?\.json)", output)
    assert match, output[-2000:]
    return Path(match.group(1))


def ones(count: int = 400) -> str:
    return "1\n" * count


def laid(name: str, text: str) -> bool:
    """Whether ``text`` shows the cards ``name`` laid face down (not just that they did)."""
    return re.search(rf"{name} lays \d", text) is not None


def before_reveal(output: str) -> str:
    """The transcript up to the first reveal of the cartouches."""
    marker = "The cartouches are revealed"
    assert marker in output, output[-3000:]
    return output.split(marker, 1)[0]


@pytest.fixture()
def play_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner(env={"COLUMNS": "150", "LINES": "400"})  # every move with its hint


# ---------------------------------------------------------------------- simulate and replay
def test_simulate_plays_to_the_end_and_writes_records(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "aton", "-n", "3", "--seed", "4", "--record", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Aton: 3 game(s), 2 players" in out  # two seats without --players
    assert "Red" in out and "Blue" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "aton-4.json",
        "aton-5.json",
        "aton-6.json",
    ]
    game = get_game("aton")
    for seed in (4, 5, 6):
        record = GameRecord.load(tmp_path / f"aton-{seed}.json")
        assert record.game == "aton" and record.seats == ["Red", "Blue"]
        assert record.result is not None
        state = replay(record)
        assert state.is_over()
        assert state.scores() == record.result["scores"]
        assert state.winners() == record.result["winners"]
        # the replay reproduces the very state the bots finished in
        bot = make_bot("random", game)
        played = play_one(game, seed, ["Red", "Blue"], [bot, bot], {})
        assert state.to_json() == played.to_json()


def test_simulate_json_is_deterministic() -> None:
    args = ["simulate", "aton", "-n", "3", "--seed", "9", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    games = [json.loads(line) for line in first.stdout.splitlines()]
    assert [g["seed"] for g in games] == [9, 10, 11]
    for g in games:
        assert len(g["scores"]) == 2 and g["actions"] > 0
        assert set(g["winners"]) <= {0, 1}
    assert runner.invoke(app, args).stdout == first.stdout


@pytest.fixture()
def record_file(tmp_path: Path) -> Path:
    result = runner.invoke(
        app, ["simulate", "aton", "-n", "1", "--seed", "12", "--record", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    return tmp_path / "aton-12.json"


def test_replay_verifies_and_shows_the_final_position(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Log (everything)" in out
    assert "replayed and verified; the recorded result matches" in " ".join(out.split())
    assert "The cartouches are revealed" in out
    # the omniscient log shows both priests' draws and sealed cartouches
    assert "Red draws" in out and "Blue draws" in out
    assert laid("Blue", out)
    for part in ("Temples", "Temple 4", "Kingdom of the Dead", "Final result", "Temple scoring"):
        assert part in out
    assert re.search(r"Winner: (Red|Blue)|A draw", out)


def test_replay_as_one_seat_hides_the_other_seats_cards(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file), "--seat", "0"])
    assert result.exit_code == 0, result.output
    assert "Log as Red saw it" in result.output
    assert "Red draws" in result.output
    assert "Blue draws" not in result.output
    assert not laid("Blue", result.output)


def test_replay_of_an_unfinished_record(record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    data.pop("result")
    data["actions"] = data["actions"][:5]
    short = record_file.with_name("short.json")
    short.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(short), "-q"])
    assert result.exit_code == 0, result.output
    assert "stops before the end" in result.output
    assert "Scores so far: Red" in result.output


def test_replay_names_an_illegal_aton_move(record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    data["actions"][0][1] = "place 9.1"
    bad = record_file.with_name("bad.json")
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "action 0 (" in result.output and "'place 9.1'" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------- board
def test_board_shows_the_temples_with_confidences() -> None:
    result = runner.invoke(app, ["board", "aton"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Aton temples (built-in)" in out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith("Temple ")]
    temples = [row for row in rows if len(row) == 15]  # Temple, n, 12 squares, confidence
    assert [row[1] for row in temples] == ["1", "2", "3", "4"]
    assert temples[0][2:14] == ["yel"] * 4 + ["grn"] * 3 + ["blk"] * 2 + ["blu", "+1", "+1"]
    assert all(row[14] == "reconstructed?" for row in temples)
    assert "Confidence: printed (no mark) · one source * · reconstructed ?" in out
    assert "Squares per temple" in out and "holding all of them wins at once" in out
    assert "Constants" in out and "one source*" in out and "points that win" in out
    assert "temple 4: the majority scores 3 per blue square" in out


def test_board_dump_is_the_shipped_file() -> None:
    result = runner.invoke(app, ["board", "aton", "--dump"])
    assert result.exit_code == 0
    assert result.stdout == board_text()


def test_corrected_board_is_validated_and_shown(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    text = board_text()
    assert text.count("black = [8, 9]\nblue = [10]") == 2
    path.write_text(text.replace("black = [8, 9]\nblue = [10]", "black = [8, 10]\nblue = [9]", 1))
    result = runner.invoke(app, ["board", "aton", "--board", str(path)])
    assert result.exit_code == 0, result.output
    assert "is a valid board file" in result.output
    assert f"Aton temples ({path})" in result.output
    first = next(li.split() for li in result.output.splitlines() if li.startswith(" Temple 1 "))
    assert first[2:14] == ["yel"] * 4 + ["grn"] * 3 + ["blk", "blu", "blk", "+1", "+1"]
    dumped = runner.invoke(app, ["board", "aton", "--board", str(path), "--dump"])
    assert dumped.stdout == path.read_text()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "yellow = [1, 2, 3, 4]",
            "yellow = [1, 2, 3, 44]",
            "temple 1: square 44 is not between 1 and 12",
        ),
        ("blue = [10]", "blue = [9]", "temple 1: square 9 is listed twice"),
        ("blue = [10]\n", "", "temple 1: squares [10] have no colour"),
        ("hand_size = 4", "hand_size = 0", "constants.hand_size must be 4, not 0"),
        ('format = "karnak-aton-board/1"', 'format = "x"', "'format' must be"),
        ("number = 2", "number = 5", "the temples must be numbered 1 to 4 in order"),
        (
            "bonus = { 12 = 2 }",
            "bonus = { 12 = 0 }",
            "the points of bonus square 12 must be between 1 and 20, not 0",
        ),
        ("[constants]", "[constants", "is not valid TOML"),
        # shapes the reader does not check itself are still one clear line
        (
            "bonus = { 11 = 1, 12 = 1 }",
            "bonus = { x = 1, 12 = 1 }",
            "bonus square 'x' is not a square number",
        ),
        ("green = [5, 6, 7]", "green = 5", "green must be a list of square numbers"),
    ],
)
def test_malformed_board_files_are_refused(
    play_runner: CliRunner, tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = board_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    for command in (["board", "aton"], ["simulate", "aton", "-n", "1"], [*PLAY]):
        result = play_runner.invoke(app, [*command, "--board", str(path)], "quit\n")
        assert result.exit_code == 1, result.output
        assert message in result.output
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_missing_board_file() -> None:
    result = runner.invoke(app, ["board", "aton", "--board", "no/such.toml"])
    assert result.exit_code == 1
    assert "cannot read the board file no/such.toml" in result.output


def test_a_record_carries_its_corrected_board(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text(board_text().replace("win_points = 40", "win_points = 30"))
    runs = tmp_path / "runs"
    made = runner.invoke(
        app,
        [
            "simulate",
            "aton",
            "-n",
            "1",
            "--seed",
            "3",
            "--board",
            str(board),
            "--record",
            str(runs),
        ],
    )
    assert made.exit_code == 0, made.output
    board.unlink()  # the record alone must be enough
    record = GameRecord.load(runs / "aton-3.json")
    assert record.variant is not None and record.variant["board"]["constants"]["win_points"] == 30
    result = runner.invoke(app, ["replay", str(runs / "aton-3.json"), "-q"])
    assert result.exit_code == 0, result.output
    assert "the recorded result matches" in result.output


# ---------------------------------------------------------------------- arena and games
def test_arena() -> None:
    result = runner.invoke(
        app, ["arena", "aton", "--bots", "random,random", "-n", "2", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "Aton arena: 2 game(s), 2 players, seeds 1-2" in result.stdout


def test_arena_on_a_corrected_board(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text(board_text().replace("counters = 29", "counters = 20"))
    result = runner.invoke(
        app,
        ["arena", "aton", "--bots", "random,random", "-n", "2", "--board", str(board), "--json"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2


def test_games_lists_aton() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert re.search(r"aton\s+│\s+Aton\s+│\s+2\s+│", result.output)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["simulate", "aton", "-p", "3"], "Aton is for exactly 2 players, not 3"),
        (["simulate", "aton", "--bots", "random,random,random"], "--bots needs one bot name or 2"),
        (["simulate", "aton", "--bots", "genius"], "unknown bot 'genius' for Aton"),
        (["simulate", "aton", "--edition", "2016"], "Aton has no option(s) edition"),
        (["simulate", "aton", "--offer-cards"], "Aton has no option(s) offer_cards"),
        (["arena", "aton", "--bots", "random"], "Aton is for exactly 2 players, and 1 bot(s)"),
        (["arena", "aton", "--bots", "random,oracle"], "unknown bot 'oracle' for Aton"),
        ([*PLAY, "-p", "3"], "Aton is for exactly 2 players, not 3"),
        ([*PLAY, "--seat", "2"], "--seat must be between 0 and 1, not 2"),
        (
            ["play", "aton", "--full", "--opponents", "random,random"],
            "--opponents needs one bot name, not 2",
        ),
        (
            ["play", "aton", "--full", "--opponents", "genius"],
            "or human: another person at this terminal",
        ),
        ([*PLAY, "--name", "Blue"], "'Blue' is already another seat's name"),
        ([*PLAY, "--expert-provinces"], "Aton has no option(s) expert_provinces"),
    ],
)
def test_bad_arguments(play_runner: CliRunner, command: list[str], message: str) -> None:
    # in a scratch directory: were a command to start a game after all, its record lands there
    result = play_runner.invoke(app, command, "quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------- play
def test_a_whole_game_against_a_bot_keeps_its_cards_hidden(play_runner: CliRunner) -> None:
    result = play_runner.invoke(app, [*PLAY, "--seed", "1"], ones())
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    # the first decision: the sealed allocation, with the person's own cards only
    opening = before_reveal(out)
    for part in ("Temples", "Temple 1", "yel", "Kingdom of the Dead (0 of 8)", "Priests"):
        assert part in opening
    assert "Your cards (Red): " in opening and "Red draws" in opening
    assert "Your choice stays sealed" in opening
    assert "1 exchange" in opening and "allocate " in opening
    # the bot's hand and sealed cartouches are never shown, before the reveal or after
    assert "Blue draws" not in out and not laid("Blue", out)
    assert "Your cards (Blue)" not in out
    assert "Blue hands in" in out or "Blue lays out four cards, face down." in out
    # after the reveal: both cartouches, whose decision it is, and placements
    assert "Cartouches (revealed)" in out
    assert re.search(r"(Red (places|removes)|Place|Remove) \d more counter", out)
    assert "place 1.1  (yellow)" in out
    # the end
    assert "The game is over" in out and "Final result" in out
    record = GameRecord.load(saved_path(out.split("The game is over", 1)[1]))
    assert record.result is not None
    state = replay(record)
    assert state.is_over() and state.scores() == record.result["scores"]


def test_the_bot_s_hand_stays_hidden_when_the_person_is_blue(play_runner: CliRunner) -> None:
    result = play_runner.invoke(app, [*PLAY, "--seed", "2", "--seat", "1"], ones())
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Blue >" in out and "Red >" not in out
    assert "Blue draws" in out
    assert "Red draws" not in out and not laid("Red", out) and "Your cards (Red)" not in out
    opening = before_reveal(out)
    assert "still deciding" in opening  # Red's cartouches: no cards, just whether laid


def test_bad_moves_get_clear_answers(play_runner: CliRunner) -> None:
    lines = [
        "allocate 9 9 9 9",
        "allocate 1",
        "allocate a b c d",
        "place 1.1",
        "place x",
        "remove 7.1",
        "fly away",
        "99",
        "",
        "exchange",
        "exchange",
        "help",
        "figures",
        "log",
        "quit",
    ]
    result = play_runner.invoke(app, [*PLAY, "--seed", "1"], "\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    assert "Red cannot 'allocate 9 9 9 9': your cards are 2 3 3 4" in out
    assert "allocate needs four card values" in out
    assert "Red cannot 'place 1.1': it does not fit the decision now (laying out cards)" in out
    assert "a square is written TEMPLE.SQUARE" in out
    assert "temples are 1-4 and squares 1-12" in out
    assert "cannot read 'fly away'" in out
    assert "There is no move 99" in out
    assert "Type a move number" in out
    assert "Red hands in the exchange counter" in out
    assert "Red cannot 'exchange': you have already used your exchange counter" in out
    assert "allocate C1 C2 C3 C4 lays your four cards on cartouches 1 to 4" in out  # help
    assert "Aton temples (built-in)" in out  # board
    assert "The whole log as you saw it" in out  # log
    assert "Stopped: you quit" in out


def test_quit_and_resume(play_runner: CliRunner) -> None:
    first = play_runner.invoke(app, [*PLAY, "--seed", "5", "--save", "g.json"], "2\n1\nquit\n")
    assert first.exit_code == 0, first.output
    assert "play aton --resume g.json" in first.output
    saved = json.loads(Path("g.json").read_text())
    assert saved["karnak_cli"] == {"human_seat": 0, "opponents": {"1": "random"}}
    second = play_runner.invoke(app, ["play", "aton", "--full", "--resume", "g.json"], ones())
    assert second.exit_code == 0, second.output[-3000:]
    assert "replayed and verified" in " ".join(second.output.split())  # wrapped to the width
    assert "Final result" in second.output
    final = GameRecord.load(Path("g.json"))
    assert [list(a) for a in final.actions[: len(saved["actions"])]] == saved["actions"]
    assert replay(final).is_over()


def test_default_opponent_is_the_search_bot(play_runner: CliRunner) -> None:
    result = play_runner.invoke(app, ["play", "aton", "--full", "--seed", "3"], "quit\n")
    assert result.exit_code == 0, result.output
    saved = json.loads(saved_path(result.output).read_text())
    assert saved["seats"] == ["Red", "Blue"]
    assert saved["karnak_cli"]["opponents"] == {"1": "ismcts:1s"}


def test_a_corrected_board_in_play_travels_in_the_record(play_runner: CliRunner) -> None:
    Path("board.toml").write_text(board_text().replace("counters = 29", "counters = 21"))
    result = play_runner.invoke(app, [*PLAY, "--seed", "1", "--board", "board.toml"], "quit\n")
    assert result.exit_code == 0, result.output
    assert re.search(r"Red\s+0\s+21\s", result.output)  # score 0, stock 21
    Path("board.toml").unlink()
    path = saved_path(result.output)
    resumed = play_runner.invoke(app, ["play", "aton", "--full", "--resume", str(path)], "quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert re.search(r"Red\s+0\s+21\s", resumed.output)


# ---------------------------------------------------------------------- two people, one terminal
def test_two_people_take_turns_without_seeing_each_other_s_cards(play_runner: CliRunner) -> None:
    args = ["play", "aton", "--full", "--opponents", "human", "--seed", "1", "--save", "h.json"]
    result = play_runner.invoke(app, args, "2\n\n3\nready\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    red_turn, rest = out.split("Pass the terminal to Blue.", 1)
    blue_turn, back_to_red = rest.split("Pass the terminal to Red.", 1)
    assert "Your cards (Red): 2 3 3 4" in red_turn and "Red >" in red_turn
    assert "Blue draws" not in red_turn and "Your cards (Blue)" not in red_turn
    # Blue is asked in turn and sees only that Red has laid out face down
    assert "Blue >" in blue_turn and "Your cards (Blue): " in blue_turn
    assert "laid face down" in blue_turn
    assert "Red draws" not in blue_turn and not laid("Red", blue_turn)
    assert "Your cards (Red)" not in blue_turn
    assert not laid("Blue", back_to_red) and "Blue draws" not in back_to_red
    assert "The cartouches are revealed" in back_to_red
    saved = json.loads(Path("h.json").read_text())
    assert saved["karnak_cli"]["opponents"] == {"1": "human"}
    assert len(saved["actions"]) == 2
    # resumed, both seats are still people
    again = play_runner.invoke(app, ["play", "aton", "--full", "--resume", "h.json"], "1\n\nquit\n")
    assert again.exit_code == 0, again.output
    assert "Stopped: you quit" in again.output


def test_quit_while_the_terminal_changes_hands(play_runner: CliRunner) -> None:
    args = ["play", "aton", "--full", "--opponents", "human", "--seed", "1"]
    result = play_runner.invoke(app, args, "2\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Blue ready?" in result.output
    assert "Stopped: you quit" in result.output
    assert "Your cards (Blue)" not in result.output
