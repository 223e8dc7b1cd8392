"""Hypothesis settings for the games' property suites: the same examples on every run and
machine (derandomized, no example database, no deadline), so a failure in CI replays here."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings


def deterministic(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
