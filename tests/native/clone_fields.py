"""Check, as pure Python, that each game's ``clone`` copies every field of its state.

The clones are written out field by field (a compiled class has no ``__dict__`` to copy), so a
field added to a state but not to its ``clone`` would be silently shared or lost. Run by
``test_native.py`` with ``KARNAK_NATIVE=0``, where ``vars()`` shows every field.
"""

from __future__ import annotations

import sys

from karnak.core import Rng, get_game

SHARED = {"history", "log", "rng"}  # copied into new objects of their own kind


def main() -> int:
    checked = 0
    for name, counts in (("amunre", (3, 4, 5)), ("aton", (2,)), ("egyptia", (1, 2, 5))):
        game = get_game(name)
        for players in counts:
            for seed in range(8):
                state = game.new_state(players, seed=seed)
                rng = Rng(seed)
                while not state.is_over():
                    copy = state.clone()
                    mine, theirs = vars(state), vars(copy)
                    if set(mine) != set(theirs):
                        print(f"{name}: clone misses {sorted(set(mine) ^ set(theirs))}")
                        return 1
                    for field, value in mine.items():
                        if field not in SHARED and theirs[field] != value:
                            print(f"{name}: clone's {field} differs")
                            return 1
                    checked += 1
                    seat = state.to_move()[0]
                    legal = state.legal_actions(seat)
                    state.apply_unchecked(seat, legal[rng.below(len(legal))])
    print(f"{checked} clones checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
