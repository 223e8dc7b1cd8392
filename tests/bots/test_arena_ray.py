"""The arena on Ray: the same games and the same result as the local pool, the CLI's --ray,
cancellation, failures, and a clear line where Ray is not installed.

One local Ray with 2 CPUs serves the whole module (starting one takes seconds); the arena
finds it initialised and uses it as it is.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from karnak.bots import arena_ray
from karnak.bots.arena import ArenaGameError, GameOutcome, run_arena
from karnak.bots.arena_ray import (
    RAY_EXTRA,
    RayMissingError,
    RayRunner,
    chunk_size,
    chunked,
    import_ray,
)
from karnak.cli.arena_cmd import _ray_runner, bare_ray
from karnak.cli.main import app
from karnak.core import get_game

ATON = get_game("aton")
SPECS = ["random", "heuristic"]
runner = CliRunner(env={"COLUMNS": "200"})


def played(outcomes: Sequence[GameOutcome]) -> list[tuple[Any, ...]]:
    """Everything of each game but the clock."""
    return [
        (o.index, o.seed, o.seats, o.scores, o.ranks, o.winners, o.actions, o.decisions)
        for o in outcomes
    ]


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    # This module's classes (a game that breaks) go to the workers by value: they cannot
    # import a test module.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield ray
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    ray.shutdown()


# ---------------------------------------------------------------------- same results
@pytest.mark.parametrize("chunk", [1, None])
def test_ray_plays_the_local_pools_games(ray: Any, chunk: int | None) -> None:
    local = run_arena(ATON, SPECS, games=5, seed=11, options={}, jobs=2)
    done: list[int] = []
    remote = RayRunner(chunk=chunk)
    on_ray = run_arena(
        ATON, SPECS, games=5, seed=11, options={}, progress=done.append, runner=remote
    )
    assert played(on_ray.outcomes) == played(local.outcomes)
    assert [o.seed for o in on_ray.outcomes] == [11, 12, 13, 14, 15]
    assert json.dumps(on_ray.to_json(timings=False)) == json.dumps(local.to_json(timings=False))
    assert remote.cpus == 2
    assert done == sorted(done) and done[-1] == 5
    if chunk == 1:
        assert done == [1, 2, 3, 4, 5]


def test_styled_rows_and_another_seed_on_ray(ray: Any) -> None:
    styled = run_arena(ATON, SPECS, 4, 40, {}, styled=["heuristic"], runner=RayRunner(chunk=2))
    alone = run_arena(ATON, SPECS, 4, 40, {}, styled=["heuristic"])
    assert played(styled.outcomes) == played(alone.outcomes)
    other = run_arena(ATON, SPECS, 4, 41, {}, runner=RayRunner(chunk=2))
    assert played(other.outcomes) != played(styled.outcomes)


def test_a_search_with_an_iteration_budget_plays_the_same_on_ray(ray: Any) -> None:
    specs = ["ismcts:8", "random"]
    on_ray = run_arena(ATON, specs, 2, 5, {}, runner=RayRunner(chunk=1))
    assert played(on_ray.outcomes) == played(run_arena(ATON, specs, 2, 5, {}).outcomes)


class BrokenGame(type(ATON)):  # type: ignore[misc]
    """The game, except that the deal of seed 102 fails, like an engine bug would."""

    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> Any:
        if seed == 102:
            raise ZeroDivisionError("the engine broke")
        return super().new_state(players, seed, options, log=log)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # made afresh in the task: the compiled board's dataclasses do not unpickle
        return (BrokenGame, ())


def test_a_failing_game_names_its_seed_on_ray(ray: Any) -> None:
    with pytest.raises(ArenaGameError) as caught:
        run_arena(BrokenGame(), SPECS, 4, 100, {}, runner=RayRunner(chunk=1))
    assert caught.value.seed == 102
    assert caught.value.seats == ("random", "heuristic")
    assert "ZeroDivisionError: the engine broke" in str(caught.value)


class InterruptedRay:
    """Ray, except that Ctrl-C comes while the run waits for its tasks (after a while, so
    that the tasks have started). A proxy rather than a signal: under pytest-xdist a test
    need not run in the thread a signal interrupts."""

    def __init__(self, ray: Any, after: float):
        self.ray = ray
        self.after = after

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ray, name)

    def wait(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.after)
        raise KeyboardInterrupt


def test_an_interruption_cancels_the_tasks(ray: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while slow games run: the run stops at once, and the tasks, running or
    waiting, are cancelled (the CPUs come back long before the games could end)."""
    monkeypatch.setattr(arena_ray, "import_ray", lambda: InterruptedRay(ray, after=3.0))
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_arena(ATON, ["ismcts:5000000", "random"], 6, 0, {}, runner=RayRunner(chunk=1))
    assert time.monotonic() - started < 30
    deadline = time.monotonic() + 30
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2


def test_chunks() -> None:
    assert chunked([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert chunk_size(100, 2) == 13  # about four tasks per CPU
    assert chunk_size(3, 8) == 1
    assert chunk_size(100, 2, 7) == 7
    with pytest.raises(ValueError, match="chunk"):
        RayRunner(chunk=0)


# ---------------------------------------------------------------------- the command
def test_bare_ray_means_a_local_ray() -> None:
    assert bare_ray(["aton", "--ray"]) == ["aton", "--ray=local"]
    assert bare_ray(["--ray", "--json"]) == ["--ray=local", "--json"]
    assert bare_ray(["--ray", "auto", "-n", "2"]) == ["--ray", "auto", "-n", "2"]
    assert bare_ray(["--ray=ray://head:10001"]) == ["--ray=ray://head:10001"]
    assert bare_ray(["--", "--ray"]) == ["--", "--ray"]
    assert bare_ray(["--ray", "aton", "--bots", "random,random"])[:2] == ["--ray=local", "aton"]


def test_jobs_size_a_local_ray_only() -> None:
    pytest.importorskip("ray")
    local, where = _ray_runner("local", 3)
    assert (local.address, local.num_cpus, where) == (None, 3, "a local Ray")
    assert _ray_runner("local", 0)[0].num_cpus is None  # one per CPU
    cluster, where = _ray_runner(" auto ", None)
    assert (cluster.address, cluster.num_cpus) == ("auto", None)
    assert where == "the Ray cluster at auto"


def test_cli_ray_gives_the_local_result(ray: Any) -> None:
    args = ["arena", "aton", "--bots", "random,heuristic", "-n", "4", "--seed", "3", "--json"]
    local = runner.invoke(app, args)
    on_ray = runner.invoke(app, [*args, "--ray"])
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0, on_ray.output
    mine, theirs = json.loads(local.stdout), json.loads(on_ray.stdout)
    for data in (mine, theirs):
        del data["elapsed_seconds"]
        for row in data["bots"]:
            del row["think_seconds_per_decision"]
    assert mine == theirs
    args = ["arena", "aton", "--bots", "random,heuristic", "-n", "2", "--ray", "--no-progress"]
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "a local Ray with 2 CPU(s)" in table.stdout


def test_cli_help_names_the_option() -> None:
    result = runner.invoke(app, ["arena", "--help"])
    assert result.exit_code == 0
    assert "--ray" in result.stdout and "karnak[ray]" in result.stdout


# ---------------------------------------------------------------------- without Ray
def test_missing_ray_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # "import ray" now fails
    with pytest.raises(RayMissingError, match=r"pip install 'karnak\[ray\]'"):
        import_ray()
    with pytest.raises(RayMissingError):
        run_arena(ATON, SPECS, 2, 0, {}, runner=RayRunner())
    result = runner.invoke(app, ["arena", "aton", "--bots", "random,random", "--ray"])
    assert result.exit_code == 1
    assert f"pip install '{RAY_EXTRA}'" in result.stderr
    assert "Traceback" not in result.output


def test_nothing_imports_ray_unless_asked() -> None:
    code = (
        "import sys, karnak.cli.main, karnak.bots.arena, karnak.bots.arena_ray, "
        "karnak.envs.selfplay\n"
        "assert 'ray' not in sys.modules, 'ray was imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
