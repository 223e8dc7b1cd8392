"""The environments' versioned names: the Gymnasium ids registered on import, the
PettingZoo-style modules, ``metadata["name"]``, all from one source
(:mod:`karnak.envs.versions`), and the pinned fingerprint that makes a change of behaviour
under the same version fail."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import gymnasium
import pytest

import karnak.envs
from karnak.core.errors import InvalidOptionError
from karnak.core.registry import BUILTIN, get_game
from karnak.core.tensors import Part, TensorLayout
from karnak.envs import pettingzoo_env, pettingzoo_parallel_env
from karnak.envs.fingerprints import default_tables, facts, fingerprint
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv
from karnak.envs.registration import GYMNASIUM_ENTRY_POINT, register_versions
from karnak.envs.versions import REGISTERED_ILLEGAL, env_version, env_versions
from support.example_game import NAME, installed

#: What each version means, at each table size up to five (``default_tables``): regenerate
#: with ``python -m karnak.envs.fingerprints`` *after* bumping the game's env_version.
PINNED = {
    "karnak/AmunRe-v1": {3: "5543224c5bd43586", 4: "f62971e32fee6dec", 5: "a6b24f8a38365b8d"},
    "karnak/Aton-v1": {2: "6764b0ac3307e4f1"},
    "karnak/Egyptia-v1": {
        1: "14b46ac6a586289c",
        2: "0574adf82f37f63f",
        3: "1327192c1170b02f",
        4: "95b944572b0e3b6b",
        5: "23898ee6f70160bc",
    },
}

BUMP = (
    "{what}. The environments' behaviour changed under the same version: bump the game's "
    "env_version (its GamePlugin, src/karnak/games/{game}/plugin.py; a new version is a new "
    "Gymnasium id and module name), say what changed in docs/research.md, and pin the new "
    "fingerprints printed by `python -m karnak.envs.fingerprints {game}` in "
    "tests/envs/test_registration.py. A change that is not one of behaviour (a faster path "
    "that gives the same values) must keep the fingerprint."
)


# ------------------------------------------------------------------------ the fingerprints
@pytest.mark.parametrize(
    ("game", "players"), default_tables(), ids=[f"{g}-{n}" for g, n in default_tables()]
)
def test_each_version_still_means_what_it_meant(game: str, players: int) -> None:
    version = env_version(game)
    pinned = PINNED.get(version.gym_id)
    assert pinned is not None, BUMP.format(
        what=f"No fingerprint is pinned for {version.gym_id}", game=game
    )
    assert fingerprint(game, players) == pinned.get(players), BUMP.format(
        what=f"{version.gym_id} at {players} seats no longer has its pinned fingerprint",
        game=game,
    )


def test_every_pinned_version_is_a_current_one() -> None:
    current = {version.gym_id for version in env_versions()}
    stale = sorted(set(PINNED) - current)
    assert not stale, f"pinned versions that are not current: {stale}; pin the current ones"


def test_a_fingerprint_moves_with_what_the_version_means(monkeypatch: pytest.MonkeyPatch) -> None:
    before = facts("aton", 2)
    assert fingerprint("aton", 2) == fingerprint("aton", 2)
    # a bound of one part of the layout
    game = get_game("aton")
    layout = game.information_state_layout(2, {})
    parts = [placed.part for placed in layout]
    first = parts[0]
    widened = Part(first.name, first.shape, first.meaning, first.low, 2.0)
    monkeypatch.setattr(
        type(game),
        "information_state_layout",
        lambda self, players, options: TensorLayout([widened, *parts[1:]]),
    )
    changed = facts("aton", 2)
    assert (
        changed["observations"]["information_state"] != before["observations"]["information_state"]
    )
    monkeypatch.undo()
    # the policy of the registered form
    monkeypatch.setattr("karnak.envs.fingerprints.REGISTERED_ILLEGAL", "raise")
    assert facts("aton", 2)["illegal"] == "raise"
    assert fingerprint("aton", 2) != PINNED["karnak/Aton-v1"][2]


def test_the_research_page_names_the_current_versions() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text()
    for version in env_versions():
        if version.game in BUILTIN:
            row = f"| `{version.gym_id}` | `{version.module}` | `{version.name}` |"
            assert row in page, f"docs/research.md: the versions table needs {row}"


# ------------------------------------------------------------------------ Gymnasium's ids
def test_every_game_has_its_gymnasium_id_registered_on_import() -> None:
    versions = env_versions()
    assert {v.game for v in versions} >= set(BUILTIN)
    assert {v.gym_name for v in versions} >= {"Aton", "AmunRe", "Egyptia"}
    for version in versions:
        spec = gymnasium.spec(version.gym_id)
        assert spec.namespace == "karnak" and spec.name == version.gym_name
        assert spec.version == version.version >= 1
        # a string: nothing of the environment is imported to register it
        assert spec.entry_point == GYMNASIUM_ENTRY_POINT
        assert spec.kwargs == {"game": version.game, "illegal": REGISTERED_ILLEGAL}
    assert register_versions() == versions  # idempotent, no "overriding" warning
    gymnasium.register_envs(karnak.envs)  # the linter-friendly spelling of the import


def test_make_builds_the_registered_form_and_passes_keywords() -> None:
    env = gymnasium.make("karnak/AmunRe-v1", players=5, opponents="heuristic")
    inner = env.unwrapped
    assert isinstance(inner, KarnakGymEnv)
    assert inner.illegal == "penalty" and inner.idgame.players == 5
    assert inner.opponent_specs == {1: "heuristic", 2: "heuristic", 3: "heuristic", 4: "heuristic"}
    assert inner.metadata["name"] == env_version("amunre").name == "karnak_amunre_v1"
    assert env.spec is not None and env.spec.kwargs["players"] == 5
    assert gymnasium.make("karnak/Aton-v1", illegal="raise").unwrapped.illegal == "raise"  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionError, match="illegal must be one of raise, penalty"):
        gymnasium.make("karnak/Egyptia-v1", illegal="ignore")


def run_python(script: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_the_package_is_cheap_and_the_module_prefix_works() -> None:
    # gymnasium.make imports the module named before the colon, which registers the ids
    made = run_python(
        """
        import gymnasium
        print(gymnasium.make("karnak.envs:karnak/Aton-v1").unwrapped.metadata["name"])
        """
    )
    assert made == "karnak_aton_v1"
    # registering imports Gymnasium, and nothing of the environments themselves
    imported = run_python(
        """
        import sys
        import karnak.envs
        heavy = ("pettingzoo", "karnak.envs.pettingzoo", "karnak.envs.gymnasium", "karnak.bots")
        print(sorted(m for m in heavy if m in sys.modules), "gymnasium" in sys.modules)
        """
    )
    assert imported == "[] True"
    # without Gymnasium (``pip install karnak``: NumPy alone) the package imports and
    # registers nothing
    bare = run_python(
        """
        import sys
        sys.modules["gymnasium"] = None  # as if it were not installed
        import karnak.envs
        print(karnak.envs.register_versions(), karnak.envs.IdGame("aton").num_actions > 0)
        """
    )
    assert bare == "[] True"


# ------------------------------------------------------------------------ PettingZoo's names
def test_every_game_has_its_pettingzoo_module() -> None:
    from karnak.envs import amunre_v1, aton_v1, egyptia_v1  # type: ignore[attr-defined]

    for module, game in ((aton_v1, "aton"), (amunre_v1, "amunre"), (egyptia_v1, "egyptia")):
        version = env_version(game)
        assert module.__name__ == version.module == f"karnak.envs.{game}_v{version.version}"
        assert importlib.import_module(version.module) is module
        assert sys.modules[version.module] is module
        aec, raw, parallel = module.env(), module.raw_env(), module.parallel_env()
        assert type(aec) is type(raw) is KarnakAECEnv and type(parallel) is KarnakParallelEnv
        for env in (aec, raw, parallel):
            assert env.illegal == "penalty"
            assert env.metadata["name"] == version.name == f"karnak_{game}_v{version.version}"
    big = egyptia_v1.parallel_env(4, rewards="rank", illegal="raise")
    assert big.idgame.players == 4 and big.illegal == "raise"
    assert big.idgame.description.rewards == "rank"
    # the functions pickle by reference (vectorised and multi-process launchers need it)
    assert pickle.loads(pickle.dumps(aton_v1.env)) is aton_v1.env
    import karnak.envs.aton_v1 as again  # type: ignore[import-not-found]

    assert again is aton_v1


def test_an_old_or_unknown_version_name_says_which_is_current() -> None:
    with pytest.raises(ImportError, match=r"karnak\.envs\.aton_v1, karnak/Aton-v1"):
        from karnak.envs import aton_v0  # type: ignore[attr-defined]  # noqa: F401
    with pytest.raises(ImportError, match="not shipped"):
        from karnak.envs import amunre_v7  # type: ignore[attr-defined]  # noqa: F401
    with pytest.raises(AttributeError):
        karnak.envs.senet_v1  # type: ignore[attr-defined]  # noqa: B018


def test_every_environment_class_names_its_version() -> None:
    name = env_version("aton").name
    assert pettingzoo_env("aton").metadata["name"] == name
    assert pettingzoo_parallel_env("aton").metadata["name"] == name
    assert KarnakGymEnv("aton").metadata["name"] == name
    # built directly, the classes keep raising on an illegal id
    assert pettingzoo_env("aton").illegal == pettingzoo_parallel_env("aton").illegal == "raise"
    assert KarnakGymEnv("aton").illegal == "raise"


def test_an_installed_game_gets_its_names_too(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import gymnasium
        import karnak.envs
        from karnak.envs import {NAME}_v1
        env = {NAME}_v1.parallel_env(3)
        gym = gymnasium.make("karnak/{NAME.capitalize()}-v1", players=3)
        print(env.metadata["name"], env.illegal, gym.unwrapped.illegal)
        """
    )
    with installed(tmp_path) as found:
        result = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            env=found.env(),
            check=False,
        )
    assert result.stdout.split() == [f"karnak_{NAME}_v1", "penalty", "penalty"], result.stderr
