"""Random-play speed of the Karnak engines, next to OpenSpiel references measured in the same run.

What is measured
    For each Karnak game and player count, games are played with a uniformly random legal
    action at every decision (seeded :class:`karnak.core.Rng`, each game started with its
    event log off, ``new_state(..., log=False)``, as search copies and training run), one
    game after another on one core in this process, for about ``--seconds`` seconds. The clock
    covers everything a search or training loop would pay for: starting the state,
    ``to_move``, ``legal_actions``, drawing the action and ``apply_unchecked``. Reported are
    actions applied per second, complete games per second and the mean actions per game.

The references
    The same loop, written in Python against pyspiel, plays two OpenSpiel games: ``oh_hell``
    (a trick-taking card game implemented in C++, default parameters and player count) and
    ``python_kuhn_poker`` (a tiny game implemented in pure Python). Chance nodes are resolved
    by sampling ``state.chance_outcomes()`` with the same kind of seeded generator, decisions
    are uniform over ``state.legal_actions()``. Every ``apply_action`` call is counted,
    chance outcomes included (dealing oh_hell is one chance action per card); Karnak games
    shuffle inside the engine, so they have no chance actions to count.

Why ratios
    Benchmark machines are shared and noisy, and absolute figures move by tens of percent
    between runs. Each Karnak row is therefore also divided by the references' actions/s
    measured in the same process; half of each reference's budget runs before the Karnak
    rows and half after, so slow drift affects both sides alike. The target for Amun-Re is
    at least 100,000 actions/s and at least 0.4 times oh_hell's actions/s; Aton has no
    target of its own and is reported alongside.

Player counts
    ``--players`` lists the counts to measure; each game plays those it allows (Amun-Re 3-5,
    Aton exactly 2, Egyptia 1-99). A game that allows none of them is measured at each count
    it allows. Without ``--players`` each game plays its own counts: Amun-Re 3, 4 and 5, Aton
    2, Egyptia 1, 5 and 99 (a solo game, a table, and the most the box allows). Egyptia's
    rounds are simultaneous: every builder has a column to choose, a plague, a building and
    perhaps a payment each round, so its games have many more actions with more builders.

What a search pays per step
    A second table times the calls a search bot makes, on positions taken from random games
    (every ``COST_EVERY``-th decision, in every phase; above 5 players every
    ``COST_EVERY * ceil(players / 5)``-th decision of fewer games, ``COST_GAMES * 5 / players``
    of them but at least 4, so that a 99-builder game does not keep tens of thousands of
    copies): ``clone(log=False)``, ``resample``
    (a world drawn from the deciding seat's information), ``legal_actions``, one
    ``apply_unchecked`` (on a clone made before the clock starts, with a random legal
    action) and ``observation``. Each is the mean over the positions, in microseconds, the
    least of three passes; states/s is clones per second.

Usage::

    python bench/engine.py [--seconds S] [--games amunre,aton,egyptia] [--players 2,3,4,5] [--json]
    python bench/engine.py --profile [--seconds S] [--games egyptia] [--players 99]

Without OpenSpiel installed (``pip install -e .[bench]``) the Karnak rows are still measured
and the reference columns are reported as missing.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.metadata
import io
import json
import platform
import pstats
import sys
import textwrap
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.core import Rng, get_game  # noqa: E402

TARGET_GAME = "amunre"
TARGET_ACTIONS_PER_SECOND = 100_000.0
TARGET_RATIO_OH_HELL = 0.4
REFERENCE_GAMES = ("oh_hell", "python_kuhn_poker")
BASE_SEED = 20_240_601
PROFILE_TOP = 25
COST_EVERY = 3  # every third decision of the random games is a timed position
COST_GAMES = 40  # random games that provide the timed positions
#: Each game's player counts when ``--players`` is not given.
DEFAULT_PLAYERS = {"amunre": (3, 4, 5), "aton": (2,), "egyptia": (1, 5, 99)}
DEFAULT_GAMES = "amunre,aton,egyptia"


@dataclass
class Measurement:
    """Counts from one timed run of random games."""

    actions: int = 0
    chance_actions: int = 0
    games: int = 0
    seconds: float = 0.0

    def add(self, other: Measurement) -> None:
        self.actions += other.actions
        self.chance_actions += other.chance_actions
        self.games += other.games
        self.seconds += other.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0


@dataclass
class Row:
    """One line of the report."""

    game: str
    players: int
    actions_per_second: float
    games_per_second: float
    actions_per_game: float
    games: int
    seconds: float
    chance_actions_per_game: float = 0.0
    ratio_oh_hell: float | None = None
    ratio_python_kuhn_poker: float | None = None
    meets_target: bool | None = None

    @classmethod
    def of(cls, game: str, players: int, m: Measurement) -> Row:
        return cls(
            game=game,
            players=players,
            actions_per_second=m.actions_per_second,
            games_per_second=m.games_per_second,
            actions_per_game=m.actions_per_game,
            games=m.games,
            seconds=m.seconds,
            chance_actions_per_game=m.chance_actions / m.games if m.games else 0.0,
        )


# --- Karnak ----------------------------------------------------------------------------------


def play_karnak_game(game: Any, players: int, seed: int, rng: Rng) -> int:
    """Play one uniformly random game to the end; return the number of actions applied."""
    state = game.new_state(players, seed=seed, log=False)
    below = rng.below
    actions = 0
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply_unchecked(seat, legal[below(len(legal))])
        actions += 1
    state.scores()
    return actions


def run_karnak(name: str, players: int, seconds: float) -> Measurement:
    """Play random games of ``name`` with ``players`` seats for about ``seconds`` seconds."""
    game = get_game(name)
    rng = Rng(BASE_SEED + players)
    play_karnak_game(game, players, BASE_SEED - 1, rng)  # warm-up: imports, caches
    m = Measurement()
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline or m.games == 0:
        m.actions += play_karnak_game(game, players, BASE_SEED + m.games, rng)
        m.games += 1
        now = time.perf_counter()
    m.seconds = now - start
    return m


def players_for(name: str, requested: list[int] | None) -> list[int]:
    """The requested player counts that ``name`` allows, or every count it allows; without a
    request, the game's own counts (:data:`DEFAULT_PLAYERS`)."""
    game = get_game(name)
    if requested is None:
        requested = list(DEFAULT_PLAYERS.get(name, ()))
    allowed = [p for p in requested if game.min_players <= p <= game.max_players]
    return allowed or list(range(game.min_players, game.max_players + 1))


@dataclass
class Costs:
    """Mean microseconds per call of what a search bot does at each step."""

    game: str
    players: int
    positions: int
    clone_us: float
    resample_us: float
    legal_actions_us: float
    apply_us: float
    observation_us: float

    @property
    def states_per_second(self) -> float:
        return 1e6 / self.clone_us if self.clone_us else 0.0


def sample_positions(name: str, players: int) -> list[Any]:
    """Positions from ``COST_GAMES`` seeded random games, every ``COST_EVERY``-th decision
    (with more than 5 players: fewer games, sparser decisions; see the module's text)."""
    game = get_game(name)
    rng = Rng(BASE_SEED + 7 * players)
    found = []
    every = COST_EVERY * max(1, -(-players // 5))
    games = COST_GAMES if players <= 5 else max(4, COST_GAMES * 5 // players)
    for g in range(games):
        state = game.new_state(players, seed=BASE_SEED + g, log=False)
        step = 0
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if step % every == 0:
                found.append(state.clone(log=False))
            state.apply_unchecked(seat, legal[rng.below(len(legal))])
            step += 1
    return found


def time_per_call(positions: list[Any], call: Any, repeat: int = 3) -> float:
    """Least over ``repeat`` passes of the mean microseconds of ``call(position)``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for position in positions:
            call(position)
        best = min(best, (time.perf_counter() - start) / len(positions))
    return best * 1e6


def time_apply(
    positions: list[Any], movers: list[int], chosen: list[Any], repeat: int = 3
) -> float:
    """Least over ``repeat`` passes of the mean microseconds of one ``apply_unchecked``, each
    on a fresh clone made before the clock starts."""
    best = float("inf")
    for _ in range(repeat):
        worlds = [p.clone(log=False) for p in positions]
        start = time.perf_counter()
        for world, seat, action in zip(worlds, movers, chosen, strict=True):
            world.apply_unchecked(seat, action)
        best = min(best, (time.perf_counter() - start) / len(positions))
    return best * 1e6


def measure_costs(name: str, players: int) -> Costs:
    positions = sample_positions(name, players)
    rng = Rng(BASE_SEED)
    movers = [p.to_move()[0] for p in positions]
    chosen = []
    for position, seat in zip(positions, movers, strict=True):
        legal = position.legal_actions(seat)
        chosen.append(legal[rng.below(len(legal))])
    pairs = list(zip(positions, movers, strict=True))
    return Costs(
        game=name,
        players=players,
        positions=len(positions),
        clone_us=time_per_call(positions, lambda p: p.clone(log=False)),
        resample_us=time_per_call(pairs, lambda ps: ps[0].resample(ps[1], rng)),
        legal_actions_us=time_per_call(pairs, lambda ps: ps[0].legal_actions(ps[1])),
        apply_us=time_apply(positions, movers, chosen),
        observation_us=time_per_call(pairs, lambda ps: ps[0].observation(ps[1])),
    )


def format_costs(costs: list[Costs]) -> str:
    header = (
        f"{'game':<18} {'players':>7} {'clone':>8} {'resample':>9} {'legal':>8} {'apply':>8}"
        f" {'observe':>8} {'states/s':>10}"
    )
    lines = [header, "-" * len(header)]
    for c in costs:
        lines.append(
            f"{c.game:<18} {c.players:>7} {c.clone_us:>8.1f} {c.resample_us:>9.1f}"
            f" {c.legal_actions_us:>8.1f} {c.apply_us:>8.1f} {c.observation_us:>8.1f}"
            f" {c.states_per_second:>10,.0f}"
        )
    return "\n".join(lines)


# --- OpenSpiel references -------------------------------------------------------------------


def load_pyspiel() -> Any | None:
    """The pyspiel module with OpenSpiel's Python games registered, or None if absent."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def open_spiel_version() -> str | None:
    try:
        return importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        return None


def sample_chance(outcomes: list[tuple[int, float]], rng: Rng) -> int:
    """An outcome drawn with its probability (the last one absorbs rounding)."""
    r = rng.random()
    for action, probability in outcomes:
        r -= probability
        if r < 0.0:
            return action
    return outcomes[-1][0]


def play_open_spiel_game(game: Any, rng: Rng) -> tuple[int, int]:
    """Play one random game; return (actions applied, of which chance outcomes)."""
    state = game.new_initial_state()
    below = rng.below
    actions = chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
            chance += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[below(len(legal))])
        actions += 1
    state.returns()
    return actions, chance


def run_open_spiel(game: Any, seconds: float, seed: int) -> Measurement:
    """Play random games of a loaded pyspiel game for about ``seconds`` seconds."""
    rng = Rng(seed)
    play_open_spiel_game(game, rng)  # warm-up
    m = Measurement()
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline or m.games == 0:
        actions, chance = play_open_spiel_game(game, rng)
        m.actions += actions
        m.chance_actions += chance
        m.games += 1
        now = time.perf_counter()
    m.seconds = now - start
    return m


def load_references(pyspiel: Any) -> dict[str, Any]:
    return {name: pyspiel.load_game(name) for name in REFERENCE_GAMES}


# --- the report -----------------------------------------------------------------------------


def fill_ratios(row: Row, references: dict[str, Row]) -> None:
    """Set the ratios against the references and the target verdict of an Amun-Re row."""
    oh_hell = references.get("oh_hell")
    kuhn = references.get("python_kuhn_poker")
    if oh_hell and oh_hell.actions_per_second:
        row.ratio_oh_hell = row.actions_per_second / oh_hell.actions_per_second
    if kuhn and kuhn.actions_per_second:
        row.ratio_python_kuhn_poker = row.actions_per_second / kuhn.actions_per_second
    if row.game == TARGET_GAME:
        fast = row.actions_per_second >= TARGET_ACTIONS_PER_SECOND
        ratio_ok = row.ratio_oh_hell is not None and row.ratio_oh_hell >= TARGET_RATIO_OH_HELL
        row.meets_target = fast and ratio_ok


def verdict(row: Row) -> str:
    if row.meets_target is None:
        return ""
    if row.meets_target:
        return "yes"
    reasons = []
    if row.actions_per_second < TARGET_ACTIONS_PER_SECOND:
        reasons.append("slow")
    if row.ratio_oh_hell is None:
        reasons.append("no ref")
    elif row.ratio_oh_hell < TARGET_RATIO_OH_HELL:
        reasons.append("ratio")
    return "NO (" + ", ".join(reasons) + ")"


def format_ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def format_table(karnak_rows: list[Row], reference_rows: list[Row]) -> str:
    header = (
        f"{'game':<18} {'players':>7} {'actions/s':>11} {'games/s':>9} {'actions/game':>12}"
        f" {'vs oh_hell':>10} {'vs kuhn':>8}  target"
    )
    lines = [header, "-" * len(header)]
    for row in karnak_rows:
        lines.append(
            f"{row.game:<18} {row.players:>7} {row.actions_per_second:>11,.0f}"
            f" {row.games_per_second:>9,.1f} {row.actions_per_game:>12,.1f}"
            f" {format_ratio(row.ratio_oh_hell):>10} {format_ratio(row.ratio_python_kuhn_poker):>8}"
            f"  {verdict(row)}"
        )
    for row in reference_rows:
        lines.append(
            f"{row.game:<18} {row.players:>7} {row.actions_per_second:>11,.0f}"
            f" {row.games_per_second:>9,.1f} {row.actions_per_game:>12,.1f}"
            f" {'(ref)':>10} {'(ref)':>8}"
        )
    return "\n".join(lines)


def print_text(report: dict[str, Any], karnak_rows: list[Row], reference_rows: list[Row]) -> None:
    print(
        f"Random play, one core, ~{report['seconds_per_row']:g} s per row"
        f" (Python {report['python']}, {report['machine']})"
    )
    print(format_table(karnak_rows, reference_rows))
    print()
    print(report["target"])
    if report["open_spiel"] is None:
        print("OpenSpiel reference missing: pyspiel is not installed (pip install -e .[bench]);")
        print("ratios and the ratio half of the target cannot be judged in this run.")
    else:
        counting = f"References: OpenSpiel {report['open_spiel']}. {report['counting']}"
        print(textwrap.fill(counting, width=100))
        for row in reference_rows:
            print(
                f"  {row.game}: {row.chance_actions_per_game:.1f} of"
                f" {row.actions_per_game:.1f} actions per game are chance outcomes"
            )
    costs = report.get("_costs") or []
    if costs:
        print()
        print("Per call, microseconds (mean over positions from random games, least of 3 passes):")
        print(format_costs(costs))


# --- profiling ------------------------------------------------------------------------------


def profile(name: str, players: int, seconds: float) -> None:
    """cProfile random games of ``name`` and print the hottest functions."""
    profiler = cProfile.Profile()
    profiler.enable()
    m = run_karnak(name, players, seconds)
    profiler.disable()
    print(
        f"Profiled {name}, {players} players: {m.games} games, {m.actions} actions"
        f" in {m.seconds:.1f} s (slowed down by the profiler)"
    )
    for key in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(PROFILE_TOP)
        print(f"\n=== top {PROFILE_TOP} by {key} ===")
        print(out.getvalue())


# --- main -----------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per row")
    parser.add_argument("--games", default=DEFAULT_GAMES, help="comma-separated Karnak games")
    parser.add_argument(
        "--players",
        default=None,
        help="comma-separated player counts (each game plays those it allows; default: each"
        " game's own counts, Amun-Re 3-5, Aton 2, Egyptia 1, 5 and 99)",
    )
    parser.add_argument("--no-costs", action="store_true", help="skip the per-call costs table")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="cProfile the first game at its first player count instead of benchmarking",
    )
    return parser.parse_args(argv)


def measure_references(pyspiel: Any | None, seconds: float, before: bool) -> dict[str, Any]:
    """Half of each reference's budget; the other half runs after the Karnak rows."""
    if pyspiel is None:
        return {}
    offset = 0 if before else 1_000
    return {
        name: run_open_spiel(game, seconds / 2, BASE_SEED + offset + i)
        for i, (name, game) in enumerate(load_references(pyspiel).items())
    }


def benchmark(
    games: list[str], players: list[int] | None, seconds: float, costs: bool = True
) -> dict[str, Any]:
    pyspiel = load_pyspiel()
    first = measure_references(pyspiel, seconds, before=True)
    plan = [(g, p) for g in games for p in players_for(g, players)]
    karnak = [(g, p, run_karnak(g, p, seconds)) for g, p in plan]
    second = measure_references(pyspiel, seconds, before=False)

    reference_rows: dict[str, Row] = {}
    if pyspiel is not None:
        for name, game in load_references(pyspiel).items():
            first[name].add(second[name])
            reference_rows[name] = Row.of(name, game.num_players(), first[name])
    karnak_rows = [Row.of(g, p, m) for g, p, m in karnak]
    for row in karnak_rows:
        fill_ratios(row, reference_rows)
    cost_rows = [measure_costs(g, p) for g, p in plan] if costs else []

    return {
        "seconds_per_row": seconds,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "open_spiel": open_spiel_version() if pyspiel is not None else None,
        "counting": (
            "Karnak counts every apply_unchecked call (no chance actions: shuffling happens in"
            " the engine); OpenSpiel counts every apply_action call, chance outcomes included."
        ),
        "target": (
            f"Target for {TARGET_GAME}: >= {TARGET_ACTIONS_PER_SECOND:,.0f} actions/s and"
            f" >= {TARGET_RATIO_OH_HELL} x oh_hell actions/s (same run)."
        ),
        "karnak": [asdict(r) for r in karnak_rows],
        "references": [asdict(r) for r in reference_rows.values()],
        "costs": [{**asdict(c), "states_per_second": c.states_per_second} for c in cost_rows],
        "_rows": (karnak_rows, list(reference_rows.values())),
        "_costs": cost_rows,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    players = (
        [int(p) for p in args.players.split(",") if p.strip()] if args.players is not None else None
    )
    if args.profile:
        name = games[0] if games else TARGET_GAME
        profile(name, players_for(name, players)[0], args.seconds)
        return 0
    report = benchmark(games, players, args.seconds, costs=not args.no_costs)
    karnak_rows, reference_rows = report.pop("_rows")
    if args.json:
        report.pop("_costs")
        print(json.dumps(report, indent=2))
    else:
        print_text(report, karnak_rows, reference_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
