"""Golden playthroughs (tests/golden/playthroughs/): every game, every kept rules version.

Each file is replayed from the ids it records and written again in memory; the test compares
the two line by line and names the first line that differs and its step. A difference means
that the rules, an observation string, a tensor, the legal ids or the rewards changed. How to
tell which, and when a file may be written again: tests/golden/README.md.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import sys
from pathlib import Path

import pytest

from karnak.core.registry import plugins, refresh

_spec = importlib.util.spec_from_file_location(
    "golden_playthroughs_generate", Path(__file__).with_name("playthroughs") / "generate.py"
)
assert _spec is not None and _spec.loader is not None
gen = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = gen
_spec.loader.exec_module(gen)

HOW_TO_FIX = (
    "If the rules changed on purpose, bump the game's rules version and add playthroughs for "
    "it in tests/golden/playthroughs/generate.py; if only an observation string or a tensor "
    "changed on purpose, run `make golden` and say so in the commit. Otherwise this is a "
    "regression. See tests/golden/README.md."
)
#: The files together stay small enough for the repository.
SIZE_LIMIT = 1_000_000


@pytest.mark.parametrize("playthrough", gen.PLAYTHROUGHS, ids=lambda p: p.name)
def test_playthrough_replays_identically(playthrough: gen.Playthrough) -> None:
    problem = gen.check(playthrough)
    if problem is not None:
        pytest.fail(f"{playthrough.path.name}: {problem}\n\n{HOW_TO_FIX}", pytrace=False)


@pytest.mark.parametrize("playthrough", gen.PLAYTHROUGHS, ids=lambda p: p.name)
def test_recorded_ids_are_the_seeded_policys(playthrough: gen.Playthrough) -> None:
    """The file's ids are the ones its seeded random policy picks (none edited by hand)."""
    recorded = gen.recorded_ids(gen.read_lines(playthrough.path))
    assert gen.pick_ids(playthrough) == recorded, (
        f"{playthrough.path.name} records other ids than its seeded policy picks now: the "
        "legal ids changed (see the replay test) or the file was edited. After a deliberate "
        "renumbering of the action ids, run `python tests/golden/playthroughs/generate.py "
        f"--repick {playthrough.name}`."
    )


def missing_playthroughs(listed: tuple[gen.Playthrough, ...]) -> list[str]:
    """Each registered game's kept rules version that no written playthrough plays."""
    covered = {(p.game, p.version) for p in listed if p.path.exists()}
    return [
        f"{name} {version}"
        for name, plugin in plugins().items()
        for version in plugin.game().playable_versions()
        if (name, version) not in covered
    ]


def test_every_game_and_kept_rules_version_has_a_playthrough() -> None:
    refresh()  # the games installed now, not a registration another test left behind
    missing = missing_playthroughs(gen.PLAYTHROUGHS)
    assert not missing, (
        f"no golden playthrough for {', '.join(missing)}: add entries to PLAYTHROUGHS in "
        "tests/golden/playthroughs/generate.py and run `make golden`"
    )


def test_a_version_without_a_playthrough_is_found() -> None:
    fewer = tuple(p for p in gen.PLAYTHROUGHS if (p.game, p.version) != ("egyptia", "1.0"))
    assert missing_playthroughs(fewer) == ["egyptia 1.0"]
    no_aton = tuple(p for p in gen.PLAYTHROUGHS if p.game != "aton")
    assert missing_playthroughs(no_aton) == ["aton 1.0"]


def plays_differently(playthrough: gen.Playthrough, version: str) -> bool:
    """Whether the file's ids, replayed under another rules version, play otherwise (a
    different step, or an id that version refuses)."""
    lines = gen.read_lines(playthrough.path)
    ids = gen.recorded_ids(lines)
    try:
        other = gen.render(dataclasses.replace(playthrough, version=version), ids)
    except gen.ReplayError:
        return True
    first_step = next(i for i, line in enumerate(lines) if line.startswith(gen.STEP_PREFIX))
    return other[first_step:] != lines[first_step:]


def test_each_pair_of_kept_versions_is_told_apart_by_a_playthrough() -> None:
    """For every two rules versions a game keeps, a file of one of them meets a rule that
    differs: its ids replayed under the other version play otherwise. (A new version adds a
    file that shows its change; older files are never rewritten for it.)"""
    for name, plugin in plugins().items():
        versions = plugin.game().playable_versions()
        files = [p for p in gen.PLAYTHROUGHS if p.game == name]
        for first, second in itertools.combinations(versions, 2):
            assert any(
                plays_differently(p, second if p.version == first else first)
                for p in files
                if p.version in (first, second)
            ), f"no {name} playthrough tells rules {first} from {second}"


def test_a_file_replayed_under_its_own_version_plays_the_same() -> None:
    for playthrough in gen.PLAYTHROUGHS[:2]:
        assert not plays_differently(playthrough, playthrough.version)


def test_every_playthrough_plays_a_kept_version_of_a_registered_game() -> None:
    registered = plugins()
    for playthrough in gen.PLAYTHROUGHS:
        assert playthrough.game in registered, playthrough.name
        game = registered[playthrough.game].game()
        assert playthrough.version in game.playable_versions(), playthrough.name


def test_every_file_is_listed_and_the_files_stay_small() -> None:
    files = sorted(gen.HERE.glob(f"*{gen.SUFFIX}"))
    assert {f.name for f in files} == {p.path.name for p in gen.PLAYTHROUGHS}
    assert len({p.name for p in gen.PLAYTHROUGHS}) == len(gen.PLAYTHROUGHS)
    assert sum(f.stat().st_size for f in files) < SIZE_LIMIT


def test_each_game_is_played_at_several_tables() -> None:
    tables: dict[str, set[int]] = {}
    for playthrough in gen.PLAYTHROUGHS:
        tables.setdefault(playthrough.game, set()).add(playthrough.players)
    for name, plugin in plugins().items():
        game = plugin.game()
        wanted = min(2, game.max_players - game.min_players + 1)
        assert len(tables.get(name, set())) >= wanted, name


# --- the machinery: a difference is found and placed, a changed rule is refused -----------
SMALL = next(p for p in gen.PLAYTHROUGHS if p.game == "egyptia" and p.players == 1)


def test_a_changed_line_is_reported_with_its_step() -> None:
    lines = gen.read_lines(SMALL.path)
    index = next(i for i, line in enumerate(lines) if line.startswith("step 5:")) + 3
    changed = list(lines)
    changed[index] += " (changed)"
    report = gen.first_difference(lines, changed)
    assert report is not None
    assert f"line {index + 1} (step 5) differs" in report
    assert f"now:    {changed[index]}" in report
    assert gen.first_difference(lines, list(lines)) is None
    assert "(the end) differs" in (gen.first_difference(lines, [*lines[:-1], "other"]) or "")
    assert "(the header) differs" in (gen.first_difference(lines, ["other", *lines[1:]]) or "")


def test_a_shorter_replay_is_reported_where_it_stops() -> None:
    lines = gen.read_lines(SMALL.path)
    report = gen.first_difference(lines, lines[:40])
    assert report is not None and "(the replay ends here)" in report


def test_ids_that_no_longer_replay_name_their_step() -> None:
    ids = gen.recorded_ids(gen.read_lines(SMALL.path))
    idgame = SMALL.idgame()
    state = idgame.new_state(SMALL.seed)
    for action_id in ids[:3]:
        state.apply_id(action_id)
    illegal = next(i for i in range(idgame.num_actions) if i not in state.legal_ids())
    with pytest.raises(gen.ReplayError) as caught:
        gen.render(SMALL, [*ids[:3], illegal, *ids[4:]])
    assert caught.value.step == 3
    with pytest.raises(gen.ReplayError, match="end before the game does"):
        gen.render(SMALL, ids[:-1])
    with pytest.raises(gen.ReplayError, match="the game is over"):
        gen.render(SMALL, [*ids, ids[-1]])


def test_writing_keeps_the_recorded_ids_and_picks_for_a_new_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gen, "HERE", tmp_path)
    assert SMALL.path.parent == tmp_path
    assert gen.check(SMALL) == f"{SMALL.path.name} is missing"
    count = gen.write(SMALL)  # a new file: the policy's ids
    assert count == len(gen.pick_ids(SMALL))
    assert gen.check(SMALL) is None
    # A file with other (legal) ids is written again with its own ids, not the policy's.
    ids = gen.pick_ids(SMALL)
    other = gen.Playthrough(SMALL.name, SMALL.game, SMALL.version, 1, SMALL.seed + 1, SMALL.options)
    other_ids = gen.pick_ids(other)
    other.path.write_text("\n".join(gen.render(other, other_ids)) + "\n", encoding="utf-8")
    assert gen.write(other) == len(other_ids)
    assert gen.recorded_ids(gen.read_lines(other.path)) == other_ids != ids
    # A file whose ids no longer replay is refused and left as it was.
    lines = gen.read_lines(SMALL.path)
    at = next(i for i, line in enumerate(lines) if line.startswith(gen.IDS_HEADER)) + 1
    broken = [*lines[:at], "  " + " ".join(["0"] * (len(ids) + 5)), *lines[at + 1 :]]
    SMALL.path.write_text("\n".join(broken) + "\n", encoding="utf-8")
    with pytest.raises(gen.ReplayError):
        gen.write(SMALL)
    assert gen.read_lines(SMALL.path) == broken
    assert gen.main(["--check", SMALL.name]) == 1
    assert gen.main(["--repick", SMALL.name]) == 0
    assert gen.main(["--check", SMALL.name]) == 0


def test_seats_see_different_things_and_each_step_shows_its_tensors() -> None:
    """The digests are per seat: at a table of two, the seats' tensors differ somewhere."""
    for playthrough in gen.PLAYTHROUGHS:
        if playthrough.players < 2:
            continue
        lines = gen.read_lines(playthrough.path)
        digests = [line for line in lines if line.startswith("  sha256 obs info: ")]
        steps = [line for line in lines if line.startswith(gen.STEP_PREFIX)]
        assert len(digests) == len(steps) + 1  # every step, and the end
        differing = [
            line
            for line in digests
            if not line.endswith("as before")
            and len({part.split(" ", 1)[1] for part in line[19:].split(" | ")}) > 1
        ]
        assert differing, playthrough.name


@pytest.mark.parametrize("what", ["observation_string", "information_state_tensor"])
def test_a_changed_observation_shows_at_the_first_step(
    what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state_class = type(SMALL.idgame().new_state(SMALL.seed).state)
    original = getattr(state_class, what)

    def changed(self: object, seat: int) -> object:
        value = original(self, seat)
        return value + " and more" if isinstance(value, str) else value + 1.0

    monkeypatch.setattr(state_class, what, changed)
    report = gen.check(SMALL)
    assert report is not None and "(step 0) differs" in report
