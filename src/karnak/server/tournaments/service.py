"""Tournaments: any account runs one, for any game, Swiss, elimination or pools.

How one goes:

- **Creating.** An account names it and chooses the game, the format (Swiss, single or
  double elimination for two-player games; pools of tables for games of three seats or
  more), the rounds (Swiss and pools), the most players (2 to 64), optionally a start time
  (else its creator starts it), the pace of its games (a turn timer, or a time control:
  a real-time speed for one sitting, a turn-based one for days), whether it is open to all
  or by invitation, and whether bots fill the field at the start (and at which level). An
  account runs at most :data:`MOST_OPEN` tournaments at once.
- **Joining.** Accounts join and leave until the start (by invitation: only those its
  creator invited, each told so by a notification); each brings its rating in that game,
  which seeds the first round and breaks the last ties.
- **The start.** At its time, or when its creator starts it: the bots fill the field up to
  its most players if the creator allowed them; with fewer players than one game needs it
  is cancelled. Then round 1.
- **A round.** The pairings follow the format's rules (karnak.server.tournaments.swiss,
  .elimination, .pools) and are published with the round; every game is an ordinary game
  of the server (rated as any other), each player told with its link. A player who leaves
  a game is replaced by a bot as in any game and counts as last of it.
- **Results.** Every few seconds each process writes the places of the tournament games
  that ended (once: karnak.server.tournaments.store) and starts the next round of a
  tournament whose round is complete (once: only the process that moves its round number
  makes the games). Swiss and pools end after their rounds, an elimination with one player
  left (a drawn game of an elimination goes to the better seed; a double elimination:
  karnak.server.tournaments.double_elimination).
- **The report.** Beside the standings, each player's score with its Wilson 95% interval
  and each seat's results over the whole tournament, as the arena reports bots
  (karnak.server.tournaments.report).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from karnak.bots.levels import LEVELS, level_spec
from karnak.core.registry import available_games, get_game
from karnak.i18n import N_, t
from karnak.server.bot_names import level_label
from karnak.server.db import utcnow
from karnak.server.matchmaking.store import MatchStore
from karnak.server.notifications.bounds import Sender
from karnak.server.rooms import BOT, HUMAN
from karnak.server.service import GameService, SeatRequest
from karnak.server.ticker import Ticker
from karnak.server.timebank.clock import TimeControl, TimeControlError
from karnak.server.timebank.speeds import SPEEDS, TURN_BASED
from karnak.server.tournaments import double_elimination, elimination, pools, report, swiss
from karnak.server.tournaments.store import Tournament, TournamentError, TournamentStore

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor
    from karnak.server.limits import ServerSettings
    from karnak.server.notifications.service import Notifier

log = logging.getLogger("karnak.server")

FORMATS = ("swiss", "elimination", "double", "pools")
#: The formats of two-player games, and those that play until one player is left.
TWO_PLAYER_FORMATS = ("swiss", "elimination", "double")
KNOCKOUTS = ("elimination", "double")
#: How often each process looks at the tournaments (seconds).
TICK = 3.0
#: Tournaments one account runs at once.
MOST_OPEN = 5
MOST_PLAYERS = 64
MOST_ROUNDS = 15
FURTHEST = dt.timedelta(days=30)
ROUND_STARTED = N_("Round {round} of {tournament}: your game against {others}")
INVITED = N_("{creator} invites you to the tournament {tournament}")
#: The least time a move of a turn-based pace has (the slowest real-time speed is less).
TURN_BASED_FROM = min(s.per_move for s in SPEEDS if s.kind == TURN_BASED)


@dataclass(frozen=True)
class NewTournament:
    name: str
    game: str
    format: str
    rounds: int
    max_players: int
    bots: str | None
    turn_timer: float | None
    starts_at: dt.datetime | None
    invite_only: bool = False
    #: A time per move and a bank ({"per_move": s, "bank": s}), instead of a turn timer.
    time_control: dict[str, float] | None = None


def two_player_result(places: list[int]) -> float:
    """The first seat's points of a two-player game from the places (1, ½ or 0)."""
    if places[0] == places[1]:
        return 0.5
    return 1.0 if places[0] < places[1] else 0.0


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings, best first, as the format ranks them."""
    ratings = {p.name: p.rating for p in tournament.players}
    if tournament.format == "pools":
        points = dict.fromkeys(ratings, 0.0)
        for game in tournament.games:
            if game.places is None:
                continue
            for name, got in zip(
                game.seats, pools.place_points(game.places, tournament.most), strict=True
            ):
                points[name] += got
        ranked = sorted(ratings, key=lambda n: (-points[n], -ratings[n], n))
        return [
            {"place": i + 1, "name": n, "points": points[n], "buchholz": None}
            for i, n in enumerate(ranked)
        ]
    games = [
        swiss.Game(
            g.seats[0],
            g.seats[1] if len(g.seats) > 1 else None,
            two_player_result(g.places) if len(g.seats) > 1 and g.places else 1.0,
        )
        for g in tournament.games
        if g.places is not None
    ]
    table = swiss.standings(ratings, games)
    if tournament.format in KNOCKOUTS:
        return _knockout_standings(tournament, table)
    return [
        {"place": i + 1, "name": s.player, "points": s.points, "buchholz": s.buchholz}
        for i, s in enumerate(table)
    ]


def seeded(tournament: Tournament) -> list[str]:
    """The players best seed first: by the rating they started with, then by name."""
    return [p.name for p in sorted(tournament.players, key=lambda p: (-p.rating, p.name))]


def knockout_played(tournament: Tournament) -> list[double_elimination.Played]:
    """The games of an elimination that are over, each with its winner (a draw: the better
    seed)."""
    seed = {name: i for i, name in enumerate(seeded(tournament))}
    played = []
    for game in tournament.games:
        if game.places is None:
            continue
        best = min(game.places)
        tied = [n for n, p in zip(game.seats, game.places, strict=True) if p == best]
        played.append(
            double_elimination.Played(
                game.round,
                game.bracket or double_elimination.WINNERS,
                tuple(game.seats),
                min(tied, key=seed.__getitem__),
            )
        )
    return played


def _knockout_standings(
    tournament: Tournament, table: list[swiss.Standing]
) -> list[dict[str, Any]]:
    """An elimination's standings: who is still in first (fewer losses first), then who
    went out later, then the better seed; the points are the games won (a bye counts)."""
    names = seeded(tournament)
    played = knockout_played(tournament)
    if tournament.format == "double":
        order = double_elimination.standing(names, played)
    else:  # a single loss puts a player out
        lost = {n: 0 for n in names}
        out_in: dict[str, int] = {}
        for game in played:
            for seat in game.seats:
                if seat != game.winner:
                    lost[seat] += 1
                    out_in[seat] = game.round
        seed = {n: i for i, n in enumerate(names)}
        order = sorted(names, key=lambda n: (lost[n] > 0, -out_in.get(n, 0), seed[n]))
    by_name = {s.player: s for s in table}
    return [
        {"place": i + 1, "name": n, "points": by_name[n].points, "buchholz": None}
        for i, n in enumerate(order)
    ]


def pace(tournament: Tournament) -> str | None:
    """ "real-time" or "turn-based" for a time control (a turn timer is real-time); None
    when its games have no clock."""
    if tournament.time_control is not None:
        return (
            "turn-based"
            if tournament.time_control["per_move"] >= TURN_BASED_FROM
            else ("real-time")
        )
    return "real-time" if tournament.turn_timer is not None else None


class TournamentService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        games: GameService,
        notifier: Notifier,
        settings: ServerSettings,
    ):
        self.store = TournamentStore(engine)
        self.ratings = MatchStore(engine)
        self.executor = executor
        self.games = games
        self.notifier = notifier
        self.settings = settings
        self.clock: Callable[[], dt.datetime] = utcnow
        self._lock = asyncio.Lock()
        self._ticker = Ticker(
            self.tick, TICK, "the tournaments could not be looked after", first_at_once=False
        )

    # ------------------------------------------------------------------ creating
    def check(self, new: NewTournament) -> tuple[int, int]:
        """The table bounds (least, most) of a valid tournament; TournamentError (422/404)
        naming what is wrong."""
        if not new.name.strip():
            raise TournamentError(t("a tournament has a name"), 422)
        if new.game not in available_games():
            raise TournamentError(
                t(
                    "there is no game {game}; games: {games}",
                    game=repr(new.game[:40]),
                    games=", ".join(available_games()),
                ),
                404,
            )
        game = get_game(new.game)
        two = game.min_players <= 2 <= game.max_players
        if new.format not in FORMATS:
            raise TournamentError(
                t("a tournament is swiss, elimination, double elimination or pools"), 422
            )
        if new.format in TWO_PLAYER_FORMATS and not two:
            raise TournamentError(
                t("{game} is not played by two: its tournaments are pools", game=game.title),
                422,
            )
        least, most = 2, 2
        if new.format == "pools":
            least, most = max(3, game.min_players), min(5, game.max_players)
            if least > most:
                raise TournamentError(
                    t(
                        "{game} is played by two: its tournaments are swiss,"
                        " elimination or double elimination",
                        game=game.title,
                    ),
                    422,
                )
        if not 1 <= new.rounds <= MOST_ROUNDS:
            raise TournamentError(t("a tournament has 1 to {most} rounds", most=MOST_ROUNDS), 422)
        if not max(2, least) <= new.max_players <= MOST_PLAYERS:
            raise TournamentError(
                t(
                    "a tournament has {least} to {most} players",
                    least=max(2, least),
                    most=MOST_PLAYERS,
                ),
                422,
            )
        if new.bots is not None and new.bots not in LEVELS:
            raise TournamentError(t("bots are a level: {levels}", levels=", ".join(LEVELS)), 422)
        if new.turn_timer is not None and not 10 <= new.turn_timer <= 3_600:
            raise TournamentError(t("a turn timer is between 10 seconds and an hour"), 422)
        if new.time_control is not None:
            if new.turn_timer is not None:
                raise TournamentError(
                    t("a tournament's games have a turn timer or a time bank, not both"), 422
                )
            try:
                TimeControl(new.time_control["per_move"], new.time_control["bank"])
            except (TimeControlError, KeyError, TypeError) as refused:
                raise TournamentError(str(refused), 422) from refused
        if (
            new.starts_at is not None
            and not self.clock() < new.starts_at <= self.clock() + FURTHEST
        ):
            raise TournamentError(  # 409: the request is well formed, the clock says no
                t("a tournament starts in the next 30 days, not in the past"), 409
            )
        return least, most

    async def create(self, creator: int, creator_name: str, new: NewTournament) -> Tournament:
        least, most = self.check(new)
        tournament_id = await self.executor.run(
            self.store.create,
            {
                "name": new.name,
                "game": new.game,
                "format": new.format,
                "rounds": new.rounds,
                "max_players": new.max_players,
                "least": least,
                "most": most,
                "bots": new.bots,
                "turn_timer": new.turn_timer,
                "time_per_move": new.time_control["per_move"] if new.time_control else None,
                "time_bank": new.time_control["bank"] if new.time_control else None,
                "invite_only": new.invite_only,
                "starts_at": new.starts_at,
                "creator_id": creator,
                "created_at": self.clock(),
            },
            MOST_OPEN,
        )
        return await self.get(tournament_id)

    async def get(self, tournament_id: str) -> Tournament:
        found = await self.executor.run(self.store.load, tournament_id)
        if found is None:
            raise TournamentError(t("there is no tournament with this id"), 404)
        return found

    async def join(self, tournament_id: str, account: int, name: str) -> Tournament:
        tournament = await self.get(tournament_id)
        rating = await self.executor.run(self.ratings.rating, tournament.game, account)
        await self.executor.run(self.store.join, tournament_id, account, name, rating)
        return await self.get(tournament_id)

    async def invite(
        self, tournament_id: str, creator: int, creator_name: str, names: list[str]
    ) -> dict[str, Any]:
        """Invite accounts by name to a tournament by invitation (its creator); each newly
        invited is told by a notification (as any person's notification: not to one who
        blocked the creator, and within the sender's bounds)."""
        tournament = await self.get(tournament_id)
        invited, unknown = await self.executor.run(
            self.store.invite, tournament_id, creator, names, self.clock()
        )
        for account, _name in invited:
            with contextlib.suppress(Exception):
                await self.notifier.notify_from(
                    Sender(account=creator),
                    account,
                    "invitation",
                    t(INVITED, creator=creator_name, tournament=tournament.name),
                    f"/tournaments/{tournament_id}",
                )
        return {"invited": [name for _id, name in invited], "unknown": unknown}

    async def leave(self, tournament_id: str, account: int) -> bool:
        return bool(await self.executor.run(self.store.leave, tournament_id, account))

    async def start(self, tournament_id: str, account: int | None) -> Tournament:
        """Start now (its creator; ``account`` None: the timetable)."""
        tournament = await self.get(tournament_id)
        if account is not None and tournament.creator != account:
            raise TournamentError(t("only its creator starts a tournament"), 403)
        if tournament.status != "open":
            raise TournamentError(t("this tournament has started already"))
        await self._begin(tournament)
        return await self.get(tournament_id)

    # ------------------------------------------------------------------ running
    async def tick(self) -> None:
        """Start what is due, write results, start the rounds that can start."""
        async with self._lock:
            for tournament_id in await self.executor.run(self.store.due, self.clock()):
                with contextlib.suppress(TournamentError):
                    await self._begin(await self.get(tournament_id))
            await self.executor.run(self.store.record_results)
            for tournament_id in await self.executor.run(self.store.running):
                await self._advance(await self.get(tournament_id))

    async def _begin(self, tournament: Tournament) -> None:
        players = list(tournament.players)
        if tournament.bots is not None and len(players) < tournament.max_players:
            game = get_game(tournament.game)
            spec = level_spec(
                tournament.bots,
                game,
                max_think=self.settings.max_think,
                max_game_think=self.settings.max_game_think,
            )
            taken = {p.name.casefold() for p in players}
            label = level_label(tournament.bots)
            bots: list[tuple[str, str]] = []
            number = 0
            while len(players) + len(bots) < tournament.max_players:
                number += 1
                name = f"{label} {number}"
                if name.casefold() not in taken:
                    bots.append((name, spec))
            await self.executor.run(self.store.add_bots, tournament.id, bots)
            tournament = await self.get(tournament.id)
        needed = tournament.least if tournament.format == "pools" else 2
        if len(tournament.players) < needed:
            await self.executor.run(self.store.finish, tournament.id, "cancelled", self.clock())
            return
        await self._next_round(tournament)

    async def _advance(self, tournament: Tournament) -> None:
        current = [g for g in tournament.games if g.round == tournament.round]
        if not current or any(g.places is None for g in current):
            return
        if tournament.format == "double":
            if double_elimination.finished(seeded(tournament), knockout_played(tournament)):
                await self.executor.run(self.store.finish, tournament.id, "finished", self.clock())
                return
        elif tournament.format == "elimination":
            if len(self._winners(tournament, current)) <= 1:
                await self.executor.run(self.store.finish, tournament.id, "finished", self.clock())
                return
        elif tournament.round >= tournament.rounds:
            await self.executor.run(self.store.finish, tournament.id, "finished", self.clock())
            return
        await self._next_round(tournament)

    @staticmethod
    def _winners(tournament: Tournament, games: list[Any]) -> list[str]:
        """The winners of ``games`` (of this round), in their order."""
        ended = {(g.round, g.seats): g.winner for g in knockout_played(tournament)}
        return [ended[(g.round, tuple(g.seats))] for g in games]

    def _pairings(self, tournament: Tournament) -> list[tuple[list[str], str | None]]:
        """The next round's tables (names in seat order; one name: a bye), each with its
        bracket (a double elimination's; None elsewhere)."""
        if tournament.format == "double":
            tables = double_elimination.next_round(seeded(tournament), knockout_played(tournament))
            return [(list(table.seats), table.bracket) for table in tables]
        return [(names, None) for names in self._plain_pairings(tournament)]

    def _plain_pairings(self, tournament: Tournament) -> list[list[str]]:
        if tournament.format == "swiss":
            ratings = {p.name: p.rating for p in tournament.players}
            games = [
                swiss.Game(
                    g.seats[0],
                    g.seats[1] if len(g.seats) > 1 else None,
                    two_player_result(g.places) if len(g.seats) > 1 and g.places else 1.0,
                )
                for g in tournament.games
                if g.places is not None
            ]
            return [[a] if b is None else [a, b] for a, b in swiss.pair(ratings, games)]
        if tournament.format == "elimination":
            if tournament.round == 0:
                opening = elimination.first_round(seeded(tournament))
                return [[a] if b is None else [a, b] for a, b in opening]
            current = [g for g in tournament.games if g.round == tournament.round]
            had_first = double_elimination.first_seats(knockout_played(tournament))
            seed = {name: i for i, name in enumerate(seeded(tournament))}
            return [
                list(elimination.seated(a, b, had_first, seed))
                for a, b in elimination.next_round(self._winners(tournament, current))
            ]
        ranked = (
            seeded(tournament)
            if tournament.round == 0
            else [row["name"] for row in standings(tournament)]
        )
        return pools.seat_tables(ranked, tournament.least, tournament.most)

    async def _next_round(self, tournament: Tournament) -> None:
        tables = self._pairings(tournament)
        round_ = tournament.round + 1
        if not await self.executor.run(
            self.store.claim_round, tournament.id, tournament.round, "running"
        ):
            return  # another process started this round
        by_name = {p.name: p for p in tournament.players}
        for names, bracket in tables:
            if len(names) == 1:
                await self.executor.run(
                    self.store.add_game, tournament.id, round_, names, None, bracket
                )
                continue
            seats = [
                SeatRequest(BOT, name, by_name[name].bot)
                if by_name[name].bot
                else SeatRequest(HUMAN, name, None, account=by_name[name].account)
                for name in names
            ]
            try:
                created = await self.games.create(
                    tournament.game,
                    seats,
                    None,
                    None,
                    tournament.turn_timer,
                    tournament.time_control,
                )
            except Exception:
                log.exception("a game of tournament %s could not start", tournament.id)
                await self.executor.run(self.store.finish, tournament.id, "cancelled", self.clock())
                return
            game_id = created.room.id
            await self.executor.run(
                self.store.add_game, tournament.id, round_, names, game_id, bracket
            )
            for name in names:
                account = by_name[name].account
                if account is None:
                    continue
                others = ", ".join(n for n in names if n != name)
                with contextlib.suppress(Exception):
                    await self.notifier.notify(  # an invitation: mailed to who takes those
                        account,
                        "invitation",
                        t(ROUND_STARTED, round=round_, tournament=tournament.name, others=others),
                        f"/games/{game_id}",
                    )

    async def stop(self) -> None:
        await self._ticker.stop()

    # ------------------------------------------------------------------ reading
    def out(
        self,
        tournament: Tournament,
        account: int | None = None,
        invited_names: list[str] | None = None,
    ) -> dict[str, Any]:
        """What anyone may read of a tournament: public facts only (who plays whom, and the
        places of the games that are over). Who is invited is its creator's to read
        (``invited_names``, given for the creator only)."""
        rounds: dict[int, list[dict[str, Any]]] = {}
        for game in tournament.games:
            rounds.setdefault(game.round, []).append(
                {
                    "seats": game.seats,
                    "bye": game.bye,
                    "game_id": game.game_id,
                    "url": f"/games/{game.game_id}" if game.game_id else None,
                    "places": game.places if not game.bye else None,
                    "left": game.left,
                    "bracket": game.bracket,
                }
            )
        return {
            "id": tournament.id,
            "name": tournament.name,
            "game": tournament.game,
            "title": get_game(tournament.game).title,
            "format": tournament.format,
            "rounds": tournament.rounds,
            "round": tournament.round,
            "max_players": tournament.max_players,
            "bots": tournament.bots,
            "turn_timer": tournament.turn_timer,
            "time_control": tournament.time_control,
            "pace": pace(tournament),
            "invite_only": tournament.invite_only,
            "invited": invited_names
            if account is not None and tournament.creator == account
            else None,
            "may_join": account is not None
            and tournament.status == "open"
            and (
                not tournament.invite_only
                or tournament.creator == account
                or account in tournament.invited
            ),
            "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
            "status": tournament.status,
            "created_at": tournament.created_at.isoformat(),
            "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
            "players": [
                {
                    "name": p.name,
                    "kind": "bot" if p.bot else "account",
                    "rating": round(p.rating, 1),
                }
                for p in tournament.players
            ],
            "joined": (
                any(p.account == account for p in tournament.players)
                if account is not None
                else None
            ),
            "yours": account is not None and tournament.creator == account,
            "standings": standings(tournament),
            "report": report.report(tournament),
            "schedule": [
                {"round": number, "games": games} for number, games in sorted(rounds.items())
            ],
        }
