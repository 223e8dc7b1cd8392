"""The terminal's decision screen: the renderer's compact view by default, the full status on
``board``, moves under the renderer's headings, everything fitting 80x24 (and 120x40) with the
prompt; moves that need no choice played after a pause (``--no-auto-pass`` asks instead);
``--lang``; the fixes of ``karnak games`` and the flags' help."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from rich.text import Text
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.cli.play import LineReader, PlaySession
from karnak.cli.render import PlainRenderer, renderer_for
from karnak.core import Game, Rng, State, get_game
from karnak.core.actions import Action
from karnak.core.forced import forced_move
from karnak.core.registry import available_games
from karnak.core.terminal import View


def console(width: int, height: int) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, record=True, color_system=None)


def session(
    game: Game, state: State, seat: int, out: Console, renderer: object = None
) -> PlaySession:
    return PlaySession(
        game=game,
        state=state,
        human=seat,
        bots={},
        console=out,
        reader=LineReader(out, io.StringIO("")),
        renderer=renderer if renderer is not None else renderer_for(game),  # type: ignore[arg-type]
    )


def decision_screen(game: Game, state: State, seat: int, width: int, height: int) -> list[str]:
    """The whole screen of a decision: the compact view, the moves and the prompt."""
    out = console(width, height)
    play = session(game, state, seat, out)
    play._show_status(seat, state.legal_actions(seat))
    out.print(play._prompt(seat), end="")
    return out.export_text().rstrip("\n").split("\n")


COMPACT_GAMES = [n for n in available_games() if hasattr(renderer_for(get_game(n)), "compact")]
TABLES = {"amunre": (3, 5), "aton": (2,), "egyptia": (1, 3, 30)}


@pytest.mark.parametrize("name", COMPACT_GAMES)
@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_every_decision_screen_fits_the_terminal(name: str, width: int, height: int) -> None:
    game = get_game(name)
    screens = 0
    for players in TABLES.get(name, (game.min_players,)):
        for seed in range(2):
            state = game.new_state([f"P{i}" for i in range(players)], seed=seed)
            rng = Rng(seed)
            step = 0
            while not state.is_over():
                movers = state.to_move()
                if 0 in movers and step % 4 == 0:
                    lines = decision_screen(game, state, 0, width, height)
                    assert len(lines) <= height, "\n".join(lines)
                    assert all(len(line.rstrip()) <= width for line in lines)
                    screens += 1
                step += 1
                seat = movers[rng.below(len(movers))]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.below(len(legal))])
    assert screens > 10


class Fake(PlainRenderer):
    """A renderer with the optional extras: a one-line compact view and headings."""

    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        return [Text("FULL STATUS")]

    def compact(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        return [Text("COMPACT VIEW")]

    def move_groups(
        self, game: Game, view: View, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, list[int]]]:
        return [("Odd", list(range(1, len(legal), 2))), ("Even", list(range(0, len(legal), 2)))]


class Broken(Fake):
    def move_groups(
        self, game: Game, view: View, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, list[int]]]:
        return [("Some", [0])]  # not every move: the list is shown whole instead


def amunre_start() -> tuple[Game, State]:
    game = get_game("amunre")
    return game, game.new_state(["A", "B", "C"], seed=3)


def test_compact_by_default_status_on_board_and_plain_without_compact() -> None:
    game, state = amunre_start()
    seat = state.to_move()[0]
    out = console(100, 40)
    play = session(game, state, seat, out, Fake())
    play._show_status(seat, state.legal_actions(seat))
    shown = out.export_text()  # (export_text empties the record)
    assert "COMPACT VIEW" in shown and "FULL STATUS" not in shown
    assert play._interpret(seat, "board", state.legal_actions(seat)) is None
    assert "FULL STATUS" in out.export_text()
    out = console(100, 40)
    session(game, state, seat, out, PlainRenderer())._show_status(seat, state.legal_actions(seat))
    assert "Your moves:" in out.export_text()  # the generic fallback: its status, in columns


def test_moves_under_headings_keep_their_numbers() -> None:
    game, state = amunre_start()
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    out = console(200, 60)
    session(game, state, seat, out, Fake())._show_moves(seat, legal, limit=None)
    text = out.export_text()
    odd, even = text.index("Odd:"), text.index("Even:")
    assert text.index(f"2 {legal[1].to_text()}") < even
    assert odd < even < text.index(f"1 {legal[0].to_text()}")
    out = console(200, 60)
    session(game, state, seat, out, Broken())._show_moves(seat, legal, limit=None)
    text = out.export_text()
    assert "Some:" not in text
    assert all(action.to_text() in text for action in legal)


def test_a_tight_screen_lists_numbers_by_heading() -> None:
    game, state = amunre_start()
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    out = console(80, 24)
    session(game, state, seat, out, Fake())._show_moves(seat, legal, limit=None, room=2)
    text = out.export_text()
    assert "Odd: 2-" not in text  # odd numbers are not a run
    assert "Even: 1, 3" in text and "type 'moves'" in text.lower()


def test_help_lists_board() -> None:
    game, state = amunre_start()
    seat = state.to_move()[0]
    out = console(100, 40)
    session(game, state, seat, out)._interpret(seat, "help", state.legal_actions(seat))
    assert "board (the whole table" in out.export_text()


# ---------------------------------------------------------------------- forced moves
def forced_position() -> tuple[Game, State, int]:
    """An Amun-Re game played at random until a seat's move is forced."""
    game = get_game("amunre")
    for seed in range(50):
        state = game.new_state(["A", "B", "C"], seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            for seat in state.to_move():
                if forced_move(state, seat) is not None:
                    return game, state, seat
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            sells = [a for a in legal if a.to_text().startswith("sell")]
            state.apply(seat, sells[0] if sells else legal[rng.below(len(legal))])
    raise AssertionError("no forced move")


def test_a_forced_move_is_played_after_the_pause() -> None:
    game, state, seat = forced_position()
    action = forced_move(state, seat)
    assert action is not None
    waited: list[float] = []
    out = console(100, 40)
    play = session(game, state, seat, out)
    play.pause, play.sleep = 1.5, waited.append
    before = len(state.history)
    play._human_turn(seat)  # no answer is read: the input is empty
    assert waited == [1.5]
    assert len(state.history) == before + 1 and state.history[-1][1] == action
    assert action.to_text() in out.export_text()


def test_without_auto_pass_the_person_is_asked() -> None:
    game, state, seat = forced_position()
    out = console(100, 40)
    play = session(game, state, seat, out)
    play.auto_pass = False
    with pytest.raises(Exception, match="input ended"):
        play._human_turn(seat)  # it asks, and the input is empty


def test_no_auto_pass_flag(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "120"})
    args = ["play", "amunre", "--opponents", "random", "--seed", "4"]
    on = runner.invoke(app, [*args, "--save", str(tmp_path / "a.json")], "1\n" * 400)
    off = runner.invoke(
        app, [*args, "--no-auto-pass", "--save", str(tmp_path / "b.json")], "1\n" * 400
    )
    assert on.exit_code == 0 and off.exit_code == 0, on.output[-2000:] + off.output[-2000:]
    assert "(played for you)" in on.output
    assert "(played for you)" not in off.output


# ---------------------------------------------------------------------- options and language
def test_games_lists_no_empty_default() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["games"])
    assert result.exit_code == 0
    assert "(default )" not in result.output
    assert "cards: the Pharaoh cards" in result.output


def test_flags_show_as_flags() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["play", "--help"])
    lines = [
        li
        for li in result.output.splitlines()
        if "--expert-provinces" in li or "--offer-cards" in li
    ]
    assert len(lines) == 2 and not any("<bool>" in li for li in lines)


def test_lang_option_and_environment(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "120", "KARNAK_LANG": ""})
    args = ["play", "amunre", "--opponents", "random", "--seed", "3"]
    pseudo = runner.invoke(app, ["--lang", "xx", *args, "--save", str(tmp_path / "x")], "quit\n")
    assert "⟦Your moves:⟧" in pseudo.output
    english = runner.invoke(app, [*args, "--save", str(tmp_path / "y")], "quit\n")
    assert "Your moves:" in english.output and "⟦" not in english.output  # put back after
    env = CliRunner(env={"COLUMNS": "120", "KARNAK_LANG": "xx"})
    assert (
        "⟦Your moves:⟧" in env.invoke(app, [*args, "--save", str(tmp_path / "z")], "quit\n").output
    )
    bad = runner.invoke(app, ["--lang", "klingon", "games"])
    assert bad.exit_code == 2 and "not a language Karnak speaks" in bad.output
