"""Arena games (and self-play games) as Ray tasks: on this machine, or on a Ray cluster.

Ray is an optional extra (``pip install 'karnak[ray]'``); nothing but this module imports
it, and only when a run asks for it, so the rest of Karnak works without it.
:func:`import_ray` turns its absence into one clear line.

How a run goes:

* :func:`ray_session` joins the Ray that is already running in this process (a notebook
  that called ``ray.init`` itself keeps it), or starts one: a local Ray with ``num_cpus``
  CPUs when no address is given, the cluster at ``address`` otherwise (``"auto"``, a
  head's ``host:port``, or ``ray://host:10001`` for Ray Client). A Ray it started it also
  shuts down at the end.
* The plan (each game's index, seed and seating, made by :func:`karnak.bots.arena.run_arena`
  as for the local processes) is cut into chunks of consecutive games; each chunk is one
  task. The game and its options go to the object store once, as the local pool's
  initializer sends them once per process.
* Every game is played by the same :func:`karnak.bots.arena.play_game` as locally, with its
  generators derived from its seed and seats only, so a game's outcome does not depend on
  which worker played it: the outcomes, gathered back in plan order, and so the whole
  result, equal the local pool's for the same seed (with iteration budgets; time budgets
  depend on the machine).
* Progress is reported after each finished chunk, with the number of games done so far.
  A failing game (its :class:`~karnak.bots.arena.ArenaGameError`, sent back as a value so
  that its seed and seats survive) or an interruption (Ctrl-C) cancels the tasks not yet
  finished and is re-raised.

On a cluster every node needs Karnak installed (the same version as the driver): the tasks
import :mod:`karnak` there. ``KARNAK_NATIVE`` (the compiled hot paths, see
:mod:`karnak.native`) is passed on to the workers when it is set here.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from karnak.bots.arena import ArenaGameError, GameOutcome, PlannedGame, play_game
from karnak.core.errors import KarnakError
from karnak.core.game import Game

__all__ = [
    "LOCAL",
    "RAY_EXTRA",
    "RayMissingError",
    "RayRunError",
    "RayRunner",
    "chunked",
    "import_ray",
    "ray_session",
    "run_chunks",
]

#: The extra that installs Ray.
RAY_EXTRA = "karnak[ray]"
#: The address that means "start a local Ray" (what ``--ray`` alone gives).
LOCAL = "local"
#: Tasks per CPU a run is cut into by default: enough to even out games of unequal length,
#: few enough that each task's overhead (milliseconds) stays small beside its games.
TASKS_PER_CPU = 4

T = TypeVar("T")
R = TypeVar("R")


class RayMissingError(KarnakError, ImportError):
    """Ray is asked for but not installed."""


class RayRunError(KarnakError, RuntimeError):
    """Ray could not be started or joined, or one of its tasks was lost."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayMissingError` naming the extra to install."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise RayMissingError(
            f"Ray is asked for but not installed: pip install '{RAY_EXTRA}' "
            f"(or 'ray[client]>=2.9') ({exc})"
        ) from None


def _native_env() -> dict[str, Any]:
    value = os.environ.get("KARNAK_NATIVE")
    return {"runtime_env": {"env_vars": {"KARNAK_NATIVE": value}}} if value is not None else {}


@contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, initialised: the one already running in this process, a local one with
    ``num_cpus`` CPUs (default: this machine's) when ``address`` is None or
    :data:`LOCAL`, or the cluster at ``address``. A Ray started here is shut down at the
    end; one found running is left running."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    settings: dict[str, Any] = {"logging_level": "warning", **_native_env()}
    if address is None or address == LOCAL:
        where = "a local Ray"
        settings["num_cpus"] = num_cpus or os.cpu_count() or 1
        settings["include_dashboard"] = False
    else:
        where = f"the Ray cluster at {address}"
        settings["address"] = address
    try:
        ray.init(**settings)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        raise RayRunError(f"could not start or join {where}: {exc}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def cluster_cpus(ray: Any) -> int:
    """The CPUs of the Ray this process is connected to (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter)."""
    if size < 1:
        raise ValueError(f"a chunk holds at least one item, not {size}")
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def chunk_size(items: int, cpus: int, chunk: int | None = None) -> int:
    """``chunk`` if given, else about :data:`TASKS_PER_CPU` tasks per CPU."""
    if chunk is not None:
        if chunk < 1:
            raise ValueError(f"chunk must be at least 1, not {chunk}")
        return chunk
    return max(1, math.ceil(items / (cpus * TASKS_PER_CPU)))


def run_chunks(
    ray: Any,
    task: Callable[[Any, list[T]], list[R] | BaseException],
    shared: Any,
    chunks: Sequence[list[T]],
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """Run ``task(shared, chunk)`` as one Ray task per chunk; the results, in chunk order.

    ``shared`` goes to the object store once. ``task`` must be a module-level function (the
    workers import it) returning a list (one result per item of its chunk) or an exception
    to re-raise here. ``progress`` gets the number of items finished so far after each
    chunk. On a returned or raised exception, or an interruption, the unfinished tasks are
    cancelled first.
    """
    remote = ray.remote(num_cpus=1)(task)
    shared_ref = ray.put(shared)
    refs = [remote.remote(shared_ref, chunk) for chunk in chunks]
    position = {ref: i for i, ref in enumerate(refs)}
    results: list[list[R] | None] = [None] * len(refs)
    pending = list(refs)
    done_items = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                value = ray.get(ref)
                if isinstance(value, BaseException):
                    raise value
                results[position[ref]] = value
                done_items += len(chunks[position[ref]])
                if progress is not None:
                    progress(done_items)
    except BaseException as exc:
        for ref in pending:
            ray.cancel(ref)
        if isinstance(exc, ray.exceptions.RayError) and not isinstance(exc, KarnakError):
            raise RayRunError(f"a Ray task failed: {exc}") from exc
        raise
    return [item for chunk_results in results for item in chunk_results or ()]


# ---------------------------------------------------------------------- the arena
def _arena_chunk(
    shared: tuple[Game, dict[str, Any], frozenset[str]], chunk: list[PlannedGame]
) -> list[GameOutcome] | ArenaGameError:
    """One task: play ``chunk``'s games in order; the first failure is returned, not raised
    (Ray would wrap it; as a value it keeps its seed and seats)."""
    game, options, styled = shared
    outcomes = []
    for index, seed, seats in chunk:
        try:
            outcomes.append(play_game(game, seats, seed, options, index, styled))
        except ArenaGameError as exc:
            return exc
    return outcomes


class RayRunner:
    """A :data:`~karnak.bots.arena.GameRunner` that plays an arena's games as Ray tasks.

    ``address``: None or :data:`LOCAL` for a local Ray with ``num_cpus`` CPUs (default:
    this machine's), else a cluster's address. ``chunk``: games per task (default: about
    :data:`TASKS_PER_CPU` tasks per CPU of the cluster). Pass it as ``run_arena(...,
    runner=RayRunner(...))``.
    """

    def __init__(
        self, address: str | None = None, num_cpus: int | None = None, chunk: int | None = None
    ):
        if num_cpus is not None and num_cpus < 1:
            raise ValueError(f"num_cpus must be at least 1, not {num_cpus}")
        chunk_size(1, 1, chunk)  # a bad chunk fails here, before Ray starts
        self.address = address
        self.num_cpus = num_cpus
        self.chunk = chunk
        #: The CPUs of the Ray the last run used (for a report), once a run has started.
        self.cpus: int | None = None

    def __call__(
        self,
        game: Game,
        options: dict[str, Any],
        styled: frozenset[str],
        plan: list[PlannedGame],
        progress: Callable[[int], None] | None,
    ) -> list[GameOutcome]:
        with ray_session(self.address, self.num_cpus) as ray:
            self.cpus = cluster_cpus(ray)
            chunks = chunked(plan, chunk_size(len(plan), self.cpus, self.chunk))
            outcomes = run_chunks(ray, _arena_chunk, (game, options, styled), chunks, progress)
        return sorted(outcomes, key=lambda o: o.index)

    def __repr__(self) -> str:
        where = self.address or LOCAL
        return f"<RayRunner {where} num_cpus={self.num_cpus} chunk={self.chunk}>"
