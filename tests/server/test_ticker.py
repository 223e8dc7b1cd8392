"""The per-process job loop (karnak.server.ticker): runs on time, on a wake-up, past its
own failures, and stops cleanly."""

from __future__ import annotations

import asyncio
import logging

import pytest

from karnak.server.ticker import Ticker


def test_a_failing_job_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    runs: list[int] = []

    async def job() -> None:
        runs.append(len(runs))
        if len(runs) == 1:
            raise RuntimeError("a database blip")

    async def run() -> None:
        ticker = Ticker(job, 0.01, "the job failed")
        while len(runs) < 3:
            await asyncio.sleep(0.01)
        await ticker.stop()

    with caplog.at_level(logging.ERROR, logger="karnak.server"):
        asyncio.run(asyncio.wait_for(run(), 10))
    assert len(runs) >= 3
    assert [r.message for r in caplog.records] == ["the job failed"]


def test_a_wake_up_runs_the_job_before_its_tick() -> None:
    async def run() -> tuple[int, int]:
        runs = 0

        async def job() -> None:
            nonlocal runs
            runs += 1

        ticker = Ticker(job, 3600, "failed", first_at_once=False)
        await asyncio.sleep(0.05)
        before = runs
        ticker.wake()
        for _ in range(100):
            if runs:
                break
            await asyncio.sleep(0.01)
        await ticker.stop()
        return before, runs

    assert asyncio.run(asyncio.wait_for(run(), 10)) == (0, 1)
