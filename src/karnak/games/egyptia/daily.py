"""Egyptia as the game of the day: one builder, the dice and Pharaoh cards of the day.

The leaderboard ranks the score, then fewer plagues crossed off (the rule book's own
tie-break for a shared score). What a player shares is one square a round, saying whether
the round built and whether it brought a plague, and a red circle when the builder ended
the game on a red dot: enough to compare how a day went, nothing of which dice fell.
"""

from __future__ import annotations

from karnak.core.daily import DailyGame, DailyResult
from karnak.core.errors import RecordError
from karnak.core.record import GameRecord
from karnak.core.registry import get_game
from karnak.games.egyptia.rules.pharaoh import EMPTY
from karnak.games.egyptia.rules.state import EgyptiaState

#: A round's square by (built something, suffered a plague).
MARKS = {
    (True, False): "\U0001f7e9",  # green square
    (True, True): "\U0001f7e7",  # orange square
    (False, True): "\U0001f7e5",  # red square
    (False, False): "\u2b1c",  # white square
}
#: After the last round, when the builder circled a red dot (and so ended the game).
RED_DOT = "\U0001f534"


def _built(state: EgyptiaState) -> int:
    return sum(1 for building in state.city[0] if building != EMPTY)


def daily_result(record: GameRecord) -> DailyResult:
    """The result of a finished one-builder game, replayed from its record."""
    if len(record.seats) != 1:
        raise RecordError("a game of the day has one builder")
    game = get_game(record.game).at_version(record.version)
    state = game.new_state(record.seats, seed=record.seed, options=record.options)
    if not isinstance(state, EgyptiaState):
        raise RecordError(f"{record.game} is not Egyptia")
    marks: list[str] = []
    built, plagues, round_ = _built(state), len(state.crossed[0]), state.round

    def close_round() -> None:
        nonlocal built, plagues
        now_built, now_plagues = _built(state), len(state.crossed[0])
        marks.append(MARKS[(now_built > built, now_plagues > plagues)])
        built, plagues = now_built, now_plagues

    for seat, text in record.actions:
        state.apply(seat, game.parse_action(text))
        if state.round != round_:
            close_round()
            round_ = state.round
    if not state.is_over():
        raise RecordError("the game is not over")
    close_round()
    final = state.final[0] if state.final is not None else state.score_sheet(0)
    if state.red[0]:
        marks.append(RED_DOT)
    return DailyResult(
        score=int(final["total"]),
        status=state.solo_rank(),
        penalty=int(final["plagues"]),
        marks="".join(marks),
    )


def ngettext(one: str, many: str, n: int) -> tuple[str, str]:
    """Marks a plural pair for the catalogue (the keyword the extraction looks for); the
    server translates it with the game's catalogue when it counts (``DailyGame``)."""
    return one, many


DAILY = DailyGame(result=daily_result, penalty_words=ngettext("{n} plague", "{n} plagues", 2))
