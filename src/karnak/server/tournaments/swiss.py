"""Swiss pairings for two-player games: standings, tie-breaks and the next round's pairs.

The rules, as many clubs play them (the Monrad system: simpler than FIDE's Dutch system,
which splits each score group in halves, and with the same guarantees that matter here):

- **Points.** A win is 1, a draw ½, a loss 0; a bye is a win (1 point).
- **Standings.** Points, then Buchholz (the sum of the opponents' points: who met the
  stronger field), then the median Buchholz (the same without the best and the worst
  opponent), then the rating the tournament started with, then the name.
- **Pairing.** Players meet others on the same score as far as possible: from the top of
  the standings down, each player takes the highest-placed opponent they have not met yet,
  and the search goes back when a choice would leave someone below with nobody new to
  meet. No rematches while any pairing without one exists (only then is the pairing with
  the fewest rematches taken).
- **The bye.** With an odd number, the lowest-placed player who has had no bye sits out
  and scores 1.
- **Seats.** Each pair's first seat (the side that starts: Red in Aton) goes to whoever had
  it fewer times; on a tie, to the one who had the second seat last, else the
  higher-placed one. So over a tournament nobody starts more than one game more than
  they follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: How many steps the search for a rematch-free pairing may take before it settles for
#: the fewest rematches (a field of 128 finds one in far fewer).
SEARCH_STEPS = 200_000


@dataclass(frozen=True)
class Game:
    """A finished (or byed) pairing: ``first`` had the first seat; ``second`` None is a
    bye; ``score`` is the first seat's points (1, ½ or 0)."""

    first: str
    second: str | None
    score: float


@dataclass(frozen=True)
class Standing:
    player: str
    points: float
    buchholz: float
    median_buchholz: float
    rating: float
    opponents: tuple[str, ...]
    firsts: int
    seconds: int
    byes: int
    last_seat: int | None  # 0 first, 1 second, None never played


def standings(ratings: dict[str, float], games: Iterable[Game]) -> list[Standing]:
    """Every player's standing, best first (see the module's docstring)."""
    played = list(games)
    points = dict.fromkeys(ratings, 0.0)
    opponents: dict[str, list[str]] = {p: [] for p in ratings}
    firsts, seconds, byes = (
        dict.fromkeys(ratings, 0),
        dict.fromkeys(ratings, 0),
        dict.fromkeys(ratings, 0),
    )
    last: dict[str, int | None] = dict.fromkeys(ratings)
    for game in played:
        if game.second is None:
            points[game.first] += 1.0
            byes[game.first] += 1
            continue
        points[game.first] += game.score
        points[game.second] += 1.0 - game.score
        opponents[game.first].append(game.second)
        opponents[game.second].append(game.first)
        firsts[game.first] += 1
        seconds[game.second] += 1
        last[game.first], last[game.second] = 0, 1
    rows = []
    for player in ratings:
        faced = sorted(points[o] for o in opponents[player])
        buchholz = sum(faced)
        median = sum(faced[1:-1]) if len(faced) > 2 else buchholz
        rows.append(
            Standing(
                player,
                points[player],
                buchholz,
                median,
                ratings[player],
                tuple(opponents[player]),
                firsts[player],
                seconds[player],
                byes[player],
                last[player],
            )
        )
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.median_buchholz, -s.rating, s.player))
    return rows


def _seats(a: Standing, b: Standing) -> tuple[str, str]:
    """Who of ``a`` (placed higher) and ``b`` takes the first seat."""
    if a.firsts - a.seconds != b.firsts - b.seconds:
        return (
            (a.player, b.player)
            if a.firsts - a.seconds < b.firsts - b.seconds
            else (b.player, a.player)
        )
    if a.last_seat != b.last_seat:
        if a.last_seat == 1:
            return a.player, b.player
        if b.last_seat == 1:
            return b.player, a.player
    return a.player, b.player


def pair(ratings: dict[str, float], games: Sequence[Game]) -> list[tuple[str, str | None]]:
    """The next round: pairs ``(first seat, second seat)``, and ``(player, None)`` for the
    bye (see the module's docstring)."""
    table = standings(ratings, games)
    bye: str | None = None
    if len(table) % 2:
        for row in reversed(table):
            if row.byes == 0:
                bye = row.player
                break
        else:  # everyone has had one: the lowest placed again
            bye = table[-1].player
        table = [row for row in table if row.player != bye]
    met = {row.player: set(row.opponents) for row in table}
    order = [row.player for row in table]
    by_name = {row.player: row for row in table}
    found = search(order, met, SEARCH_STEPS)
    if found is None:  # no pairing without a rematch: the greedy one, fewest rematches first
        found = _fewest_rematches(order, met)
    pairs: list[tuple[str, str | None]] = [_seats(by_name[a], by_name[b]) for a, b in found]
    if bye is not None:
        pairs.append((bye, None))
    return pairs


def search(
    order: list[str], met: dict[str, set[str]], budget: int, *, furthest_first: bool = False
) -> list[tuple[str, str]] | None:
    """A pairing of ``order`` without rematches, top-down, each head taking the first
    opponent it has not met: the highest-placed (Swiss), or with ``furthest_first`` the
    furthest down (a losers' bracket, where early droppers meet the newest arrivals); the
    search goes back when a choice leaves someone with nobody new. None if there is no
    such pairing within ``budget`` steps."""
    steps = 0

    def go(left: list[str]) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not left:
            return []
        head, rest = left[0], left[1:]
        indices = range(len(rest) - 1, -1, -1) if furthest_first else range(len(rest))
        for index in indices:
            steps += 1
            if steps > budget:
                return None
            other = rest[index]
            if other in met[head]:
                continue
            tail = go(rest[:index] + rest[index + 1 :])
            if tail is not None:
                return [(head, other), *tail]
        return None

    return go(order)


def _fewest_rematches(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Top-down, each taking the highest-placed opponent not met, else the highest-placed."""
    left = list(order)
    pairs = []
    while left:
        head = left.pop(0)
        choice = next((o for o in left if o not in met[head]), left[0])
        left.remove(choice)
        pairs.append((head, choice))
    return pairs
