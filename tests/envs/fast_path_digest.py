"""Play fixed games through the id layer and print one digest of every mask, vector, legal id
list and reward along the way (run pure and compiled by ``test_fast_path.py``: the digests
must be equal)."""

from __future__ import annotations

import hashlib
import json

import karnak.native

karnak.native.install()  # before any engine is imported; KARNAK_NATIVE decides

from karnak.core import Rng  # noqa: E402
from karnak.envs import IdGame  # noqa: E402

TABLES = [("aton", 2, {}), ("amunre", 3, {"offer_cards": True}), ("egyptia", 2, {})]


def digest() -> str:
    sink = hashlib.sha256()
    for game, players, options in TABLES:
        for kind in ("information_state", "observation"):
            idgame = IdGame(game, players, options=options, observation=kind)
            state = idgame.new_state(7)
            rng = Rng(7)
            while not state.is_terminal():
                seat = state.current_player()
                for other in range(players):
                    sink.update(state.observation(other).tobytes())
                    sink.update(state.mask(other).tobytes())
                ids = state.legal_ids()
                sink.update(json.dumps([seat, ids, state.standing()]).encode())
                state.apply_id(ids[rng.below(len(ids))])
    return sink.hexdigest()


if __name__ == "__main__":
    print(json.dumps({"native": karnak.native.status().state, "digest": digest()}))
