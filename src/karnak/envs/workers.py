"""Worker processes that each keep an object and answer method calls on it, for the batch
stepper's and the vector env's multi-process modes.

A :class:`Workers` starts one process per entry of ``arguments``; process ``k`` builds
``factory(*arguments[k])`` once and then, for every :meth:`Workers.call`, runs the named
method with its own payload and sends back the answer. The calls of one round go to every
worker before any answer is read, so the workers step their games at the same time. Pipes
carry the payloads (pickled NumPy arrays: a few hundred kilobytes a step at most).

An exception in a worker comes back as itself (the same type and message) and is raised in
the caller; the worker keeps serving. Processes are started with ``spawn`` by default (no
inherited locks or threads), so the factory must be importable by name.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Workers"]

_STOP = "__stop__"


def _serve(
    conn: multiprocessing.connection.Connection,
    factory: Callable[..., Any],
    arguments: tuple[Any, ...],
) -> None:
    """A worker's loop: build the object, then answer ``(method, payload)`` until told to
    stop (or the caller's end of the pipe closes)."""
    target: Any = None
    failure: Exception | None = None
    try:
        target = factory(*arguments)
    except Exception as error:  # reported at the first call
        failure = error
    while True:
        try:
            method, payload = conn.recv()
        except (EOFError, OSError):
            return
        if method == _STOP:
            conn.close()
            return
        try:
            if failure is not None:
                raise failure
            answer: tuple[bool, Any] = (True, getattr(target, method)(*payload))
        except Exception as error:
            answer = (False, error)
        conn.send(answer)


class Workers:
    """One process per entry of ``arguments``, each holding ``factory(*arguments[k])``."""

    def __init__(
        self,
        factory: Callable[..., Any],
        arguments: Sequence[tuple[Any, ...]],
        context: str | None = "spawn",
    ):
        ctx = multiprocessing.get_context(context)
        self._conns: list[multiprocessing.connection.Connection] = []
        self._processes: list[Any] = []
        for args in arguments:
            mine, theirs = ctx.Pipe()
            process = ctx.Process(  # type: ignore[attr-defined]
                target=_serve, args=(theirs, factory, tuple(args)), daemon=True
            )
            process.start()
            theirs.close()
            self._conns.append(mine)
            self._processes.append(process)
        self.closed = False

    def __len__(self) -> int:
        return len(self._conns)

    def call(self, method: str, payloads: Sequence[tuple[Any, ...]]) -> list[Any]:
        """Run ``method`` in every worker, worker ``k`` with ``payloads[k]``; the answers in
        worker order. The first worker's exception, if any, is raised (after every answer
        is in, so the next round starts clean)."""
        if self.closed:
            raise RuntimeError("the workers are closed")
        for conn, payload in zip(self._conns, payloads, strict=True):
            conn.send((method, tuple(payload)))
        answers = []
        failure: BaseException | None = None
        for conn in self._conns:
            try:
                ok, value = conn.recv()
            except (EOFError, OSError) as error:  # a worker died
                self.close()
                raise RuntimeError("a worker process ended unexpectedly") from error
            if not ok and failure is None:
                failure = value
            answers.append(value)
        if failure is not None:
            raise failure
        return answers

    def close(self) -> None:
        """Stop every worker (idempotent)."""
        if self.closed:
            return
        self.closed = True
        for conn in self._conns:
            try:
                conn.send((_STOP, ()))
                conn.close()
            except (OSError, ValueError):
                pass
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
