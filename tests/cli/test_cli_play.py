"""``karnak play`` driven end to end by feeding answers, as a person at a keyboard would.

The answers are mostly "1" (the first legal move), with mistakes mixed in, so every kind of
decision of a full game is reached and every mistake must be answered without a traceback.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.bots import base as bot_base
from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.cli.main import app
from karnak.cli.play import DEFAULT_OPPONENT, DEFAULT_THINK, LineReader
from karnak.core import Game, GameRecord, Rng, replay
from karnak.core.actions import Action
from karnak.games.amunre.rules.board import default_board_text

#: ``play`` against random bots: instant opponents keep these tests fast (the default
#: opponents search for a second per move).
PLAY = ["play", "amunre", "--opponents", "random"]

BAD_LINES = ["", "xyz", "999", "bid NOWHERE 3", "0", "sell nothing", "adjust +4", "²", "[red]x"]


def answers(count: int = 1500, *, bad_every: int = 9) -> str:
    """Mostly "1", with a bad answer every ``bad_every`` lines (cycling through BAD_LINES)."""
    lines = []
    for i in range(count):
        if bad_every and i % bad_every == bad_every - 1:
            lines.append(BAD_LINES[(i // bad_every) % len(BAD_LINES)])
        else:
            lines.append("1")
    return "\n".join(lines) + "\n"


def saved_path(output: str) -> Path:
    match = re.search(r"saved in (\S+?\.json)", output)
    assert match, output[-2000:]
    return Path(match.group(1))


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner(env={"COLUMNS": "150"})


def test_full_five_player_game_with_mistakes(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [*PLAY, "--players", "5", "--seed", "11"],
        "board\n" + answers(),  # the whole table once; then the compact screens
    )
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    # every kind of mistake got a clear answer
    assert "Type a move number" in out
    assert "cannot read 'xyz'" in out
    assert "There is no move 999" in out
    assert "There is no move 0" in out
    assert "Red cannot 'bid NOWHERE 3'" in out
    # what a decision shows
    for part in ("Provinces", "Players", "Supply:", "Your hand", "Your moves:", "Temple"):
        assert part in out
    # the end
    assert "Final scoring" in out
    for heading in ("Pyramids", "Complete sets", "West bank", "East bank", "Gold ranking"):
        assert heading in out
    assert "after round 3" in out and "after round 6" in out
    assert re.search(r"(Winner|Shared victory): ", out)
    # the saved record replays to the same result
    record = GameRecord.load(saved_path(out))
    assert record.result is not None
    state = replay(record)
    assert state.is_over()
    assert record.result["scores"] == state.scores()
    assert record.result["winners"] == state.winners()


def test_first_decision_is_a_bid_and_bad_provinces_are_named(runner: CliRunner) -> None:
    result = runner.invoke(app, [*PLAY, "--seed", "6"], "bid NOWHERE 3\nboard\nquit\n")
    assert result.exit_code == 0
    assert "must place a bid" in result.output
    assert "there is no province 'NOWHERE'" in result.output
    assert "Bid on " in result.output  # the moves under their provinces
    assert "Bids" in result.output  # the board's table


def test_sealed_offers_of_bots_stay_hidden(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [*PLAY, "-p", "3", "--seed", "4", "--name", "Ann"],
        answers(bad_every=0),
    )
    assert result.exit_code == 0
    secret = [line for line in result.output.splitlines() if "secretly offers" in line]
    assert secret, "the human's own sealed offer should be in their log"
    assert all(line.strip().startswith("Ann ") for line in secret)
    assert "Ann >" in result.output


def test_quit_saves_and_resume_finishes(runner: CliRunner) -> None:
    first = runner.invoke(
        app,
        [*PLAY, "-p", "4", "--seed", "3", "--seat", "2"],
        "1\n1\n1\nquit\n",
    )
    assert first.exit_code == 0, first.output
    assert "--resume" in first.output
    path = saved_path(first.output)
    saved = json.loads(path.read_text())
    assert saved["karnak_cli"]["human_seat"] == 2
    moves_before = saved["actions"]

    second = runner.invoke(app, ["play", "amunre", "--resume", str(path)], answers(bad_every=0))
    assert second.exit_code == 0, second.output[-3000:]
    assert "replayed and verified" in " ".join(second.output.split())  # wrapped to the width
    assert "Final scoring" in second.output
    final = GameRecord.load(saved_path(second.output.split("Final scoring")[1]))
    assert [list(a) for a in final.actions[: len(moves_before)]] == moves_before
    assert replay(final).is_over()


def test_unwritable_save_path_falls_back(runner: CliRunner) -> None:
    Path("taken").mkdir()
    result = runner.invoke(app, [*PLAY, "--seed", "2", "--save", "taken"], "quit\n")
    assert result.exit_code == 0
    assert "Cannot write taken" in result.output
    assert not replay(GameRecord.load(saved_path(result.output))).is_over()


def test_end_of_input_saves(runner: CliRunner) -> None:
    result = runner.invoke(app, [*PLAY, "--seed", "2"], "1\n")
    assert result.exit_code == 0
    assert "the input ended" in result.output
    path = saved_path(result.output)
    state = replay(GameRecord.load(path))
    assert not state.is_over()
    assert len(state.history) >= 1


def test_ctrl_c_saves(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: LineReader, prompt: object) -> str | None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LineReader, "read", interrupted)
    result = runner.invoke(app, [*PLAY, "--seed", "2", "--save", "mine.json"])
    assert result.exit_code == 0
    assert "interrupted" in result.output
    assert Path("mine.json").exists()
    assert "--resume mine.json" in result.output


def test_resume_of_a_finished_game_shows_the_result(runner: CliRunner) -> None:
    done = runner.invoke(
        app,
        [*PLAY, "-p", "3", "--seed", "8", "--save", "g.json"],
        answers(bad_every=0),
    )
    assert done.exit_code == 0
    again = runner.invoke(app, ["play", "amunre", "--resume", "g.json"])
    assert again.exit_code == 0
    assert "already over" in again.output
    assert "Final scoring" in again.output


def test_commands_inside_a_game(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [*PLAY, "--seed", "1"],
        "help\nlog\nboard\nfigures\nmoves\nstatus\nquit\n",
    )
    out = result.output
    assert result.exit_code == 0
    assert "Commands: help" in out
    assert "The whole log as you saw it" in out
    assert "Confidence:" in out  # the board figures
    assert "Supply:" in out  # the whole table (board)
    assert out.count("Your moves:") >= 4  # first display, board, moves, status


def test_typed_action_text_is_accepted(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [*PLAY, "-p", "3", "--seed", "1"],
        "sell builder\nquit\n",
    )
    assert result.exit_code == 0
    assert "Red sells builder for 1 gold." in result.output


def test_edition_2016_names_cards(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [*PLAY, "--edition", "2016", "--seed", "1"],
        "quit\n",
    )
    assert result.exit_code == 0
    assert "Architect" in result.output
    assert "Auction Phase" in result.output


def test_expert_provinces_and_offer_cards(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [
            *PLAY,
            "--seed",
            "5",
            "--expert-provinces",
            "--offer-cards",
        ],
        "1\n" * 60 + "board\nquit\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Your province cards:" in result.output
    saved = json.loads(saved_path(result.output).read_text())
    assert saved["options"]["expert_provinces"] is True
    assert saved["options"]["offer_cards"] is True


def test_corrected_board_travels_in_the_record(runner: CliRunner) -> None:
    corrected = default_board_text().replace("start_gold = 20", "start_gold = 25")
    Path("board.toml").write_text(corrected)
    result = runner.invoke(
        app,
        [*PLAY, "--seed", "1", "--board", "board.toml"],
        "1\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "25 " in result.output  # everyone's starting gold, from the corrected board
    path = saved_path(result.output)
    Path("board.toml").unlink()  # the record alone must be enough
    resumed = runner.invoke(app, ["play", "amunre", "--resume", str(path)], "quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "replayed and verified" in " ".join(resumed.output.split())  # wrapped to the width


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "3 to 5 players, not 7"),
        (["--players", "2"], "3 to 5 players, not 2"),
        (["--seat", "4"], "--seat must be between 0 and 3"),
        (["--opponents", "genius"], "unknown bot 'genius'"),
        (["--opponents", "random,random"], "--opponents needs one bot name or 3"),
        (["--edition", "1999"], "allowed values: 2003, 2016"),
        (["--name", "Blue"], "already another seat's name"),
        (["--board", "missing.toml"], "cannot read the board file"),
        (["--resume", "missing.json"], "cannot read the game record missing.json"),
    ],
)
def test_bad_arguments(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "amunre", *args], "quit\n")
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_game(runner: CliRunner) -> None:
    result = runner.invoke(app, ["play", "senet"])
    assert result.exit_code == 2
    assert "unknown game 'senet'" in result.output
    assert "amunre" in result.output


def test_tampered_record_cannot_be_resumed(runner: CliRunner) -> None:
    first = runner.invoke(
        app,
        [*PLAY, "--seed", "3", "--save", "t.json"],
        "1\nquit\n",
    )
    assert first.exit_code == 0
    data = json.loads(Path("t.json").read_text())
    data["actions"][0][1] = "bid NOWHERE 3"
    Path("t.json").write_text(json.dumps(data))
    result = runner.invoke(app, ["play", "amunre", "--resume", "t.json"], "quit\n")
    assert result.exit_code == 1
    assert "action 0" in result.output


def test_narrow_terminal_keeps_province_names_whole(tmp_path: Path) -> None:
    narrow = CliRunner(env={"COLUMNS": "80"})
    result = narrow.invoke(
        app,
        [*PLAY, "--seed", "6", "--save", str(tmp_path / "n")],
    )
    assert result.exit_code == 0
    out = result.output
    line = next(li for li in out.splitlines() if "Province cards come out:" in li)
    names = line.split(":", 1)[1].strip(" .").split(", ")
    table = out.split("Provinces", 1)[1].split("Players", 1)[0]
    # the table names provinces as a player writes them (Abu), the log as moves do (ABU)
    assert all(name.lower() in table.lower() for name in names)


# ---------------------------------------------------------------------- opponents and think
class FirstMoveBot(Bot):
    """A stand-in search bot: takes a budget like ismcts, answers at once."""

    name = "slowpoke"

    def __init__(self, budget: Budget | None):
        self.budget = budget

    def choose(self, view: SeatView, rng: Rng) -> Action:
        return view.legal_actions[0]


@pytest.fixture()
def budgets(monkeypatch: pytest.MonkeyPatch) -> list[Budget | None]:
    """Registers ``slowpoke`` (a search bot) for one test; lists the budgets it was given."""
    given: list[Budget | None] = []

    def factory(game: Game, budget: Budget | None) -> Bot:
        given.append(budget)
        return FirstMoveBot(budget)

    bot_base.available_bots()  # load the built-in bots before the registry is copied
    monkeypatch.setattr(bot_base, "_REGISTRY", dict(bot_base._REGISTRY))
    register_bot("slowpoke", factory, help="test search bot", takes_budget=True)
    return given


#: At this seed Red (seat 0) decides first, so a person in seat 0 can quit before any bot
#: has to think.
RED_FIRST = "3"


def saved_opponents(output: str) -> dict[str, str]:
    saved: dict[str, str] = json.loads(saved_path(output).read_text())["karnak_cli"]["opponents"]
    return saved


def test_default_opponents_search_with_the_default_think(runner: CliRunner) -> None:
    result = runner.invoke(app, ["play", "amunre", "--seed", RED_FIRST], "quit\n")
    assert result.exit_code == 0, result.output
    spec = f"{DEFAULT_OPPONENT}:{DEFAULT_THINK}"
    assert saved_opponents(result.output) == {"1": spec, "2": spec, "3": spec}


def test_think_builds_the_search_spec(runner: CliRunner) -> None:
    args = ["play", "amunre", "--seed", RED_FIRST, "--opponents", "ismcts", "--think", "2s"]
    result = runner.invoke(app, args, "quit\n")
    assert result.exit_code == 0, result.output
    assert saved_opponents(result.output) == {"1": "ismcts:2s", "2": "ismcts:2s", "3": "ismcts:2s"}


def test_search_bots_say_they_are_thinking(runner: CliRunner, budgets: list[Budget]) -> None:
    args = ["play", "amunre", "--seed", RED_FIRST, "--seat", "3"]
    args += ["--opponents", "slowpoke,random,slowpoke:50", "--think", "5ms"]
    result = runner.invoke(app, args, "quit\n")
    out = result.output
    assert result.exit_code == 0, out
    # Red and Black search and say so; Blue (random) answers at once without a notice.
    assert "Red is thinking..." in out
    assert "Black is thinking..." in out
    assert "Blue is thinking" not in out
    assert out.index("Red is thinking...") < out.index("White >")
    # --think filled in the budget Red lacked; Black kept the one its spec names.
    assert saved_opponents(out) == {"0": "slowpoke:5ms", "1": "random", "2": "slowpoke:50"}
    assert Budget(seconds=0.005) in budgets
    assert Budget(iterations=50) in budgets


def test_resume_with_a_new_think_time(runner: CliRunner, budgets: list[Budget]) -> None:
    args = ["play", "amunre", "--seed", RED_FIRST, "--opponents", "slowpoke", "--save", "s.json"]
    first = runner.invoke(app, [*args, "--think", "5ms"], "quit\n")
    assert first.exit_code == 0, first.output
    kept = runner.invoke(app, ["play", "amunre", "--resume", "s.json"], "quit\n")
    assert saved_opponents(kept.output)["1"] == "slowpoke:5ms"
    changed = runner.invoke(
        app, ["play", "amunre", "--resume", "s.json", "--think", "7ms"], "quit\n"
    )
    assert changed.exit_code == 0, changed.output
    assert set(saved_opponents(changed.output).values()) == {"slowpoke:7ms"}


def test_think_without_search_bots_is_noted(runner: CliRunner) -> None:
    result = runner.invoke(app, [*PLAY, "--seed", RED_FIRST, "--think", "2s"], "quit\n")
    assert result.exit_code == 0, result.output
    assert "--think applies to search bots only" in result.output
    assert saved_opponents(result.output) == {"1": "random", "2": "random", "3": "random"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "random:2s"], "the random bot takes no budget"),
        (["--opponents", "ismcts:soon"], "cannot read the budget 'soon'"),
    ],
)
def test_bad_budget_lists_the_bots(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "amunre", *args], "quit\n")
    assert result.exit_code == 2
    assert message in result.output
    assert "random" in result.output.split(message, 1)[1]  # the bots that exist are listed
    assert "Traceback" not in result.output


def test_bad_think(runner: CliRunner) -> None:
    result = runner.invoke(app, ["play", "amunre", "--think", "fast"], "quit\n")
    assert result.exit_code == 2
    assert "--think: cannot read the budget 'fast'" in result.output
