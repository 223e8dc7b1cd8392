"""Pools for games of three to five seats (Amun-Re, Egyptia): tables each round, and a
points table that turns places into tournament points.

- **Table sizes.** A field is split into as few tables as the largest size allows, as even
  as can be (13 players at tables of 3 to 5: 5, 4, 4; 7 at 3 to 5: 4, 3). A field that
  cannot be split so (2 players for tables of 3 or more) is refused.
- **Who sits together.** The first round seeds by rating, later rounds by the standings, in
  a snake over the tables (1 2 3 / 6 5 4 / 7 8 9 ... down the columns), so each table gets
  a mix of the field rather than the top players together.
- **Points.** A place is worth the number of players it beat at its table, scaled to the
  largest table so a table of three does not give fewer points for the same result
  (first of five: 4, of four: 4, of three: 4; last: 0 everywhere; the places between,
  evenly). Shared places share their points. A player who left the game is last.
"""

from __future__ import annotations

from collections.abc import Sequence


def table_sizes(players: int, least: int, most: int) -> list[int]:
    """The sizes of the tables for ``players`` (largest first); ValueError if none fit."""
    if not 2 <= least <= most:
        raise ValueError("a table has at least two seats, and least <= most")
    tables = -(-players // most)  # as few as the largest size allows
    while tables * least <= players:
        if tables * most >= players:
            base, extra = divmod(players, tables)
            return [base + 1] * extra + [base] * (tables - extra)
        tables += 1
    raise ValueError(f"{players} players cannot sit at tables of {least} to {most}")


def seat_tables(ranked: Sequence[str], least: int, most: int) -> list[list[str]]:
    """``ranked`` (best first) seated at tables in a snake: the first ``len(tables)`` go one
    to a table, the next in the reverse order, and so on, each table taking players until
    it is full."""
    sizes = table_sizes(len(ranked), least, most)
    tables: list[list[str]] = [[] for _ in sizes]
    forward = True
    index = 0
    while index < len(ranked):
        order = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for table in order:
            if index < len(ranked) and len(tables[table]) < sizes[table]:
                tables[table].append(ranked[index])
                index += 1
        forward = not forward
    return tables


def place_points(places: Sequence[int], most: int) -> list[float]:
    """Tournament points of each seat of one table from its places (1 is first; equal
    numbers share a place), scaled to a table of ``most`` seats (see the docstring)."""
    size = len(places)
    if size < 2:
        raise ValueError("a table has two seats at least")
    scale = (most - 1) / (size - 1)
    points = []
    for place in places:
        beaten = sum(1 for other in places if other > place)
        tied = sum(1 for other in places if other == place) - 1
        points.append(round((beaten + tied / 2) * scale, 2))
    return points
