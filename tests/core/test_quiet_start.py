"""A game started with its event log off (``new_state(..., log=False)``) plays exactly as
one started with it on: the log holds words for people, never anything the rules read."""

from __future__ import annotations

import pytest

from karnak.core import Rng, get_game

GAMES = [("amunre", 4), ("aton", 2), ("egyptia", 1), ("egyptia", 3)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_quiet_game_plays_as_a_logged_one(name: str, players: int) -> None:
    game = get_game(name)
    for seed in range(6):
        logged = game.new_state(players, seed=seed)
        quiet = game.new_state(players, seed=seed, log=False)
        assert logged.log.lines(everything=True), "a fresh game tells its setup"
        rng = Rng(100 + seed)
        while not logged.is_over():
            assert quiet.to_move() == logged.to_move()
            seat = logged.to_move()[0]
            legal = logged.legal_actions(seat)
            assert quiet.legal_actions(seat) == legal
            assert quiet.observation(seat) == logged.observation(seat)
            action = legal[rng.below(len(legal))]
            logged.apply(seat, action)
            quiet.apply(seat, action)
        assert quiet.is_over() and quiet.scores() == logged.scores()
        assert quiet.log.lines(everything=True) == []
        logged_json, quiet_json = logged.to_json(), quiet.to_json()
        for record in (logged_json, quiet_json):
            # words only: the log, and Egyptia's notes of the round (shown at its end)
            for words in ("log", "log_enabled", "round_notes"):
                record.pop(words, None)
        assert quiet_json == logged_json
