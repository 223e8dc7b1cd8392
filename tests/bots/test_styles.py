"""Bots with a character: each seat's style (a mild, seeded variation of the heuristic's
weights and random tie-breaks) makes two bots of one level play differently, reproducibly,
while a bot without a style plays exactly as before."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from karnak.bots import SeatView, make_bot
from karnak.bots.arena import bot_rngs, run_arena
from karnak.bots.base import BotSpecError, game_style, split_style
from karnak.bots.ismcts import ISMCTSBot
from karnak.core import Rng
from karnak.core.agent import StyledBot
from karnak.core.knowledge import (
    MAX_STYLE_CHANGE,
    NO_STYLE,
    STYLES,
    current_style,
    make_style,
    pick,
    playing,
    seat_style,
    styled_policy,
    tastes,
    weight,
)
from karnak.core.registry import get_game, plugin_for
from karnak.server.bot_runner import bot_seed, bot_style, position, think

GAMES = ("amunre", "aton", "egyptia")
PLAIN = "heuristic@style=0"


# ------------------------------------------------------------------ styles themselves
def test_a_style_is_drawn_from_its_number_alone_within_the_declared_bounds() -> None:
    bounds = {"A": 0.1, "B": 0.3, "C": 0.9}
    style = make_style(17, bounds)
    assert style == make_style(17, dict(reversed(bounds.items())))  # order does not matter
    assert style.factors != make_style(18, bounds).factors
    assert abs(style.factor("A") - 1) <= 0.1
    assert abs(style.factor("B") - 1) <= 0.3
    assert abs(style.factor("C") - 1) <= MAX_STYLE_CHANGE  # a game's bound is capped
    assert style.factor("undeclared") == 1.0
    assert make_style(0, bounds) is NO_STYLE and not NO_STYLE
    with pytest.raises(ValueError):
        make_style(-1, bounds)


def test_over_many_styles_the_factors_spread_over_their_bounds() -> None:
    factors = [make_style(n, {"W": 0.2}).factor("W") for n in range(1, 401)]
    assert min(factors) < 0.85 and max(factors) > 1.15
    assert all(0.8 <= f <= 1.2 for f in factors)
    assert abs(statistics.mean(factors) - 1.0) < 0.03  # no drift: the level's mean weights


@pytest.mark.parametrize("seed", [0, 1, 7, 2**62 + 5, STYLES * 3 - 1])
def test_every_seat_of_a_table_gets_its_own_style_reproducibly(seed: int) -> None:
    styles = [seat_style(seed, seat) for seat in range(99)]
    assert len(set(styles)) == 99
    assert all(1 <= s <= STYLES for s in styles)
    assert styles == [seat_style(seed, seat) for seat in range(99)]
    assert styles == [bot_style(seed, seat) for seat in range(99)]
    assert styles != [seat_style(seed + 1, seat) for seat in range(99)]


def test_weights_are_the_constants_themselves_without_a_style() -> None:
    assert current_style() is NO_STYLE
    assert weight("W", 0.15) == 0.15
    style = make_style(5, {"W": 0.3})
    with playing(style):
        assert current_style() is style
        assert weight("W", 0.15) == pytest.approx(0.15 * style.factor("W"))
        assert weight("W", 0.15) != 0.15
        assert weight("other", 2.0) == 2.0
    assert current_style() is NO_STYLE  # restored, also after an error:
    with pytest.raises(RuntimeError), playing(style):
        raise RuntimeError
    assert current_style() is NO_STYLE


def test_ties_are_broken_at_random_only_with_a_style() -> None:
    rated = [(1.0, "a"), (3.0, "b"), (3.0, "c"), (3.0 - 1e-12, "d"), (2.0, "e")]
    assert {pick(rated, Rng(seed)) for seed in range(50)} == {"b"}
    with playing(make_style(3, {})):
        picked = [pick(rated, Rng(seed)) for seed in range(200)]
        assert set(picked) == {"b", "c", "d"}
        assert picked == [pick(rated, Rng(seed)) for seed in range(200)]  # seeded
        assert pick([(0.0, "x"), (5.0, "y")], Rng(1)) == "y"


def test_tastes_are_fixed_per_style_and_none_without() -> None:
    assert tastes(0, "hex", 5) == (0.0,) * 5
    a = tastes(4, "hex", 60)
    assert a == tastes(4, "hex", 60) and a != tastes(5, "hex", 60)
    assert all(-1.0 <= t <= 1.0 for t in a) and len(set(a)) == 60


# ------------------------------------------------------------------ specs
def test_a_spec_may_carry_a_style() -> None:
    assert split_style("heuristic") == ("heuristic", None)
    assert split_style(" Heuristic@Style=3 ") == ("heuristic", 3)
    assert split_style("ismcts:1s@style=0") == ("ismcts:1s", 0)
    for bad in (
        "heuristic@",
        "heuristic@3",
        "heuristic@style=-1",
        "heuristic@style=x",
        f"heuristic@style={STYLES + 1}",
        "heuristic@style=1234567",
        "h@style=1@style=2",
    ):
        with pytest.raises(BotSpecError):
            split_style(bad)


@pytest.mark.parametrize("name", GAMES)
def test_make_bot_styles_a_bot_from_its_spec_or_its_seat(name: str) -> None:
    game = get_game(name)
    plain = make_bot("heuristic", game)
    assert not isinstance(plain, StyledBot) and plain.style is NO_STYLE
    assert make_bot("heuristic@style=0", game, style=9).style is NO_STYLE  # the spec's wins
    assert make_bot("heuristic@style=3", game, style=9).style.number == 3
    seated = make_bot("heuristic", game, style=9)
    assert seated.style == game_style(game, 9) and seated.label() == "heuristic"
    knowledge = plugin_for(game).load_knowledge()
    assert knowledge is not None and knowledge.style_weights  # each game declares weights
    assert set(seated.style.factors) == set(knowledge.style_weights)
    assert all(0 < b <= MAX_STYLE_CHANGE for b in knowledge.style_weights.values())
    search = make_bot("ismcts:20@style=4", game)
    assert isinstance(search, ISMCTSBot) and search.style.number == 4
    assert search.label() == "ismcts:20 iterations"
    # its own moves by the styled policy, the others modelled by the plain one
    assert search.policy is knowledge.policy and search.own_policy is not search.policy


@pytest.mark.parametrize("name", GAMES)
def test_two_styled_medium_bots_choose_differently_where_plain_ones_agree(name: str) -> None:
    """Positions of random games: two heuristic bots with different styles, given the same
    view and generator, disagree somewhere; two plain ones never do. Every choice is legal."""
    game = get_game(name)
    a, b = make_bot("heuristic", game, style=11), make_bot("heuristic", game, style=12)
    plain = [make_bot("heuristic", game), make_bot("heuristic", game)]
    differ = decisions = 0
    for seed in range(6):
        state = game.new_state(game.seat_names(max(2, game.min_players)), seed=seed)
        walk = Rng(seed)
        while not state.is_over() and decisions < 400:
            seat = state.to_move()[0]
            view = SeatView.of(state, seat)
            choices = [bot.choose(view, Rng(seed * 1000 + decisions)) for bot in (a, b)]
            same = [bot.choose(view, Rng(seed * 1000 + decisions)) for bot in plain]
            assert all(c in view.legal_actions for c in choices)
            assert same[0] == same[1]
            differ += choices[0] != choices[1]
            decisions += 1
            state.apply(seat, view.legal_actions[walk.below(len(view.legal_actions))])
    assert differ > 0, f"{decisions} decisions, no difference"


def test_a_styled_policy_plays_under_its_style_and_restores_the_plain_one() -> None:
    seen = []

    def policy(state: Any, seat: int, rng: Rng) -> Any:
        seen.append(current_style().number)
        return "x"

    assert styled_policy(policy, NO_STYLE) is policy
    styled = styled_policy(policy, make_style(8, {}))
    nothing: Any = None
    result: Any = styled(nothing, 0, Rng(1))
    assert result == "x"
    assert seen == [8] and current_style() is NO_STYLE


# ------------------------------------------------------------------ a big Egyptia table
def egyptia_table(builders: int, seed: int, styled: bool) -> list[tuple[int, ...]]:
    game = get_game("egyptia")
    state: Any = game.new_state(game.seat_names(builders), seed=seed)
    bots = [
        make_bot("heuristic", game, style=seat_style(seed, s) if styled else None)
        for s in range(builders)
    ]
    rngs = bot_rngs(seed, builders)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(SeatView.of(state, seat), rngs[seat]))
    return [tuple(state.city[s]) for s in range(builders)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_eight_medium_builders_build_eight_different_cities(seed: int) -> None:
    plain = egyptia_table(8, seed, styled=False)
    assert len(set(plain)) == 1  # the old behaviour: one city, eight times
    cities = egyptia_table(8, seed, styled=True)
    assert len(set(cities)) == 8
    assert cities == egyptia_table(8, seed, styled=True)  # reproducible from the seed


def test_a_styled_medium_builder_alone_scores_as_the_plain_one() -> None:
    """Egyptia solo, 24 seeds: the styled heuristic's mean score stays within 4 points of the
    plain heuristic's (bench/results/bot_styles.md measures it over more seeds)."""
    game = get_game("egyptia")
    scores: dict[bool, list[int]] = {False: [], True: []}
    for seed in range(24):
        for styled in (False, True):
            state = game.new_state(game.seat_names(1), seed=seed)
            bot = make_bot("heuristic", game, style=seat_style(seed, 0) if styled else None)
            rng = bot_rngs(seed, 1)[0]
            while not state.is_over():
                state.apply(0, bot.choose(SeatView.of(state, 0), rng))
            scores[styled].append(state.scores()[0])
    assert scores[True] != scores[False]
    assert abs(statistics.mean(scores[True]) - statistics.mean(scores[False])) < 4.0


# ------------------------------------------------------------------ arena and server
def test_the_arena_styles_the_rows_asked_reproducibly_in_any_number_of_processes() -> None:
    game = get_game("aton")
    specs = ["heuristic", PLAIN]
    plain = run_arena(game, specs, 8, 5, {})
    styled = run_arena(game, specs, 8, 5, {}, styled=["heuristic"])
    again = run_arena(game, specs, 8, 5, {}, jobs=2, styled=["Heuristic"])
    assert [o.scores for o in styled.outcomes] == [o.scores for o in again.outcomes]
    assert [o.scores for o in styled.outcomes] != [o.scores for o in plain.outcomes]
    assert [row.bot for row in styled.rows] == ["heuristic", PLAIN]


@pytest.mark.parametrize("name", GAMES)
def test_a_server_bot_thinks_with_its_seats_style(name: str) -> None:
    game = get_game(name)
    state = game.new_state(game.seat_names(max(2, game.min_players)), seed=4)
    walk = Rng(2)
    checked = 0
    while not state.is_over() and checked < 30:
        seat = state.to_move()[0]
        seed = bot_seed(4, len(state.history), seat)
        style = bot_style(4, seat)
        for spec in ("heuristic", "heuristic@style=5"):
            sent = think(position(state), seat, spec, seed, 600.0, 10_000, style=style)
            bot = make_bot(spec, game, style=style)
            assert sent == bot.choose(SeatView.of(state, seat), Rng(seed)).to_text()
        plain = think(position(state), seat, "heuristic", seed, 600.0, 10_000)
        assert (
            plain
            == make_bot("heuristic", game).choose(SeatView.of(state, seat), Rng(seed)).to_text()
        )
        checked += 1
        legal = state.legal_actions(seat)
        state.apply(seat, legal[walk.below(len(legal))])
    assert checked == 30
