"""What a bot worker is sent: the position (State.to_json, without the event log), not the
record to replay, and what the bot is given there: its seat's view only."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from karnak.bots.base import Bot, SeatView, available_bots, make_bot
from karnak.core import Rng
from karnak.core.actions import Action
from karnak.core.record import replay
from karnak.core.registry import get_game, plugins
from karnak.server import bot_runner
from karnak.server.bot_limits import bound
from karnak.server.bot_runner import BotRunner, bot_seed, position, think
from karnak.server.rooms import BOT, HUMAN, Room, SeatInfo

GAMES = sorted(plugins())


def room_after(name: str, moves: int, *, bot: str | None = None) -> Room:
    """A room of the game ``name`` at its smallest table of two or more, after ``moves``
    random moves (seat 0 a bot of spec ``bot`` if given)."""
    game = get_game(name)
    players = max(2, game.min_players)
    names = game.seat_names(players)
    seats = [
        SeatInfo(s, names[s], BOT if bot and s == 0 else HUMAN, bot if s == 0 else None, "h")
        for s in range(players)
    ]
    room = Room("g", game, game.new_state(names, seed=7), seats, 7)
    rng = Rng(3)
    for _ in range(moves):
        if room.is_over:
            break
        movers = room.state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = room.state.legal_actions(seat)
        room.accept(seat, legal[rng.below(len(legal))])
    return room


def replayed_choice(room: Room, seat: int, spec: str, seed: int) -> str:
    """What the bot chose when the worker rebuilt the game from its record (the old way)."""
    state = replay(room.record(), check_result=False)
    bot = bound(make_bot(spec, room.game), seconds=600.0, iterations=10_000)
    return bot.choose(SeatView.of(state, seat), Rng(seed)).to_text()


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_chooses_from_the_state_as_it_did_from_the_replayed_record(name: str) -> None:
    game = get_game(name)
    specs = [
        s for s in ("random", "heuristic", "ismcts:40") if s.split(":")[0] in available_bots(game)
    ]
    checked = 0
    for moves in (0, 7, 30, 80):
        room = room_after(name, moves)
        if room.is_over:
            continue
        seat = room.state.to_move()[0]
        for spec in specs:
            seed = bot_seed(room.seed, room.version, seat)
            sent = think(position(room.state), seat, spec, seed, 600.0, 10_000)
            assert sent == replayed_choice(room, seat, spec, seed), (moves, spec)
            checked += 1
    assert checked >= len(specs)


def test_the_worker_is_sent_the_position_and_the_bot_its_seats_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room = room_after("egyptia", 25, bot="random")
    while 0 not in room.state.to_move():  # the bot's seat to move
        seat = room.state.to_move()[0]
        room.accept(seat, room.state.legal_actions(seat)[0])
    sent: list[dict[str, Any]] = []
    seen: list[Any] = []
    real_think = bot_runner.think

    def spying(state_json: dict[str, Any], *args: Any, **kwargs: Any) -> str:
        sent.append(state_json)
        return real_think(state_json, *args, **kwargs)

    class Watching(Bot):
        name = "watching"

        def choose(self, view: SeatView, rng: Rng) -> Action:
            seen.append(view)
            return view.legal_actions[0]

    monkeypatch.setattr(bot_runner, "think", spying)
    monkeypatch.setattr(bot_runner, "make_bot", lambda spec, game: Watching())
    runner = BotRunner(0)
    try:
        version, text = asyncio.run(runner.decide(room, 0))
    finally:
        runner.close()
    assert version == room.version_for(0)
    # the position itself, hidden facts, generator and moves included; only the event log
    # (words for people, which no bot reads) stays behind
    assert sent == [room.state.clone(log=False).to_json()]
    full, restored = room.state.to_json(), room.game.state_from_json(sent[0]).to_json()
    assert full["log"] and not restored["log"]
    assert {k: v for k, v in restored.items() if k not in ("log", "log_enabled")} == {
        k: v for k, v in full.items() if k not in ("log", "log_enabled")
    }
    # the bot had the seat's view, never the state
    (view,) = seen
    assert type(view) is SeatView and view.seat == 0
    assert view.observation == room.state.observation(0)
    assert [a.to_text() for a in view.legal_actions] == [
        a.to_text() for a in room.state.legal_actions(0)
    ]
    assert text == room.state.legal_actions(0)[0].to_text()
