"""What the server sends to one seat or to a spectator: built from that seat's view alone.

Every HTTP response and WebSocket message about a running game goes through
:func:`seat_view`. It reads the engine only through ``observation(seat)``, the seat's own
legal actions and its redacted log, plus facts that are public by the rules (who is to
move, who has committed at a sealed step, which moves the server played on a timeout). The
non-interference tests re-deal everything hidden from a seat and check that this function's
output does not change.

At a crowd table (more than :data:`CROWD_SEATS` seats) the game's page may send each seat
its own part in full and the others in short (``WebPage.crowd_view``); one other player's
part in full is then fetched when the reader asks for it (:func:`player_sheet`, from the
reader's own observation too). A crowd's view carries the last :data:`CROWD_LOG_LINES`
lines of the log, those the page shows.
"""

from __future__ import annotations

from typing import Any

from karnak.i18n.log import log_lines
from karnak.server.bot_names import bot_view
from karnak.server.game_pages import client_assets, page_for
from karnak.server.rooms import Room
from karnak.server.timebank.views import add_time_and_departures

#: Tables of more seats than this are crowds: every page there gets a view at every new step,
#: and a view carrying every player's part in full made a round's work grow with the square
#: of the table (bench/crowd_round.py); karnak.server.service holds back a crowd's changes
#: within a step too (CROWD_SETTLE).
CROWD_SEATS = 12


#: The log lines a crowd's view carries: the last ones, as many as the page shows
#: (static/game.js); 99 players write thousands of lines a game.
CROWD_LOG_LINES = 300


def is_crowd(room: Room) -> bool:
    """Whether ``room`` is a crowd table (more than :data:`CROWD_SEATS` seats)."""
    return len(room.seats) > CROWD_SEATS


def can_undo(room: Room, seat: int | None) -> bool:
    """Whether ``seat`` may take back its last move (only ever the last mover may)."""
    if seat is None or not room.accepted or room.accepted[-1].seat != seat:
        return False
    if room.seats[seat].is_bot:
        return False
    return room.undo_refusal(seat) is None


def timeouts_seen(room: Room, seat: int | None) -> list[dict[str, int]]:
    """The moves the server played when a timer ran out, as far as ``seat`` saw them: each
    numbered by its place among the moves the seat saw (another seat's private step is
    neither listed nor counted)."""
    listed: list[dict[str, int]] = []
    seen = 0
    for entry in room.accepted:
        if entry.private and entry.seat != seat:
            continue
        if entry.by_timeout:
            listed.append({"seat": entry.seat, "number": seen})
        seen += 1
    return listed


def seat_view(
    room: Room,
    seat: int | None,
    *,
    deadline: float | None = None,
    board_svg: str | None = None,
) -> dict[str, Any]:
    """The full view for ``seat`` (None: a spectator, who sees public information only).

    Its words (the log, the page's labels, the guide) are in the current language
    (:func:`karnak.i18n.current_language`, set per request).

    ``deadline`` is the wall-clock time (seconds since the epoch) when the turn timer of the
    seats to move runs out, if the game has a timer. ``board_svg`` is the position's board
    when the caller has drawn it already (it is public, so one drawing serves every seat).
    """
    state = room.state
    crowd = is_crowd(room)
    observation = state.observation(seat)
    over = state.is_over()
    # A game that ended without its rules' finish (an idle game expired) waits for nobody.
    ended = room.ended
    movers = list(state.to_move()) if ended is None else []
    # A seat that is not to move may still have optional moves (Egyptia: a waiting
    # builder's ships); its turn is only when it is to move.
    legal = state.legal_actions(seat) if seat is not None and ended is None else []
    view: dict[str, Any] = {
        "game_id": room.id,
        "game": room.game.name,
        "title": room.game.title,
        "version": room.version_for(seat),
        "status": ended.how if ended else "finished" if over else "running",
        "seat": seat,
        "players": [
            {
                "seat": info.seat,
                "name": info.name,
                "kind": info.kind,
                # a bot by its level ("Medium bot"), its spec for a hover (bot_names)
                "bot": bot_view(info.bot, room.game),
                # an account holds the seat (public, like its name; see karnak.server.tables)
                "held": info.account is not None,
            }
            for info in room.seats
        ],
        "to_move": movers,
        "sealed": state.is_simultaneous(),
        "your_turn": seat is not None and seat in movers,
        "legal": [{"text": action.to_text(), "action": action.to_json()} for action in legal],
        "observation": observation,
        # in the reader's language; a crowd's only the last lines, which the page shows
        "log": log_lines(state, seat, last=CROWD_LOG_LINES if crowd else None),
        "timeouts": timeouts_seen(room, seat),
        "can_undo": can_undo(room, seat),
        "turn_timer": room.turn_timer,
        "deadline": deadline,
    }
    parts = page_for(room.game.name)
    if parts is not None:
        view["page"] = {
            "board_svg": (
                parts.board_svg(room.game, observation if seat is None else state.observation(None))
                if board_svg is None
                else board_svg
            ),
            **parts.page_data(room.game, observation, seat, legal),
        }
        if parts.guide is not None:
            view["page"]["guide"] = parts.guide(room.game, observation, seat, legal)
        if parts.crowd_view is not None and crowd:
            # the page's parts above read the whole observation; the page gets the others
            # in short and fetches one in full when asked (player_sheet)
            view["observation"] = parts.crowd_view(room.game, observation, seat)
            view["crowd"] = True
    if ended is not None:
        view["ended"] = {"how": ended.how, "reason": ended.reason}
    if over:
        view["result"] = {
            "scores": state.scores(),
            "ranks": state.ranks(),
            "winners": state.winners(),
        }
    view["client"] = client_assets(room.game.name)  # the game's script and stylesheets
    add_time_and_departures(room, seat, view)  # clocks, seats bots took over (timebank)
    return view


def player_sheet(room: Room, reader: int | None, seat: int) -> dict[str, Any] | None:
    """The part of the player at ``seat`` in full, as ``reader`` (None: a spectator) sees it
    in its own observation (another's sheet as last published); None where the game's page
    has no such part or there is no such seat."""
    parts = page_for(room.game.name)
    if parts is None or parts.player_sheet is None or not 0 <= seat < len(room.seats):
        return None
    sheet = parts.player_sheet(room.game, room.state.observation(reader), seat)
    return {"game_id": room.id, "version": room.version_for(reader), **sheet}
