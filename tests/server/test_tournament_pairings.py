"""Tournament pairings (karnak.server.tournaments): Swiss standings and pairs, elimination
brackets. Pure functions: worked examples and properties over many random tournaments."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karnak.core.rng import Rng
from karnak.server.tournaments.elimination import bracket_order, first_round, next_round
from karnak.server.tournaments.pools import place_points, seat_tables, table_sizes
from karnak.server.tournaments.swiss import Game, pair, standings


def test_standings_count_points_then_buchholz() -> None:
    ratings = {"a": 10.0, "b": 9.0, "c": 8.0, "d": 7.0}
    games = [Game("a", "b", 1.0), Game("c", "d", 1.0), Game("a", "c", 0.5), Game("b", "d", 1.0)]
    table = standings(ratings, games)
    assert [(s.player, s.points) for s in table] == [("a", 1.5), ("c", 1.5), ("b", 1.0), ("d", 0.0)]
    # a and c share 1.5: a met b (1) and c (1.5) = 2.5; c met d (0) and a (1.5) = 1.5
    assert table[0].buchholz == 2.5 and table[1].buchholz == 1.5


def test_the_first_round_pairs_by_rating_and_the_lowest_sits_out() -> None:
    ratings = {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}
    pairs = pair(ratings, [])
    assert pairs == [("a", "b"), ("c", "d"), ("e", None)]


def test_no_rematch_while_another_pairing_exists() -> None:
    ratings = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}
    # a-b and c-d met; a and c won: the top pair would be a-c (both 1 point)
    games = [Game("a", "b", 1.0), Game("c", "d", 1.0)]
    first = {frozenset(p) for p in pair(ratings, games)}
    assert first == {frozenset("ac"), frozenset("bd")}
    games += [Game("a", "c", 1.0), Game("b", "d", 1.0)]
    assert {frozenset(p) for p in pair(ratings, games)} == {frozenset("ad"), frozenset("bc")}


def test_the_first_seat_goes_to_who_had_it_less() -> None:
    ratings = {"a": 2.0, "b": 1.0}
    games = [Game("a", "b", 1.0)]
    assert pair(ratings, games) == [("b", "a")]  # a meets b again: the only pairing


def play_out(players: int, rounds: int, seed: int) -> tuple[dict[str, float], list[Game]]:
    rng = Rng(seed)
    ratings = {f"p{i:02d}": float(rng.below(3000)) for i in range(players)}
    games: list[Game] = []
    for _ in range(rounds):
        for first, second in pair(ratings, games):
            score = 1.0 if second is None else rng.below(3) / 2
            games.append(Game(first, second, score))
    return ratings, games


def rematch_free_exists(players: list[str], met: set[frozenset[str]]) -> bool:
    if not players:
        return True
    head, rest = players[0], players[1:]
    return any(
        frozenset((head, other)) not in met
        and rematch_free_exists([p for p in rest if p != other], met)
        for other in rest
    )


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12), st.integers(1, 7), st.integers(0, 10_000))
def test_every_round_seats_everyone_once_and_avoids_rematches(
    players: int, rounds: int, seed: int
) -> None:
    ratings, games = play_out(players, rounds, seed)
    pairs = pair(ratings, games)
    seated = [p for pair_ in pairs for p in pair_ if p is not None]
    assert sorted(seated) == sorted(ratings)  # everyone once
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == players % 2
    had_bye = {g.first for g in games if g.second is None}
    if byes and len(had_bye) < players:
        assert byes[0] not in had_bye  # no second bye while someone has had none
    met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
    rematches = [p for p in pairs if p[1] is not None and frozenset(p) in met]
    if rematches:  # only when no pairing without one exists
        paired = [p for p in ratings if p not in byes]
        assert not rematch_free_exists(paired, met)
    table = {s.player: s for s in standings(ratings, games)}
    for first, second in pairs:
        if second is not None:
            a, b = table[first], table[second]
            assert a.firsts - a.seconds <= b.firsts - b.seconds


def test_bracket_order_keeps_the_best_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (4, 8, 16, 32):
        order = bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        for part in (2, 4):  # the best two in different halves, the best four quarters
            chunk = size // part
            places = {order.index(seed) // chunk for seed in range(1, part + 1)}
            assert len(places) == part
    with pytest.raises(ValueError):
        bracket_order(6)


def test_a_bracket_gives_the_byes_to_the_best_and_goes_on_with_the_winners() -> None:
    players = [f"s{i}" for i in range(1, 7)]
    pairs = first_round(players)
    assert len(pairs) == 4
    assert sorted(a for a, b in pairs if b is None) == ["s1", "s2"]
    assert all(b is not None for a, b in pairs if a not in ("s1", "s2"))
    assert next_round(["s1", "s4", "s2", "s3"]) == [("s1", "s4"), ("s2", "s3")]
    with pytest.raises(ValueError):
        first_round(["alone"])
    for count in range(2, 20):
        field = [f"p{i}" for i in range(count)]
        seated = [p for pair_ in first_round(field) for p in pair_ if p is not None]
        assert sorted(seated) == sorted(field)


def test_pools_split_the_field_evenly_into_as_few_tables_as_fit() -> None:
    assert table_sizes(13, 3, 5) == [5, 4, 4]
    assert table_sizes(7, 3, 5) == [4, 3]
    assert table_sizes(6, 3, 5) == [3, 3]
    assert table_sizes(5, 3, 5) == [5]
    for bad in ((2, 3, 5), (4, 3, 3), (7, 4, 4)):
        with pytest.raises(ValueError):
            table_sizes(*bad)


@given(st.integers(3, 99), st.sampled_from([(3, 5), (3, 4), (2, 2), (4, 5), (2, 99)]))
def test_every_pool_fits_its_game(players: int, bounds: tuple[int, int]) -> None:
    least, most = bounds
    try:
        sizes = table_sizes(players, least, most)
    except ValueError:
        assert all(players < k * least or players > k * most for k in range(1, players + 1))
        return
    assert sum(sizes) == players and max(sizes) - min(sizes) <= 1
    assert all(least <= size <= most for size in sizes)
    # as few tables as can be: no smaller number of tables holds the field
    assert not any(k * least <= players <= k * most for k in range(1, len(sizes)))


def test_the_snake_spreads_the_field_over_the_tables() -> None:
    ranked = [str(i) for i in range(1, 10)]
    assert seat_tables(ranked, 3, 5) == [["1", "4", "5", "8", "9"], ["2", "3", "6", "7"]]
    assert seat_tables(ranked, 3, 3) == [["1", "6", "7"], ["2", "5", "8"], ["3", "4", "9"]]


def test_places_give_points_on_the_scale_of_the_largest_table() -> None:
    assert place_points([1, 2, 3, 4, 5], 5) == [4, 3, 2, 1, 0]
    assert place_points([3, 1, 2], 5) == [0, 4, 2]
    assert place_points([1, 1, 3], 3) == [1.5, 1.5, 0]


def test_the_first_seat_of_a_bracket_game_goes_to_who_had_it_less() -> None:
    from karnak.server.tournaments.elimination import seated

    seed = {"a": 0, "b": 1}
    assert seated("a", "b", {}, seed) == ("a", "b")  # a tie: the better seed
    assert seated("a", "b", {"a": 2, "b": 1}, seed) == ("b", "a")
    assert seated("b", "a", {"a": 1, "b": 1}, seed) == ("a", "b")
