"""A tournament's report in the arena's manner (karnak.bots.arena): each player's score
with its Wilson 95% interval, and each seat's results over the whole tournament.

A game's score for a seat is the share of the other seats it placed ahead of, a tie
counting half: 1, ½ or 0 in a two-player game, and in a pool the same pairwise count over
the table (first of four, 1; second, ⅔; ...). Byes are not games and are left out. The
interval says how far the share could be from the player's true strength in such games;
with the few games of a tournament it is wide, and the report shows it so that nobody
reads more into a short run than it holds. The seats' rows show whether moving first (or
sitting late) paid in this tournament, as the arena's seat rotation does for bots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from karnak.bots.arena import wilson_interval

if TYPE_CHECKING:
    from karnak.server.tournaments.store import Tournament


def seat_scores(places: list[int]) -> list[float]:
    """Each seat's score in a game from the places (1 is best)."""
    others = len(places) - 1
    return [
        sum(1.0 if place < other else 0.5 if place == other else 0.0 for other in rest) / others
        for place, rest in (
            (place, places[:seat] + places[seat + 1 :]) for seat, place in enumerate(places)
        )
    ]


def _row(score: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(score, games)
    return {
        "games": games,
        "score": round(score, 3),
        "share": round(score / games, 3) if games else None,
        "interval": [round(low, 3), round(high, 3)],
    }


def report(tournament: Tournament) -> dict[str, Any]:
    """Every player's and every seat's games, score, share and Wilson 95% interval (the
    players as they stand in the order they joined)."""
    score = {p.name: 0.0 for p in tournament.players}
    games = dict.fromkeys(score, 0)
    firsts = dict.fromkeys(score, 0)
    seat_score: list[float] = []
    seat_games: list[int] = []
    for game in tournament.games:
        if game.bye or game.places is None or len(game.seats) < 2:
            continue
        for seat, (name, got) in enumerate(zip(game.seats, seat_scores(game.places), strict=True)):
            score[name] += got
            games[name] += 1
            if seat == 0:
                firsts[name] += 1
            while len(seat_score) <= seat:
                seat_score.append(0.0)
                seat_games.append(0)
            seat_score[seat] += got
            seat_games[seat] += 1
    return {
        "players": [
            {"name": name, **_row(score[name], games[name]), "first_seats": firsts[name]}
            for name in score
        ],
        "seats": [
            {"seat": seat + 1, **_row(seat_score[seat], seat_games[seat])}
            for seat in range(len(seat_score))
        ],
    }
