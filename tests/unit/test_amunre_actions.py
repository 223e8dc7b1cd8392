"""Actions are values: text and JSON forms round-trip; bad text is refused with the forms."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core.errors import InvalidActionTextError
from karnak.games.amunre import GAME
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS

provinces = st.sampled_from(GAME.board.province_names)
cards = st.sampled_from(CARD_KINDS)
actions = st.one_of(
    st.builds(
        A.Bid, provinces, st.sampled_from(GAME.board.bid_spaces), st.booleans(), st.booleans()
    ),
    st.builds(A.BuyCards, st.integers(1, 6)),
    *(
        st.builds(cls, provinces)
        for cls in (
            A.Farmer,
            A.Stone,
            A.Builder,
            A.FreeFarmer,
            A.TakeFarmer,
            A.TakeStone,
            A.EightGold,
            A.HarvestIncrease,
            A.Pick,
        )
    ),
    st.builds(A.Sell, cards),
    st.builds(A.PlayBonus, cards),
    st.builds(A.Adjust, st.sampled_from([3, -3])),
    st.just(A.DONE),
    st.just(A.TAKE_CARD),
    st.builds(
        A.Offer,
        gold=st.integers(1, 80),
        correction=st.booleans(),
        cards=st.lists(cards, max_size=3).map(lambda c: tuple(sorted(c))),
    ),
    st.builds(A.Offer, theft=st.just(True), correction=st.booleans()),
)


@given(actions)
def test_text_round_trip(action: A.AmunReAction) -> None:
    assert GAME.parse_action(action.to_text()) == action


@given(actions)
def test_json_round_trip(action: A.AmunReAction) -> None:
    assert GAME.action_from_json(action.to_json()) == action


@given(actions)
def test_repr_is_valid_code(action: A.AmunReAction) -> None:
    assert eval(repr(action), vars(A)) == action


def test_text_is_forgiving_about_case_and_spaces() -> None:
    assert GAME.parse_action("  BID thebes 6 +Blockade ") == A.Bid("THEBES", 6, blockade=True)
    assert GAME.parse_action("sell free-farmer") == A.Sell("free_farmer")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("bid THEBES six", "not a whole number"),
        ("bid THEBES 6 +double", "unknown flag"),
        ("sell joker", "unknown power card"),
        ("fly away", "unknown action"),
        ("adjust +4", "unknown action"),
    ],
)
def test_bad_text_is_refused_with_the_forms(text: str, message: str) -> None:
    with pytest.raises(InvalidActionTextError, match=message) as info:
        GAME.parse_action(text)
    assert "Forms:" in str(info.value)


def test_bad_json_is_refused() -> None:
    with pytest.raises(InvalidActionTextError):
        GAME.action_from_json({"type": "bid", "province": "THEBES"})
    with pytest.raises(InvalidActionTextError):
        GAME.action_from_json({"type": "teleport"})
    with pytest.raises(InvalidActionTextError):
        GAME.action_from_json({"type": "adjust", "delta": 5})
