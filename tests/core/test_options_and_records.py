"""Game metadata, option validation, records and replay errors (through Amun-Re)."""

import json

import pytest

from karnak.core import GameRecord, InvalidOptionError, RecordError, get_game, replay
from karnak.core.registry import UnknownGameError


def test_registry_knows_amunre_and_refuses_unknown_games() -> None:
    assert get_game("amunre").name == "amunre"
    assert get_game("Amun-Re").name == "amunre"
    with pytest.raises(UnknownGameError, match="amunre"):
        get_game("senet")


def test_options_fill_defaults_and_coerce_text() -> None:
    game = get_game("amunre")
    assert game.resolve_options({}) == {
        "edition": "2003",
        "expert_provinces": False,
        "offer_cards": False,
    }
    resolved = game.resolve_options({"edition": "2016", "expert_provinces": "yes"})
    assert resolved["edition"] == "2016" and resolved["expert_provinces"] is True


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"edition": "1999"}, "allowed values: 2003, 2016"),
        ({"colour": "red"}, "no option"),
        ({"offer_cards": "maybe"}, "offer_cards"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        get_game("amunre").resolve_options(options)


@pytest.mark.parametrize("players", [2, 6])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(InvalidOptionError, match="3 to 5 players"):
        get_game("amunre").new_state(players)


def test_seat_names_must_be_distinct() -> None:
    with pytest.raises(InvalidOptionError, match="distinct"):
        get_game("amunre").new_state(["Ann", "Ann", "Bo"])


def _played_record(actions: int = 40) -> GameRecord:
    state = get_game("amunre").new_state(4, seed=11)
    for _ in range(actions):
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    return state.record()


def test_record_round_trips_through_json() -> None:
    record = _played_record()
    again = GameRecord.from_json(json.loads(record.dumps()))
    assert again == record
    assert replay(again) == replay(record)


def test_tampered_record_names_the_first_bad_action() -> None:
    record = _played_record()
    seat, _ = record.actions[5]
    record.actions[5] = (seat, "bid THEBES 36")
    with pytest.raises(RecordError, match="action 5") as info:
        replay(record)
    assert info.value.index == 5


def test_unreadable_action_text_is_reported_with_its_index() -> None:
    record = _played_record()
    record.actions[2] = (record.actions[2][0], "dance wildly")
    with pytest.raises(RecordError, match=r"action 2 .* cannot be read"):
        replay(record)


def test_version_mismatch_is_refused() -> None:
    record = _played_record()
    record.version = "0.1"
    with pytest.raises(RecordError, match="version"):
        replay(record)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"format": "other/9"}, "unknown record format"),
        ({"game": "amunre"}, "lacks"),
        (
            {"game": "amunre", "version": "1.0", "seed": "x", "seats": [], "actions": []},
            "seed",
        ),
        (
            {"game": "amunre", "version": "1.0", "seed": 1, "seats": ["a"], "actions": [[0]]},
            "pair",
        ),
    ],
)
def test_malformed_records_are_refused(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data)


def test_claimed_result_is_checked_on_replay() -> None:
    state = get_game("amunre").new_state(3, seed=2)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    record = state.record()
    record.result = {"scores": [s + 1 for s in state.scores()]}
    with pytest.raises(RecordError, match="claims scores"):
        replay(record)


def test_loading_a_file_that_is_no_record_is_one_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every caller of GameRecord.load gets the CLI's protections: binary files, JSON nested
    too deeply and files over the size limit are RecordErrors, never tracebacks."""
    import pytest

    from karnak.core import GameRecord, RecordError
    from karnak.core.record import MAX_RECORD_BYTES

    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe" * 10)
    nested = tmp_path / "deep.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(MAX_RECORD_BYTES + 1)
    for path, words in ((binary, "UTF-8"), (nested, "nested too deeply"), (huge, "MB")):
        with pytest.raises(RecordError, match=words):
            GameRecord.load(path)
