"""A game's research facts as Markdown: its description and its tensors' named slices.

docs/research.md carries these tables for the documented table sizes (a test keeps them equal
to the code); for any other table size or options, print them::

    python -m karnak.envs.describe amunre --players 5
    python -m karnak.envs.describe amunre --players 4 --option offer_cards=true
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from karnak.core.errors import KarnakError
from karnak.core.registry import available_games, get_game


def description_table(name: str, players: int, options: Mapping[str, Any] | None = None) -> str:
    """The game description at this table as a two-column Markdown table."""
    game = get_game(name)
    rows = []
    solo = ("score", "final_score", "status")
    schemes = solo if players == 1 else ("win", "score", "rank", "final_score")
    d = game.describe(players, options)
    seats = f"{players} seat{'s' if players != 1 else ''}"
    rows.append(("game", f"{d.title} (rules {d.version}), {seats}"))
    rows.append(("type", f"{d.dynamics}, {d.information} information, {d.chance} chance"))
    rows.append(("utility", d.utility.replace("_", "-")))
    for scheme in schemes:
        ranged = game.describe(players, options, scheme)
        default = " (default)" if scheme == d.rewards else ""
        rows.append(
            (
                f'rewards "{ranged.rewards}"{default}',
                f"{ranged.reward_model}, from {ranged.min_utility:g} to {ranged.max_utility:g}",
            )
        )
    rows.append(("distinct action ids", str(d.num_distinct_actions)))
    rows.append(("max game length (ids)", str(d.max_game_length)))
    rows.append(("observation tensor", f"{d.observation_size} floats"))
    rows.append(("information state tensor", f"{d.information_state_size} floats"))
    rows.append(("spelled part (after either tensor)", f"{d.spelled_size} floats"))
    rows.append(
        (
            "an adapter's vector",
            f"{d.information_state_vector_size} floats (information state, the default); "
            f"{d.observation_vector_size} (observation)",
        )
    )
    lines = ["| | |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in rows]
    return "\n".join(lines)


def layout_tables(name: str, players: int, options: Mapping[str, Any] | None = None) -> str:
    """The observation tensor's table, then the parts the information state tensor adds (it
    is the observation followed by a summary of what the seat witnessed)."""
    game = get_game(name)
    observation = game.observation_layout(players, options)
    information = game.information_state_layout(players, options)
    names = [placed.part.name for placed in observation.parts]
    added = information.rows()[len(names) :]
    if [row[0] for row in information.rows()[: len(names)]] != names:
        raise ValueError(f"{name}: the information state does not begin with the observation")
    lines = ["| part | shape | slice | range | meaning |", "|---|---|---|---|---|"]
    lines += [f"| `{n}` | {shape} | {a}:{b} | {r} | {m} |" for n, shape, a, b, r, m in added]
    seats = f"{players} seat{'s' if players != 1 else ''}"
    return "\n\n".join(
        (
            f"Observation tensor ({seats}, {observation.size} floats):",
            observation.to_markdown(),
            f"The information state tensor ({information.size} floats) is the observation "
            "followed by:",
            "\n".join(lines),
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m karnak.envs.describe", description=__doc__.splitlines()[0]
    )
    parser.add_argument("game", choices=available_games())
    parser.add_argument("--players", type=int, help="table size (default: the smallest of 2+)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    args = parser.parse_args(argv)
    game = get_game(args.game)
    players = args.players or max(game.min_players, min(2, game.max_players))
    options: dict[str, Any] = {}
    for item in args.option:
        key, equals, value = item.partition("=")
        if not equals:
            parser.error(f"--option takes NAME=VALUE, not {item!r}")
        options[key.strip()] = value
    try:
        print(description_table(args.game, players, options))
        print()
        print(layout_tables(args.game, players, options))
    except KarnakError as problem:
        parser.error(str(problem))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
