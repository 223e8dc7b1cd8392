"""Fingerprints of the environment versions: what each version means, hashed, so that a test
can pin it (:mod:`karnak.envs.versions`; ``tests/envs/test_registration.py``).

A fingerprint covers, at one table size: the rules version, the options' defaults, the
action ids (their number, names and the length cap), every reward scheme with its range,
both observation kinds (each layout part's name, shape and bounds, and the Box), the
keyword defaults of the three environment classes and of the registered form, and a hash of
what every agent sees and is paid over a short seeded game of the registered AEC env,
ended by an illegal id. Any change there changes the fingerprint: bump the game's
``env_version`` and pin the new one.

``python -m karnak.envs.fingerprints [GAME ...]`` prints the names and the fingerprints, as
the test pins them.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Iterable, Mapping
from typing import Any

from karnak.core.registry import get_plugin
from karnak.envs.versions import REGISTERED_ILLEGAL, EnvVersion, env_version, env_versions

__all__ = ["FINGERPRINT_STEPS", "default_tables", "facts", "fingerprint", "fingerprints"]

#: The ids a fingerprint's seeded game plays (then one illegal id, under the penalty).
FINGERPRINT_STEPS = 60


def _sha(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()[:16]


def _defaults(function: Any) -> dict[str, Any]:
    """The keyword defaults of ``function`` (a class: its ``__init__``), as text."""
    return {
        name: repr(parameter.default)
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }


def _bound(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def facts(game: str, players: int) -> dict[str, Any]:
    """What the current version of ``game``'s environments means at a table of ``players``:
    everything :func:`fingerprint` hashes (see the module's text)."""
    import gymnasium

    from karnak.core.description import ALL_REWARD_SCHEMES
    from karnak.core.errors import InvalidOptionError
    from karnak.envs.gymnasium import DEFAULT_THINK_TIME, KarnakGymEnv
    from karnak.envs.idgame import OBSERVATION_KINDS, IdGame
    from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv, observation_space

    version = env_version(game)
    base = IdGame(version.game, players)
    space = base.space
    rewards: dict[str, Any] = {"default": base.description.rewards}
    for scheme in ALL_REWARD_SCHEMES:
        try:
            d = IdGame(version.game, players, rewards=scheme).description
        except InvalidOptionError:
            continue
        rewards[scheme] = [d.reward_model, d.min_utility, d.max_utility, d.utility_sum]
    observations: dict[str, Any] = {}
    for kind in OBSERVATION_KINDS:
        idgame = IdGame(version.game, players, observation=kind)
        layout = (
            idgame.game.information_state_layout(players, idgame.options)
            if kind == "information_state"
            else idgame.game.observation_layout(players, idgame.options)
        )
        box = observation_space(idgame)["observation"]
        if not isinstance(box, gymnasium.spaces.Box):
            raise TypeError(f"the observation of {game} is a {type(box).__name__}, not a Box")
        observations[kind] = {
            "size": idgame.observation_size,
            "parts": [
                [p.part.name, list(p.part.shape), _bound(p.part.low), _bound(p.part.high)]
                for p in layout
            ],
            "box": _sha(box.low.tobytes() + box.high.tobytes()),
        }
    return {
        "game": version.game,
        "rules_version": base.game.version,
        "players": players,
        "options": {k: repr(v) for k, v in sorted(base.options.items())},
        "illegal": REGISTERED_ILLEGAL,
        "actions": {
            "size": space.size,
            "max_game_length": space.max_game_length,
            "names": _sha("\n".join(base.id_name(i) for i in range(space.size))),
        },
        "rewards": rewards,
        "observations": observations,
        "defaults": {
            "gymnasium": {
                **_defaults(KarnakGymEnv),
                **version.gym_kwargs,
                "think_time": DEFAULT_THINK_TIME,
            },
            "aec": _defaults(KarnakAECEnv),
            "parallel": _defaults(KarnakParallelEnv),
        },
        "play": _seeded_play(version, players),
    }


def _seeded_play(version: EnvVersion, players: int) -> str:
    """A hash of what every agent sees and is paid over a seeded game of the registered
    AEC env: :data:`FINGERPRINT_STEPS` ids chosen by a seeded generator among the legal
    ones, then an illegal id (if the game is not over) and the end it brings."""
    import numpy as np

    from karnak.core.action_ids import ActionIdError
    from karnak.envs.pettingzoo import KarnakAECEnv

    env = KarnakAECEnv(version.game, players, illegal=REGISTERED_ILLEGAL)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    digest = hashlib.sha256()

    def record() -> None:
        for agent in env.agents:
            seen = env.observe(agent)
            digest.update(seen["observation"].tobytes() + seen["action_mask"].tobytes())
        digest.update(
            json.dumps(
                [env.agents, env.rewards, env.terminations, env.truncations, env.infos],
                sort_keys=True,
            ).encode()
        )

    record()
    for _ in range(FINGERPRINT_STEPS):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        record()
    if env.agents and not env.terminations[env.agent_selection]:
        mask = env.observe(env.agent_selection)["action_mask"]
        try:
            env.step(int(np.flatnonzero(mask == 0)[0]))
        except ActionIdError:  # the policy is "raise"
            digest.update(b"raised")
        record()
    return digest.hexdigest()[:16]


def fingerprint(game: str, players: int) -> str:
    """A short hash of :func:`facts`: equal for two builds exactly when the current version
    of ``game``'s environments means the same at ``players``."""
    return _sha(json.dumps(facts(game, players), sort_keys=True))


def fingerprints(tables: Iterable[tuple[str, int]]) -> dict[str, dict[int, str]]:
    """``{gym_id: {players: fingerprint}}`` for each table."""
    pinned: dict[str, dict[int, str]] = {}
    for game, players in tables:
        pinned.setdefault(env_version(game).gym_id, {})[players] = fingerprint(game, players)
    return pinned


def default_tables() -> list[tuple[str, int]]:
    """The tables a fingerprint is pinned at: every size up to five of each game."""
    tables: list[tuple[str, int]] = []
    for version in env_versions():
        game = get_plugin(version.game).game()
        top = min(game.max_players, game.min_players + 4, 5)
        tables.extend((version.game, n) for n in range(game.min_players, top + 1))
    return tables


def _main(argv: Iterable[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m karnak.envs.fingerprints",
        description="The environments' versions, names and fingerprints (paste the "
        "fingerprints into tests/envs/test_registration.py after bumping a version).",
    )
    parser.add_argument("game", nargs="*", help="games (default: all)")
    args = parser.parse_args(None if argv is None else list(argv))
    wanted = set(args.game)
    for version in env_versions():
        if wanted and version.game not in wanted:
            continue
        print(f"{version.game}: {version.gym_id}, {version.module}, {version.name}")
    tables = [t for t in default_tables() if not wanted or t[0] in wanted]
    pinned: Mapping[str, dict[int, str]] = fingerprints(tables)
    print("PINNED = {")
    for gym_id, by_players in pinned.items():
        inner = ", ".join(f'{n}: "{sha}"' for n, sha in by_players.items())
        print(f'    "{gym_id}": {{{inner}}},')
    print("}")


if __name__ == "__main__":
    _main()
