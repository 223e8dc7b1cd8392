"""Double elimination: a player is out after a second loss.

The bracket is kept as the losses each player has taken, which is all a double elimination
needs to know and what can always be worked out again from the games played:

- **Round 1** is a single-elimination first round (karnak.server.tournaments.elimination:
  the standard bracket order, the byes to the best seeds). Its losers drop to the *losers'
  bracket*.
- **The winners' bracket** (no loss yet) plays on as a single elimination, each pair's
  winners meeting in bracket order, until one player is left unbeaten.
- **The losers' bracket** (one loss) pairs its players each round: those who dropped
  earliest against those who dropped last (a survivor of the losers' bracket meets a new
  arrival from the winners' bracket, as in a printed bracket), with no rematch while a
  pairing without one exists. With an odd number, the newest arrival (then the better seed)
  sits the round out and goes on: that is the round where the printed bracket has its
  survivors play among themselves before the next arrivals come down.
- **The grand final.** While others are still in the losers' bracket, the last unbeaten
  player waits. When one is left on each side they meet; if the unbeaten one loses, both
  have lost once and they play again (the bracket reset), so the champion is the one
  player never beaten twice.
- **Seats.** The first seat goes to whoever has had it fewer times in the tournament, on a
  tie to the better seed.

A drawn game counts as won by the better seed (as in the single elimination). Pure
functions: the service stores what they return and feeds back what was played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from karnak.server.tournaments import elimination, swiss

WINNERS, LOSERS, FINAL = "winners", "losers", "final"
#: How many steps the search for a rematch-free losers' round may take.
SEARCH_STEPS = 50_000


@dataclass(frozen=True)
class Played:
    """A game played (or a bye: one seat) in ``round``, in ``bracket``, and its winner."""

    round: int
    bracket: str
    seats: tuple[str, ...]
    winner: str


@dataclass(frozen=True)
class Table:
    """A game of the next round: its seats (one: a bye) and its bracket."""

    seats: tuple[str, ...]
    bracket: str


def losses(players: Sequence[str], played: Sequence[Played]) -> dict[str, int]:
    """Each player's losses so far."""
    count = dict.fromkeys(players, 0)
    for game in played:
        for seat in game.seats:
            if seat != game.winner:
                count[seat] += 1
    return count


def standing(players: Sequence[str], played: Sequence[Played]) -> list[str]:
    """Everyone best first: the players still in (fewer losses first), then the others by
    the round they went out in (later is better), then by seed."""
    seed = {p: i for i, p in enumerate(players)}
    lost = losses(players, played)
    out_in: dict[str, int] = {}
    for game in played:
        for seat in game.seats:
            if seat != game.winner and lost[seat] >= 2:
                out_in[seat] = max(out_in.get(seat, 0), game.round)
    return sorted(
        players,
        key=lambda p: (lost[p] >= 2, lost[p] if lost[p] < 2 else 0, -out_in.get(p, 0), seed[p]),
    )


def finished(players: Sequence[str], played: Sequence[Played]) -> bool:
    return sum(1 for n in losses(players, played).values() if n < 2) <= 1


def next_round(players: Sequence[str], played: Sequence[Played]) -> list[Table]:
    """The next round's tables; ``players`` best seed first. Empty when it is over."""
    if len(players) < 2:
        raise ValueError("a bracket needs two players at least")
    if not played:
        return [
            Table((a,) if b is None else (a, b), WINNERS)
            for a, b in elimination.first_round(players)
        ]
    seed = {p: i for i, p in enumerate(players)}
    lost = losses(players, played)
    unbeaten = _winners_order(played, lost)
    once = [p for p in players if lost[p] == 1]
    if len(unbeaten) + len(once) <= 1:
        return []
    firsts = first_seats(played)
    if (len(unbeaten) <= 1 and len(once) <= 1) or (not unbeaten and len(once) == 2):
        pair = (*unbeaten, *once)
        return [Table(elimination.seated(pair[0], pair[1], firsts, seed), FINAL)]
    waiting = len(unbeaten) == 1  # the last unbeaten player waits for the losers' bracket
    tables = (
        [
            Table(elimination.seated(a, b, firsts, seed), WINNERS)
            for a, b in zip(unbeaten[::2], unbeaten[1::2], strict=True)
        ]
        if not waiting
        else []
    )
    return tables + _losers_round(once, played, firsts, seed)


def _winners_order(played: Sequence[Played], lost: dict[str, int]) -> list[str]:
    """The unbeaten players in bracket order: the winners of the latest winners' round."""
    latest = max((g.round for g in played if g.bracket == WINNERS), default=0)
    return [
        g.winner
        for g in played
        if g.round == latest and g.bracket == WINNERS and lost[g.winner] == 0
    ]


def first_seats(played: Sequence[Played]) -> dict[str, int]:
    """How many games each player has had the first seat in."""
    count: dict[str, int] = {}
    for game in played:
        if len(game.seats) > 1:
            count[game.seats[0]] = count.get(game.seats[0], 0) + 1
    return count


def _losers_round(
    once: list[str], played: Sequence[Played], firsts: dict[str, int], seed: dict[str, int]
) -> list[Table]:
    dropped: dict[str, int] = {}
    met: dict[str, set[str]] = {p: set() for p in once}
    for game in played:
        for seat in game.seats:
            if seat in met:
                met[seat].update(s for s in game.seats if s != seat)
                if seat != game.winner and seat not in dropped:
                    dropped[seat] = game.round
    order = sorted(once, key=lambda p: (dropped.get(p, 0), seed[p]))
    tables: list[Table] = []
    if len(order) % 2:
        newest = max(order, key=lambda p: (dropped.get(p, 0), -seed[p]))
        order.remove(newest)
        tables.append(Table((newest,), LOSERS))
    pairs = swiss.search(order, met, SEARCH_STEPS, furthest_first=True) or swiss.search(
        order, {p: set() for p in order}, SEARCH_STEPS, furthest_first=True
    )
    assert pairs is not None
    return [Table(elimination.seated(a, b, firsts, seed), LOSERS) for a, b in pairs] + tables
