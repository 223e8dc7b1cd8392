"""Double elimination (karnak.server.tournaments.double_elimination): a worked bracket of
eight where the better seed always wins, and properties over many random brackets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karnak.core.rng import Rng
from karnak.server.tournaments.double_elimination import (
    FINAL,
    LOSERS,
    WINNERS,
    Played,
    Table,
    finished,
    losses,
    next_round,
    standing,
)


def play_out(players: list[str], winner_of: object, most_rounds: int = 64) -> list[list[Table]]:
    """Every round of a bracket, ``winner_of(table, round)`` choosing each game's winner."""
    played: list[Played] = []
    rounds: list[list[Table]] = []
    for number in range(1, most_rounds + 1):
        tables = next_round(players, played)
        if not tables:
            return rounds
        rounds.append(tables)
        for table in tables:
            winner = table.seats[0] if len(table.seats) == 1 else winner_of(table, number)  # type: ignore[operator]
            played.append(Played(number, table.bracket, table.seats, winner))
    raise AssertionError("the bracket did not end")


def test_eight_players_where_the_better_seed_always_wins() -> None:
    players = [f"p{i}" for i in range(1, 9)]
    seed = {p: i for i, p in enumerate(players)}
    rounds = play_out(players, lambda table, _: min(table.seats, key=seed.__getitem__))
    shape = [sorted((t.bracket, len(t.seats)) for t in r) for r in rounds]
    assert shape == [
        [(WINNERS, 2)] * 4,  # 1-8, 4-5, 2-7, 3-6
        [(LOSERS, 2)] * 2 + [(WINNERS, 2)] * 2,  # the four losers; 1-4, 2-3
        [(LOSERS, 2)] * 2 + [(WINNERS, 2)],  # survivors against the new arrivals; 1-2
        [(LOSERS, 1), (LOSERS, 2)],  # the survivors meet; the winners' final's loser waits
        [(LOSERS, 2)],  # the losers' final
        [(FINAL, 2)],  # 1 against 2: 1 wins, no reset
    ]
    assert {frozenset(t.seats) for t in rounds[0]} == {
        frozenset(s) for s in (("p1", "p8"), ("p4", "p5"), ("p2", "p7"), ("p3", "p6"))
    }
    assert set(rounds[-1][0].seats) == {"p1", "p2"}
    played = [
        Played(n, t.bracket, t.seats, min(t.seats, key=seed.__getitem__))
        for n, r in enumerate(rounds, 1)
        for t in r
    ]
    assert standing(players, played)[:3] == ["p1", "p2", "p3"]


def test_the_grand_final_is_played_again_when_the_unbeaten_player_loses() -> None:
    players = ["a", "b"]
    # a beats b; then b (one loss) beats a in the final: both have lost once, so again
    played = [Played(1, WINNERS, ("a", "b"), "a"), Played(2, FINAL, ("a", "b"), "b")]
    again = next_round(players, played)
    assert [(set(t.seats), t.bracket) for t in again] == [({"a", "b"}, FINAL)]
    played.append(Played(3, FINAL, again[0].seats, "b"))
    assert next_round(players, played) == [] and finished(players, played)
    assert standing(players, played) == ["b", "a"]


def test_the_unbeaten_player_waits_while_the_losers_bracket_plays() -> None:
    players = ["a", "b", "c", "d"]
    played = [
        Played(1, WINNERS, ("a", "d"), "a"),
        Played(1, WINNERS, ("b", "c"), "b"),
        Played(2, WINNERS, ("a", "b"), "a"),
        Played(2, LOSERS, ("c", "d"), "c"),
    ]
    tables = next_round(players, played)
    assert [(set(t.seats), t.bracket) for t in tables] == [({"b", "c"}, LOSERS)]


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10_000))
def test_every_bracket_ends_with_one_player_never_beaten_twice(size: int, seed: int) -> None:
    rng = Rng(seed)
    players = [f"p{i}" for i in range(size)]
    played: list[Played] = []
    number = 0
    while tables := next_round(players, played):
        number += 1
        assert number <= 4 * size + 2
        lost = losses(players, played)
        seated = [s for t in tables for s in t.seats]
        assert len(seated) == len(set(seated)), "someone plays twice in a round"
        assert all(lost[s] < 2 for s in seated), "someone out plays on"
        for table in tables:
            if table.bracket == WINNERS:
                assert all(lost[s] == 0 for s in table.seats)
            elif table.bracket == LOSERS:
                assert all(lost[s] == 1 for s in table.seats)
            winner = table.seats[rng.below(len(table.seats))]
            played.append(Played(number, table.bracket, table.seats, winner))
    lost = losses(players, played)
    assert sorted(lost.values())[1:] == [2] * (size - 1) and min(lost.values()) < 2
    games = sum(1 for g in played if len(g.seats) == 2)
    assert games in (2 * size - 2, 2 * size - 1)  # one more when the final is played again
    assert standing(players, played)[0] == min(lost, key=lost.__getitem__)
