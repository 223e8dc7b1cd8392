"""Play fixed games and print one digest of everything the engines answered along the way.

Run twice by ``test_native.py``, once as pure Python (``KARNAK_NATIVE=0``) and once with the
compiled modules: the digests must be equal. At every step it takes each seat's legal moves,
illegal-move explanation, observation, tensors and strings, the state's JSON, a clone, a
resampled world and, at the end, the log, scores and ranks; then a few bot games.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import karnak.native

# Asked for before any engine is imported, as an entry point does: KARNAK_NATIVE decides
# between the compiled build ("1") and pure Python ("0").
karnak.native.install()

from karnak.bots.arena import play_game  # noqa: E402
from karnak.core import Rng, get_game  # noqa: E402

#: (game, players, options, seeds)
TABLES: list[tuple[str, int, dict[str, Any], range]] = [
    ("amunre", 3, {}, range(2)),
    ("amunre", 5, {}, range(1)),
    ("aton", 2, {}, range(6)),
    ("egyptia", 1, {}, range(3)),
    ("egyptia", 2, {}, range(3)),
    ("egyptia", 5, {}, range(3)),
    ("egyptia", 3, {"cards": "A2,B2,C3,D2,E3"}, range(2)),
]
#: (game, seats, seeds): bots over the engines (the ismcts budget is in iterations)
BOT_GAMES = [
    ("amunre", ["heuristic", "ismcts:30", "heuristic"], range(1)),
    ("aton", ["heuristic", "ismcts:40"], range(2)),
    ("egyptia", ["heuristic", "ismcts:20"], range(1)),
    ("egyptia", ["ismcts:20"], range(1)),
]


def feed(sink: Any, value: Any) -> None:
    sink.update(json.dumps(value, sort_keys=True, default=str).encode())
    sink.update(b"\x00")


def digest() -> str:
    sink = hashlib.sha256()
    for name, players, options, seeds in TABLES:
        game = get_game(name)
        for seed in seeds:
            state = game.new_state(players, seed=seed, options=options)
            rng = Rng(seed)
            step = 0
            earlier = None  # the move played last, often illegal now: its explanation counts
            while not state.is_over():
                seat = state.to_move()[0]
                legal = state.legal_actions(seat)
                feed(sink, [str(a) for a in legal])
                if step % 3 == 0:
                    for other in range(players):
                        feed(sink, state.observation(other))
                        feed(sink, state.observation_tensor(other).tolist())
                        feed(sink, state.information_state_tensor(other).tolist())
                        feed(sink, state.information_state_string(other))
                    feed(sink, state.to_json())
                    assert state.clone() == state
                    assert game.state_from_json(state.to_json()) == state
                    feed(sink, state.resample(seat, Rng(step)).to_json())
                    if earlier is not None and earlier not in legal:
                        feed(sink, state.explain_illegal(seat, earlier))
                earlier = legal[rng.below(len(legal))]
                state.apply(seat, earlier)
                step += 1
            feed(sink, state.log_lines(everything=True))
            feed(sink, [state.scores(), state.ranks(), state.winners()])
    for name, seats, seeds in BOT_GAMES:
        game = get_game(name)
        for seed in seeds:
            outcome = play_game(game, seats, seed, {})
            feed(sink, [outcome.scores, outcome.ranks])
    return sink.hexdigest()


if __name__ == "__main__":
    print(json.dumps({"native": karnak.native.status().state, "digest": digest()}))
    sys.exit(0)
