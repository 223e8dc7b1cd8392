"""The bot arena: seat rotation, totals per bot spec, intervals, ratings, processes, failures.

Most tests use a tiny stand-in game (``Race``) whose outcome the bots decide outright, so a
test can say who must win or tie; Amun-Re with random bots checks the real thing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from karnak.bots import base as bot_base
from karnak.bots.arena import (
    ArenaGameError,
    RatingBook,
    bot_rngs,
    mean_interval,
    run_arena,
    seating,
    wilson_interval,
)
from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.cli.simulate import bot_rngs as simulate_bot_rngs
from karnak.core import Game, InvalidOptionError, Rng, State, get_game
from karnak.core.events import EventLog

AMUNRE = get_game("amunre")


# ---------------------------------------------------------------------- a stand-in game
@dataclass(frozen=True)
class Step:
    size: int

    def to_text(self) -> str:
        return f"step {self.size}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "step", "size": self.size}


#: Race games with this seed break in their fourth action, like an engine bug would.
BROKEN_SEED = 13


class RaceState(State):
    """Seats take turns stepping 1 or 2, three times each; the longest total wins."""

    def __init__(self, game: Race, players: Sequence[str], seed: int):
        self.game = game
        self.players = tuple(players)
        self.seed = seed
        self.options = {}
        self.history = []
        self.log = EventLog(enabled=False)
        self.totals = [0] * len(players)

    def to_move(self) -> tuple[int, ...]:
        if self.is_over():
            return ()
        return (len(self.history) % len(self.players),)

    def legal_actions(self, seat: int) -> list[Any]:
        return [Step(1), Step(2)] if seat in self.to_move() else []

    def apply_unchecked(self, seat: int, action: Any) -> None:
        if self.seed == BROKEN_SEED and len(self.history) == 3:
            raise ZeroDivisionError("the engine broke")
        self.totals[seat] += action.size
        self.history.append((seat, action))

    def is_over(self) -> bool:
        return len(self.history) >= 3 * len(self.players)

    def scores(self) -> list[int]:
        return list(self.totals)

    def ranking_key(self, seat: int) -> tuple[int, ...]:
        return (self.totals[seat],)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"totals": list(self.totals)}

    def resample(self, seat: int, rng: Rng, *, history: bool = True) -> State:
        return self.clone(log=history)

    def clone(self, *, log: bool = True) -> State:
        other = RaceState(self.game, self.players, self.seed)
        other.totals = list(self.totals)
        other.history = list(self.history)
        return other

    def to_json(self) -> dict[str, Any]:
        return {"totals": self.totals}


class Race(Game):
    name = "race"
    title = "Race"
    version = "1"
    min_players = 2
    max_players = 5

    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> RaceState:
        names = self.seat_names(players) if isinstance(players, int) else list(players)
        return RaceState(self, names, seed)

    def parse_action(self, text: str) -> Any:
        return Step(int(text.split()[1]))

    def action_from_json(self, data: Mapping[str, Any]) -> Any:
        return Step(int(data["size"]))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        raise NotImplementedError


RACE = Race()


class Stepper(Bot):
    """Always the same step: ``long`` (2) wins against ``short`` (1) and ties with itself."""

    def __init__(self, size: int):
        self.size = size

    def choose(self, view: SeatView, rng: Rng) -> Any:
        return Step(self.size)


@pytest.fixture()
def steppers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Registers ``long``, ``long2`` (the same bot under another name) and ``short``."""
    bot_base.available_bots()  # load the built-in bots before the registry is copied
    monkeypatch.setattr(bot_base, "_REGISTRY", dict(bot_base._REGISTRY))

    def make(size: int) -> Any:
        return lambda game, budget: Stepper(size)

    register_bot("long", make(2), help="steps 2")
    register_bot("long2", make(2), help="steps 2 too")
    register_bot("short", make(1), help="steps 1")
    yield


# ---------------------------------------------------------------------- seats
def test_seating_rotates_every_entry_through_every_seat() -> None:
    specs = ["a", "b", "c", "d"]
    assert seating(specs, 0) == ("a", "b", "c", "d")
    assert seating(specs, 1) == ("b", "c", "d", "a")
    for entry in specs:
        seats = [seating(specs, i).index(entry) for i in range(4)]
        assert sorted(seats) == [0, 1, 2, 3]


@pytest.mark.usefixtures("steppers")
def test_rotation_is_balanced_and_reported_per_seat() -> None:
    result = run_arena(RACE, ["long", "short", "short"], games=6, seed=0, options={})
    assert result.balanced
    assert [o.seats for o in result.outcomes[:3]] == [
        ("long", "short", "short"),
        ("short", "short", "long"),
        ("short", "long", "short"),
    ]
    assert result.row("long").seat_games == (2, 2, 2)
    assert result.row("short").seat_games == (4, 4, 4)

    uneven = run_arena(RACE, ["long", "short", "short"], games=4, seed=0, options={})
    assert not uneven.balanced
    assert uneven.row("long").seat_games == (2, 1, 1)
    assert uneven.to_json()["balanced"] is False


# ---------------------------------------------------------------------- totals
@pytest.mark.usefixtures("steppers")
def test_identical_specs_form_one_row() -> None:
    result = run_arena(RACE, ["short", "long", "Short ", "short"], games=8, seed=0, options={})
    assert [row.bot for row in result.rows] == ["short", "long"]
    short, long = result.rows
    assert short.entries == (0, 2, 3)
    assert short.games == 3 * 8 and long.games == 8
    assert long.wins == 8 and short.wins == 0
    assert long.win_rate == 1.0
    assert long.mean_score == 6 and short.mean_score == 3
    assert long.mean_rank == 1 and short.mean_rank == 2
    assert long.decisions == 3 * 8 and short.decisions == 9 * 8
    assert long.think_per_decision is not None and long.think_per_decision >= 0


@pytest.mark.usefixtures("steppers")
def test_shared_wins_count_as_fractions() -> None:
    result = run_arena(RACE, ["long", "long2", "short"], games=6, seed=0, options={})
    assert result.shared_games == 6
    assert result.row("long").wins == 3.0
    assert result.row("long2").wins == 3.0
    assert result.row("long").shared_wins == 6
    assert result.row("short").wins == 0
    # a spec that ties with itself: its row gets the whole game
    mirror = run_arena(RACE, ["long", "long", "short"], games=3, seed=0, options={})
    assert mirror.row("long").wins == 3.0
    assert mirror.row("long").shared_wins == 6


def test_amunre_wins_add_up_to_the_games() -> None:
    result = run_arena(AMUNRE, ["random", "RANDOM", "random"], games=6, seed=4, options={})
    (row,) = result.rows
    assert row.games == 18
    assert row.wins == pytest.approx(6)
    assert row.seat_games == (6, 6, 6)
    assert result.options == AMUNRE.resolve_options({})


# ---------------------------------------------------------------------- statistics
@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # checked against the interval's definition, |p - p0| = z * sqrt(p0 (1 - p0) / n),
        # solved numerically
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (81, 263, 0.255289, 0.366210),
        (2.5, 10, 0.080948, 0.557819),
    ],
)
def test_wilson_interval(wins: float, games: int, low: float, high: float) -> None:
    assert wilson_interval(wins, games) == pytest.approx((low, high), abs=1e-6)


def test_wilson_interval_without_games_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_is_students_t_interval() -> None:
    # six values: mean 5/3, sample deviation 1.8348..., t(5) = 2.57
    mean, half = mean_interval([1.0, 3.0, 2.5, -1.0, 4.0, 0.5])
    assert mean == pytest.approx(5 / 3)
    assert half == pytest.approx(2.57 * 1.8348478592697 / 6**0.5)
    # 21 values (20 degrees of freedom) use t(19) = 2.09, 40 values the normal 1.96
    assert mean_interval([0.0, 2.0] * 10 + [1.0])[1] == pytest.approx(
        2.09 * (20 / 20) ** 0.5 / 21**0.5, rel=1e-3
    )
    assert mean_interval([0.0, 2.0] * 20)[1] == pytest.approx(1.96 * (40 / 39) ** 0.5 / 40**0.5)
    mean, half = mean_interval([3.0])
    assert mean == 3.0 and math.isnan(half)


def test_rating_of_a_bot_that_always_wins_rises() -> None:
    book = RatingBook(["winner", "loser"])
    history = []
    for _ in range(10):
        book.update(["winner", "loser", "loser"], [1, 2, 2])
        history.append(book.ratings["winner"])
    mus = [mu for mu, _ in history]
    sigmas = [sigma for _, sigma in history]
    assert mus == sorted(mus) and mus[0] > 25
    assert sigmas == sorted(sigmas, reverse=True)
    assert book.ratings["loser"][0] < 25


def test_rating_ties_are_symmetric_and_mirrors_cancel() -> None:
    book = RatingBook(["a", "b", "c", "d"])
    book.update(["a", "b", "c", "d"], [1, 1, 3, 4])
    mu = {label: rating[0] for label, rating in book.ratings.items()}
    assert mu["a"] == pytest.approx(mu["b"])
    assert mu["a"] > 25 > mu["c"] > mu["d"]  # unlike plain openskill, third place loses

    mirror = RatingBook(["x"])
    mirror.update(["x", "x", "x", "x"], [1, 2, 3, 4])
    assert mirror.ratings["x"][0] == pytest.approx(25)


@pytest.mark.usefixtures("steppers")
def test_arena_ratings_move_the_right_way() -> None:
    result = run_arena(RACE, ["long", "short", "short", "short"], games=8, seed=0, options={})
    long, short = result.row("long"), result.row("short")
    assert long.mu > 25 > short.mu
    assert long.ordinal > short.ordinal
    assert long.ordinal == pytest.approx(long.mu - 3 * long.sigma)
    rating = result.to_json()["bots"][0]["rating"]
    assert rating == {"mu": long.mu, "sigma": long.sigma, "ordinal": long.ordinal}


# ---------------------------------------------------------------------- determinism
def test_jobs_do_not_change_the_result() -> None:
    specs = ["random", "random", "random", "random"]
    alone = run_arena(AMUNRE, specs, games=8, seed=21, options={"edition": "2016"})
    done: list[int] = []
    pooled = run_arena(
        AMUNRE, specs, games=8, seed=21, options={"edition": "2016"}, jobs=2, progress=done.append
    )
    assert [(o.seed, o.seats, o.scores, o.ranks) for o in alone.outcomes] == [
        (o.seed, o.seats, o.scores, o.ranks) for o in pooled.outcomes
    ]
    assert json.dumps(alone.to_json(timings=False)) == json.dumps(pooled.to_json(timings=False))
    assert sorted(done) == list(range(1, 9))


def test_bot_generators_match_simulate() -> None:
    """An arena game can be played alone with ``karnak simulate`` (the CLI's hint says so)."""
    for seed in (0, 7, 12345):
        ours = [rng.state for rng in bot_rngs(seed, 4)]
        assert ours == [rng.state for rng in simulate_bot_rngs(seed, 4)]


def test_to_json_shape() -> None:
    result = run_arena(AMUNRE, ["random"] * 3, games=3, seed=0, options={})
    data = json.loads(json.dumps(result.to_json()))
    assert data["game"] == "amunre" and data["players"] == 3
    assert data["seeds"] == [0, 2]
    assert data["rating_model"]["name"] == "openskill PlackettLuce"
    (row,) = data["bots"]
    assert set(row) >= {
        "bot",
        "entries",
        "games",
        "seat_games",
        "wins",
        "win_rate",
        "win_interval",
        "mean_score",
        "rating",
        "think_seconds_per_decision",
    }
    assert "elapsed_seconds" in data
    assert "elapsed_seconds" not in result.to_json(timings=False)


# ---------------------------------------------------------------------- failures
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_game_names_its_seed(jobs: int) -> None:
    with pytest.raises(ArenaGameError, match=f"seed {BROKEN_SEED}") as caught:
        run_arena(RACE, ["random", "random", "random"], games=6, seed=10, options={}, jobs=jobs)
    error = caught.value
    assert error.seed == BROKEN_SEED
    assert error.seats == ("random", "random", "random")
    assert "ZeroDivisionError: the engine broke" in str(error)
    assert "ZeroDivisionError" in error.details


def test_bad_specs_and_counts_fail_before_any_game() -> None:
    with pytest.raises(bot_base.UnknownBotError, match=r"bots: .*random"):
        run_arena(AMUNRE, ["random", "genius", "random"], games=3, seed=0, options={})
    with pytest.raises(bot_base.BotSpecError):
        run_arena(AMUNRE, ["random:2s", "random", "random"], games=3, seed=0, options={})
    with pytest.raises(InvalidOptionError, match="3 to 5 players, not 2"):
        run_arena(AMUNRE, ["random", "random"], games=2, seed=0, options={})
    with pytest.raises(InvalidOptionError):
        run_arena(AMUNRE, ["random"] * 3, games=3, seed=0, options={"edition": "1999"})
    with pytest.raises(ValueError, match="at least one game"):
        run_arena(AMUNRE, ["random"] * 3, games=0, seed=0, options={})


def test_budget_specs_are_accepted() -> None:
    """Any spec ``make_bot`` accepts runs, budgets included (a tiny search budget here)."""
    if "ismcts" not in bot_base.available_bots(AMUNRE):
        pytest.skip("the ismcts bot is not available")
    budget = bot_base.parse_budget("5")
    assert budget == Budget(iterations=5)
    result = run_arena(AMUNRE, ["ismcts:5", "random", "random"], games=1, seed=0, options={})
    assert result.row("ismcts:5").games == 1


def test_heuristic_against_random() -> None:
    """With the Amun-Re heuristic (when present): same result in one or two processes."""
    try:
        bot_base.make_bot("heuristic", AMUNRE)
    except (bot_base.UnknownBotError, ImportError):
        pytest.skip("the Amun-Re heuristic is not available")
    specs = ["heuristic", "random", "random", "heuristic"]
    alone = run_arena(AMUNRE, specs, games=4, seed=3, options={})
    pooled = run_arena(AMUNRE, specs, games=4, seed=3, options={}, jobs=2)
    assert alone.to_json(timings=False) == pooled.to_json(timings=False)
    heuristic, random = alone.row("heuristic"), alone.row("random")
    assert heuristic.games == random.games == 8
    assert heuristic.wins + random.wins == pytest.approx(4)
